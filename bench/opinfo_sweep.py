#!/usr/bin/python3
"""torch's op database through remat's partition_fn (bench/RESULTS.md, "The OpInfo sweep").

    REMAT_LIBRARY=build/lib/libremat.so /usr/bin/python3 bench/opinfo_sweep.py \
        [--samples 3] [--ops gather,t,...] [--md] [--list]

Every OpInfo of torch 1.13's `op_db` (torch.testing._internal.common_methods_invocations)
with a float32 CPU backward, its first `--samples` sample inputs: the sample's tensors
(inside lists and keyword arguments too) are the function's arguments, the rest fixed.
Each sample runs forward and backward through functorch's `aot_function`, once with
`remat_torch.partition_fn(fallback='error')` and once with torch's
`min_cut_rematerialization_partition`, both with remat_torch.decompositions(), the
backward with the same cotangents, torch's generator seeded alike before each. Classes,
per sample where torch's min-cut partitions (the op's class is its worst sample's):
- ok: outputs and gradients bit-identical to torch's min-cut;
- wrong: a value differs;
- unmapped: RematPartitionError of kind "unmapped" (a value rt cannot hold);
- crash: any other error (an internal RematPartitionError, an exception from the split).
An op whose every sample fails under torch's min-cut, has no backward, or gives other
numbers under torch's min-cut when run again (a backward formula that reads
uninitialized memory: as_strided_scatter's new_empty_strided) is not counted.

torch.testing._internal imports `expecttest`, which Debian does not package: a stand-in
module (a TestCase and ACCEPT = False, all the import reads) is put in sys.modules
here only, for the import. test/torch/opinfo.test runs SUBSET.
"""
import argparse
import collections
import functools
import os
import sys
import time
import types
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tools"), HERE]

import torch  # noqa: E402
import torch.utils._pytree as pytree  # noqa: E402
from functorch.compile import aot_function, make_boxed_func  # noqa: E402
from functorch.compile import min_cut_rematerialization_partition  # noqa: E402

import remat_torch  # noqa: E402

# The make-test subset: the ops of issue 38's crash classes (0-d tensors with dim,
# reductions of 0-d tensors, var without a correction, cat of empty tensors, strided
# slices), ops that become rt.extern (convolution, pooling, norms, flips, pads, products,
# a view with a list of results (unbind), draws: bernoulli, dropout, and rrelu, which
# fills a buffer its schema does not mark) and a few mapped ones.
SUBSET = ("gather index_select max.reduction_with_dim t sum amax mean var cat "
          "__getitem__ nn.functional.conv2d nn.functional.max_pool2d norm flip "
          "nn.functional.pad.constant dot mv nn.functional.cross_entropy "
          "nn.functional.hardswish bernoulli nn.functional.dropout nn.functional.rrelu "
          "unbind").split()
CLASSES = ("ok", "wrong", "unmapped", "crash")


def op_db():
    """torch's OpInfo list, imported with a stand-in `expecttest` module."""
    if "expecttest" not in sys.modules:
        stub = types.ModuleType("expecttest")
        stub.TestCase, stub.ACCEPT = unittest.TestCase, False
        sys.modules["expecttest"] = stub
    argv, sys.argv = sys.argv, sys.argv[:1]      # common_utils parses sys.argv
    try:
        from torch.testing._internal.common_methods_invocations import op_db as db
    finally:
        sys.argv = argv
    return db


def float32_backward_ops(db):
    return [op for op in db if op.supports_autograd and
            torch.float32 in op.supported_backward_dtypes("cpu")]


def op_name(op):
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def _nop(gm, _):
    return make_boxed_func(gm)


def _bits(t):
    """The tensor's bytes (bit-identity: NaN payloads and the sign of 0 count)."""
    flat = torch.empty(t.numel(), dtype=t.dtype).copy_(t.detach().reshape(-1))
    return flat.view(torch.uint8) if t.numel() else flat


def same(a, b):
    if isinstance(a, torch.Tensor) != isinstance(b, torch.Tensor):
        return False
    if not isinstance(a, torch.Tensor):
        return a == b
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(_bits(a), _bits(b))


def run_sample(op, sample, partition, seed=0):
    """(outputs, gradients) of one sample through aot_function with `partition`; None
    when the graph has no backward (the partitioner is not called)."""
    leaves, spec = pytree.tree_flatten((sample.input, sample.args, sample.kwargs))
    where = [k for k, x in enumerate(leaves) if isinstance(x, torch.Tensor)]

    def f(*tensors):
        vals = list(leaves)
        for k, t in zip(where, tensors):
            vals[k] = t
        x, args, kwargs = pytree.tree_unflatten(vals, spec)
        return sample.output_process_fn_grad(op(x, *args, **kwargs))

    called = []

    def part(gm, inputs):
        called.append(True)
        return partition(gm, inputs)

    g = aot_function(f, _nop, _nop, partition_fn=part,
                     decompositions=remat_torch.decompositions())
    args = [leaves[k].detach().clone().requires_grad_(leaves[k].requires_grad) for k in where]
    torch.manual_seed(seed)
    outs = pytree.tree_flatten(g(*args))[0]
    if not called:
        return None
    diff = [o for o in outs if isinstance(o, torch.Tensor) and o.requires_grad]
    gen = torch.Generator().manual_seed(seed)
    cot = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in diff]
    inputs = [a for a in args if a.requires_grad]
    grads = torch.autograd.grad(diff, inputs, cot, allow_unused=True) if diff else []
    return outs, list(grads)


def classify_sample(op, sample, seed=0):
    """(class, detail) of one sample, or (None, why) when torch's min-cut does not
    partition it (or there is no backward)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = run_sample(op, sample, min_cut_rematerialization_partition, seed)
    except Exception as e:  # noqa: BLE001 (torch's own failure: not counted)
        return None, f"min-cut: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    if want is None:
        return None, "no backward"
    stats = {}
    part = functools.partial(remat_torch.partition_fn, fallback="error", stats=stats)
    try:
        got = run_sample(op, sample, part, seed)
    except remat_torch.RematPartitionError as e:
        return ("unmapped" if e.kind == "unmapped" else "crash"), str(e)
    except Exception as e:  # noqa: BLE001
        return "crash", f"{type(e).__name__}: {e}"
    if got is None:
        return "crash", "remat's run had no backward where torch's had one"
    diff = differ(got, want)
    if diff:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if differ(run_sample(op, sample, min_cut_rematerialization_partition, seed), want):
                return None, "torch's min-cut gives other numbers on a second run"
        return "wrong", diff
    return "ok", " ".join(sorted({e.split(": ")[1].split(" ")[0]
                                   for e in stats.get("externs", [])}))


def differ(got, want):
    """Why two (outputs, gradients) are not bit-identical, or None."""
    (go, gg), (wo, wg) = got, want
    if len(go) != len(wo) or len(gg) != len(wg):
        return "a different number of values"
    for k, (a, b) in enumerate(list(zip(go, wo)) + list(zip(gg, wg))):
        if (a is None) != (b is None) or (a is not None and not same(a, b)):
            return f"value {k} differs"
    return None


def classify_op(op, n_samples=3):
    """(class or None, [(sample class, detail)]): the worst class over the samples that
    torch's min-cut partitions."""
    results = []
    try:
        samples = list(op.sample_inputs("cpu", torch.float32, requires_grad=True))[:n_samples]
    except Exception as e:  # noqa: BLE001
        return None, [(None, f"samples: {type(e).__name__}: {e}")]
    for k, s in enumerate(samples):
        results.append(classify_sample(op, s, seed=k))
    counted = [c for c, _ in results if c is not None]
    if not counted:
        return None, results
    return max(counted, key=CLASSES.index), results


def sweep(names=None, n_samples=3, out=sys.stdout, verbose=True):
    """Classifies the ops (all, or those named); prints one line per op; returns
    {op name: (class, details)}."""
    db = float32_backward_ops(op_db())
    if names is not None:
        want = set(names)
        db = [op for op in db if op_name(op) in want]
        missing = want - {op_name(op) for op in db}
        if missing:
            raise SystemExit(f"opinfo_sweep: no such OpInfo with a float32 backward: "
                             f"{' '.join(sorted(missing))}")
    res = {}
    for op in db:
        cls, details = classify_op(op, n_samples)
        res[op_name(op)] = (cls, details)
        if verbose:
            worst = next((d for c, d in details if c == cls), details[0][1] if details else "")
            print(f"{op_name(op)}: {cls or 'not counted'}"
                  + (f" ({worst.splitlines()[0][:200]})" if worst and cls != "ok" or
                     cls == "ok" and worst else ""), file=out, flush=True)
    return res


def summary(res):
    counts = collections.Counter(c for c, _ in res.values())
    handled = sum(counts[c] for c in CLASSES)
    lines = [f"ops with a float32 CPU backward: {len(res)}; torch's min-cut partitions "
             f"{handled}"]
    for c in CLASSES:
        lines.append(f"{c}: {counts[c]}" + (f" ({100 * counts[c] / handled:.1f}%)"
                                            if handled else ""))
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=3)
    p.add_argument("--ops", help="comma-separated OpInfo names (default: all)")
    p.add_argument("--subset", action="store_true", help="the make-test subset (SUBSET)")
    p.add_argument("--md", action="store_true", help="a markdown table of the externs too")
    args = p.parse_args()
    torch.set_num_threads(1)
    names = SUBSET if args.subset else (args.ops.split(",") if args.ops else None)
    t0 = time.process_time()
    res = sweep(names, args.samples)
    for line in summary(res):
        print(line)
    if args.md:
        externs = collections.Counter()
        for cls, details in res.values():
            for c, d in details:
                if c == "ok":
                    externs.update(d.split())
        print("\n| rt.extern op | OpInfo samples |\n|---|---|")
        for name, n in externs.most_common(25):
            print(f"| `{name}` | {n} |")
    print(f"CPU time: {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
