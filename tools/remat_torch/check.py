"""The equivalence check: the rt function run by remat-run and torch's joint graph run
by torch, on the same inputs, must agree on every output and gradient within a stated
f32 tolerance. torch's rand_like is replaced by remat's Philox mapping (philox.py), so
both draw the same dropout masks bit for bit.

Tolerance: |rt - torch| <= ATOL + RTOL |torch| per element, RTOL = 1e-4, ATOL = 1e-5
(inputs and parameters are O(1)); bf16 and f16 values: textio.low_precision_bound. The two sides differ in summation order (remat's
sequential matmul and reductions vs torch's blocked BLAS and vectorized sums) and in
libm vs torch's vectorized exp/tanh/erf, i.e. by a few f32 ulps per op; the bound
leaves room for the growth of that difference through a few layers of backward.

Ill-conditioned values: where a value fails that bound (a CNN's batch norm over a few
elements amplifies every rounding difference before it), the check asks whether torch's
own f32 result is as far off: torch's joint graph is run again in f64 and the value
passes when max |rt - torch_f64| <= CONDITIONED x max |torch - torch_f64| (rt is no more
than that factor less accurate than torch). The line says so and gives both errors.
"""
import os
import subprocess

import numpy as np
import torch
import torch.fx as fx

from . import emit, philox, textio

RTOL, ATOL = 1e-4, 1e-5
CONDITIONED = 4.0
aten = torch.ops.aten


class PhiloxInterpreter(fx.Interpreter):
    """Runs an fx graph with every aten.rand_like drawing remat's Philox stream; with f64,
    every f32 tensor an op reads or makes (a dtype argument) is f64 instead."""

    def __init__(self, gm, seed, offset, f64=False):
        super().__init__(gm)
        self.seed, self.offset, self.f64 = seed, offset, f64
        self.deltas = emit.random_offsets(gm.graph)

    def wide(self, v):
        if isinstance(v, torch.Tensor) and v.dtype == torch.float32:
            return v.double()
        return torch.float64 if v is torch.float32 else v

    def run_node(self, n):
        if n in self.deltas:
            tm = n.meta["tensor_meta"]
            u = philox.uniform(self.seed, self.offset + self.deltas[n], tuple(tm.shape))
            return torch.from_numpy(u).to(tm.dtype)
        if self.f64 and n.op == "call_function":
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            args = fx.node.map_aggregate(args, self.wide)
            kwargs = fx.node.map_aggregate(kwargs, self.wide)
            return n.target(*args, **kwargs)
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
        if a.name not in fn.folded:  # a causal mask the function computes itself
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


def run_torch(joint, fn, tangents, seed, offset, f64=False):
    """torch's results for the rt function's results (outputs, then non-None grads); with
    f64, the f32 primals and tangents widened to f64 first."""
    wide = lambda t: t.double() if f64 and t.dtype == torch.float32 else t
    primals = [wide(a.value.detach()) for a in joint.args]
    tangents = [wide(t) for t in tangents]
    with torch.no_grad():
        outs = PhiloxInterpreter(joint.gm, seed, offset, f64).run(*primals, *tangents)
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


def conditioned(got, want, names, rtol, atol, run_f64):
    """compare(), where an f32 value that fails the bound passes when rt's error against
    torch in f64 is at most CONDITIONED times torch's own (module docstring)."""
    wide = None
    ok, lines = True, []
    for k in range(len(want)):
        vok, vlines = textio.compare(got[k:k + 1], want[k:k + 1], rtol, atol, names[k:k + 1])
        if not vok and want[k][1] == "f32" and got[k][0] == want[k][0]:
            if wide is None:
                wide = [np.asarray(to_numpy(t), dtype=np.float64) for t in run_f64()]
            t64 = wide[k]
            rt_err = float(np.abs(np.asarray(got[k][2], dtype=np.float64) - t64).max())
            torch_err = float(np.abs(want[k][2] - t64).max())
            vok = rt_err <= CONDITIONED * torch_err
            vlines = [vlines[0].split(": MISMATCH")[0] +
                      f"; against torch in f64: rt {rt_err:.3g}, torch {torch_err:.3g}"
                      f" ({rt_err / torch_err if torch_err else float('inf'):.2g}x): "
                      + ("ok (ill-conditioned)" if vok else "MISMATCH")]
        ok &= vok
        lines += vlines
    return ok, lines


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
    widened = not ok
    if widened:
        ok, lines = conditioned(got, want, names, rtol, atol,
                                lambda: run_torch(joint, fn, tangents, seed, offset, f64=True))
    for line in lines:
        log("check: " + line)
    tol = textio.tolerance_text([e for _, e, _ in want], rtol, atol)
    if widened:
        tol += f" (or rt's error at most {CONDITIONED:g}x torch's own against f64)"
    log(f"check: {len(want)} values, tolerance |rt - torch| <= {tol}: "
        + ("ok" if ok else "FAILED"))
    return ok
