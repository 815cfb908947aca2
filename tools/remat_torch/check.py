"""The equivalence check: the rt function run by remat-run and torch's joint graph run
by torch, on the same inputs, must agree on every output and gradient within a stated
f32 tolerance. torch's rand_like is replaced by remat's Philox mapping (philox.py), so
both draw the same dropout masks bit for bit.

Tolerance: |rt - torch| <= ATOL + RTOL |torch| per element, RTOL = 1e-4, ATOL = 1e-5
(inputs and parameters are O(1)); bf16 and f16 values: textio.low_precision_bound. The two sides differ in summation order (remat's
sequential matmul and reductions vs torch's blocked BLAS and vectorized sums) and in
libm vs torch's vectorized exp/tanh/erf, i.e. by a few f32 ulps per op; the bound
leaves room for the growth of that difference through a few layers of backward.
"""
import os
import subprocess

import numpy as np
import torch
import torch.fx as fx

from . import emit, philox, textio

RTOL, ATOL = 1e-4, 1e-5
aten = torch.ops.aten


class PhiloxInterpreter(fx.Interpreter):
    """Runs an fx graph with every aten.rand_like drawing remat's Philox stream."""

    def __init__(self, gm, seed, offset):
        super().__init__(gm)
        self.seed, self.offset = seed, offset
        self.deltas = emit.random_offsets(gm.graph)

    def run_node(self, n):
        if n in self.deltas:
            tm = n.meta["tensor_meta"]
            u = philox.uniform(self.seed, self.offset + self.deltas[n], tuple(tm.shape))
            return torch.from_numpy(u).to(tm.dtype)
        return super().run_node(n)


def to_numpy(t):
    """A tensor's elements as numpy (bf16, which numpy lacks, widened exactly to f32)."""
    t = t.detach().cpu()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def torch_values(tensors):
    return [(tuple(t.shape), emit.elem_of(t.dtype), to_numpy(t)) for t in tensors]


def argument_values(joint, fn, tangents, seed, offset):
    """The rt function's inputs in argument order (primals, seed, offset, tangents)."""
    vals, names = [], []
    for a in joint.args:
        vals.append((tuple(a.value.shape), emit.elem_of(a.value.dtype), to_numpy(a.value)))
    if any(x["kind"] == "seed" for x in fn.arguments):
        vals += [(None, "i64", seed), (None, "i64", offset)]
    for t in tangents:
        vals.append((tuple(t.shape), emit.elem_of(t.dtype), to_numpy(t)))
    names = [x["name"] for x in fn.arguments]
    return vals, names


def make_tangents(graph, generator):
    out = []
    for n in graph.nodes:
        if n.op == "placeholder" and "tangents" in n.target:
            tm = n.meta["tensor_meta"]
            out.append(torch.randn(tuple(tm.shape), generator=generator).to(tm.dtype))
    return out


def run_torch(joint, fn, tangents, seed, offset):
    """torch's results for the rt function's results (outputs, then non-None grads)."""
    primals = [a.value.detach() for a in joint.args]
    with torch.no_grad():
        outs = PhiloxInterpreter(joint.gm, seed, offset).run(*primals, *tangents)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    picked = []
    for k, o in enumerate(outs):
        if k >= joint.num_outputs and o is None:
            continue
        picked.append(o)
    if len(picked) != len(fn.results):
        raise RuntimeError(f"torch gives {len(picked)} results, the rt function {len(fn.results)}")
    return picked


def result_names(fn):
    names = []
    for k, r in enumerate(fn.results):
        names.append(f"output #{k}" if r["kind"] == "output" else f"grad of {r['of']}")
    return names


def check(joint, fn, mlir_path, fn_name, workdir, remat_run, seed=1234, offset=7,
          rng_seed=0, rtol=RTOL, atol=ATOL, reference=True, log=print):
    """Writes workdir/inputs.txt, workdir/torch.txt and workdir/rt.txt; returns True when
    every value agrees."""
    os.makedirs(workdir, exist_ok=True)
    g = torch.Generator().manual_seed(rng_seed)
    tangents = make_tangents(joint.gm.graph, g)
    vals, arg_names = argument_values(joint, fn, tangents, seed, offset)
    inputs = os.path.join(workdir, "inputs.txt")
    textio.write(inputs, vals, comments=arg_names)
    want = torch_values(run_torch(joint, fn, tangents, seed, offset))
    names = result_names(fn)
    textio.write(os.path.join(workdir, "torch.txt"), want, comments=names)
    rt_out = os.path.join(workdir, "rt.txt")
    cmd = [remat_run, mlir_path, "--fn", fn_name, "--inputs", inputs, "--outputs", rt_out,
           "--print=none"] + (["--reference"] if reference else [])
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        log(f"check: cannot run '{remat_run}': {e.strerror} (give its path with --remat-run)")
        return False
    if proc.returncode != 0:
        log(proc.stdout.rstrip())
        log(f"check: remat-run failed (exit {proc.returncode}): {' '.join(cmd)}")
        return False
    got = textio.read(rt_out)
    want = [(s, e, np.asarray(a, dtype=np.float64) if e in emit.FLOATS else np.asarray(a))
            for s, e, a in want]
    ok, lines = textio.compare(got, want, rtol, atol, names)
    for line in lines:
        log("check: " + line)
    tol = textio.tolerance_text([e for _, e, _ in want], rtol, atol)
    log(f"check: {len(want)} values, tolerance |rt - torch| <= {tol}: "
        + ("ok" if ok else "FAILED"))
    return ok
