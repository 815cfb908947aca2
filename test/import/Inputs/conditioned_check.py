"""The importer's ill-conditioned rule (tools/remat_torch/check.py, conditioned()) on
made-up values: torch's f32 result is 1e-3 off its f64 one; rt 2e-3 off passes (2x),
rt 5e-3 off fails (5x > 4x), a wrong gradient (the value's sign flipped) fails, and a
value within the fixed bound passes without the f64 run."""
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
from remat_torch import check  # noqa: E402

t64 = np.array([10.0, -3.0, 0.5])
torch32 = t64 + np.array([1e-3, 0, 0])
runs = []


def f64():
    runs.append(1)
    import torch
    return [torch.tensor(t64)]


for label, rt in [("rt 2e-3 off", t64 + np.array([0, 2e-3, 0])),
                  ("rt 5e-3 off", t64 + np.array([0, 0, 5e-3])),
                  ("wrong sign", -t64),
                  ("within the bound", torch32.copy())]:
    runs.clear()
    ok, lines = check.conditioned([((3,), "f32", rt)], [((3,), "f32", torch32)], [label],
                                  check.RTOL, check.ATOL, f64)
    print(f"{label}: {'ok' if ok else 'FAILED'}, f64 runs {len(runs)}: {lines[0]}")
