"""mapping_reached.py: every ATen op the importer maps (tools/remat_torch/emit.py's OPS)
reaches its mapping: none is also decomposed by the trace's decompositions
(tools/remat_torch/trace.py), which would replace it before the emitter sees it, so
that the mapping is dead and nothing else fails (docs/design.md, "Adding an op").

Usage: mapping_reached.py [EXTRA_DECOMPOSED_OP ...]  (an extra op counted as decomposed:
the test's planted case). Prints "N mapped ATen ops, each reached" or one line per op
shadowed by a decomposition; exits 1 then."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))

import torch  # noqa: E402
from remat_torch import emit, trace  # noqa: E402

decomposed = set(trace.decompositions())
for name in sys.argv[1:]:
    packet, overload = name.rsplit(".", 1)
    decomposed.add(getattr(getattr(torch.ops.aten, packet), overload))
shadowed = sorted(str(op) for op in emit.OPS if op in decomposed)
for op in shadowed:
    print("mapping_reached: %s is mapped in emit.OPS but decomposed in trace.py: its mapping "
          "is never used" % op)
if not shadowed:
    print("mapping_reached: %d mapped ATen ops, each reached" % len(emit.OPS))
sys.exit(1 if shadowed else 0)
