"""--forward-only --expected DIR: what remat's autodiff of the forward function must
reproduce. DIR/inputs.txt holds the arguments of the joint function that
`--remat-autodiff` makes of it (primals, seed and offset if the graph draws random
numbers, then one tangent per forward output); DIR/expected.txt holds torch's forward
outputs and then the gradient of every floating-point tensor argument, in argument
order (zeros where torch's gradient is None: the argument is not used). Compare a run
with `tools/remat-compare OUT DIR/expected.txt` (tolerance as in check.py).
DIR/forward-inputs.txt and DIR/forward-expected.txt are the same without tangents and
gradients, for running the forward function itself."""
import os

import torch

from . import check, emit, textio


def write(joint, fn, outdir, seed=1234, offset=7, rng_seed=0):
    os.makedirs(outdir, exist_ok=True)
    g = torch.Generator().manual_seed(rng_seed)
    tangents = check.make_tangents(joint.gm.graph, g)
    vals, names = check.argument_values(joint, fn, tangents, seed, offset)
    names = names + [f"tangent of output #{k}" for k in range(len(tangents))]
    textio.write(os.path.join(outdir, "inputs.txt"), vals, comments=names)
    nf = len(vals) - len(tangents)
    textio.write(os.path.join(outdir, "forward-inputs.txt"), vals[:nf], comments=names[:nf])
    primals = [a.value.detach() for a in joint.args]
    with torch.no_grad():
        outs = check.PhiloxInterpreter(joint.gm, seed, offset).run(*primals, *tangents)
    outs = list(outs)
    want, labels = [], []
    for k in range(joint.num_outputs):
        want.append(outs[k])
        labels.append(f"output #{k}")
    for a, grad in zip(joint.args, outs[joint.num_outputs:]):
        if not a.value.is_floating_point():
            continue
        want.append(grad if grad is not None else torch.zeros_like(a.value))
        labels.append(f"grad of {a.name}")
    textio.write(os.path.join(outdir, "expected.txt"), check.torch_values(want), comments=labels)
    n = joint.num_outputs
    textio.write(os.path.join(outdir, "forward-expected.txt"), check.torch_values(want[:n]),
                 comments=labels[:n])
