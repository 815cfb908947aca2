"""eager_check.py CHECKDIR MODEL [LAYERS [KEY=VALUE ...]]: remat's results (CHECKDIR/rt.txt
of `remat-import-torch MODEL --check CHECKDIR`) against eager torch's own forward and
backward of the zoo model on the same inputs (CHECKDIR/inputs.txt): the loss and every
gradient, the tied weight's included. --check compares with the traced joint graph, which
holds the importer's decompositions (embedding, nll_loss: remat_torch/indexing.py); this
compares with torch's own kernels (embedding, embedding_dense_backward, nll_loss) and
autograd. Models without dropout (p=0), since eager dropout draws torch's numbers."""
import ast
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))


def main(checkdir, model, layers=1, *sets):
    from remat_torch import textio, trace
    import models
    kw = {}
    for s in sets:
        k, v = s.split("=", 1)
        try:
            kw[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            kw[k] = v
    torch.manual_seed(0)
    net, inputs = models.get(model).build(layers=int(layers), **kw)
    args = trace.module_args(net, inputs)
    vals = textio.read(os.path.join(checkdir, "inputs.txt"))
    got = textio.read(os.path.join(checkdir, "rt.txt"))
    # arguments in order (parameters, buffers, inputs), then the tangent of the loss
    with torch.no_grad():
        for a, (_, _, v) in zip(args, vals):
            a.value.copy_(torch.tensor(v, dtype=a.value.dtype).reshape(a.value.shape))
    tangent = torch.tensor(vals[len(args)][2], dtype=torch.float32)
    out = net(*inputs)
    out.backward(tangent)
    want = [out.detach()] + [a.value.grad for a in args if a.requires_grad]
    names = ["loss"] + [a.name for a in args if a.requires_grad]
    if len(want) != len(got):
        print(f"eager: {len(want)} values, rt {len(got)}: MISMATCH")
        return 1
    ok = True
    for name, w, (_, _, g) in zip(names, want, got):
        w = w.double().numpy()
        err = float(np.abs(g - w).max())
        bound = 1e-5 + 1e-4 * float(np.abs(w).max())
        good = err <= bound
        ok &= good
        print(f"eager: {name}: max abs err {err:.3g}: {'ok' if good else 'MISMATCH'}")
    print(f"eager: {len(want)} values against eager torch: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
