#!/usr/bin/python3
"""What a dropout mask costs where it runs (bench/RESULTS.md, "Dropout masks").

    REMAT_LIBRARY=build/lib/libremat.so /usr/bin/python3 bench/dropout_cost.py \
        [--sizes 8192,65536,262144,1048576] [--reps 31] [--p 0.1]

One dropout (p) of an f32 tensor of that many elements, forward and backward (the
backward given a fixed gradient), one torch thread, per setup:
- torch:  eager torch's own F.dropout (native_dropout: a bernoulli_ mask, saved for the
          backward as bool);
- mincut: the same module under aot_module with torch's min-cut partition (its
          bernoulli_ mask saved);
- remat:  under philox_dropout, aot_module with remat's partition_fn: the forward draws
          remat's Philox (philox_state, philox_uniform in C, lt, mul, div) and saves the
          16-byte state; the backward draws the mask again (philox_uniform, lt, mul, div).
Wall time of forward + backward, median of `reps` rounds, each round running every setup
once in turn (interleaved). Ratios: remat / torch and remat / mincut.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tools"), HERE]

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from functorch.compile import (aot_module, make_boxed_func,  # noqa: E402
                               min_cut_rematerialization_partition)

from remat_torch import aot, binding, dropout  # noqa: E402


class Dropout(torch.nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, training=True)


def nop(gm, _):
    return make_boxed_func(gm)


def setups(p):
    part = {"mincut": min_cut_rematerialization_partition,
            "remat": aot.partition_fn}
    out = {"torch": Dropout(p)}
    for name, fn in part.items():
        out[name] = aot_module(Dropout(p), nop, nop, partition_fn=fn,
                               decompositions=aot.decompositions())
    return out


def run(f, x, g, philox):
    x.grad = None
    t0 = time.perf_counter()
    if philox:
        with dropout.philox_dropout(0):
            f(x).backward(g)
    else:
        f(x).backward(g)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8192,65536,262144,1048576")
    ap.add_argument("--reps", type=int, default=31)
    ap.add_argument("--p", type=float, default=0.1)
    args = ap.parse_args()
    torch.set_num_threads(1)
    binding.Context().close()
    print("| elements | torch ms | mincut ms | remat ms | remat / torch | remat / mincut |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in (int(s) for s in args.sizes.split(",")):
        fs = setups(args.p)
        torch.manual_seed(0)
        x = torch.randn(n // 64, 64, requires_grad=True)
        g = torch.randn(n // 64, 64)
        for k, f in fs.items():
            run(f, x, g, k == "remat")        # compiles, warms up
        times = {k: [] for k in fs}
        for r in range(args.reps):
            keys = list(fs)
            keys = keys[r % len(keys):] + keys[:r % len(keys)]
            for k in keys:
                times[k].append(run(fs[k], x, g, k == "remat"))
        m = {k: 1e3 * statistics.median(v) for k, v in times.items()}
        print(f"| {n} | {m['torch']:.3f} | {m['mincut']:.3f} | {m['remat']:.3f} | "
              f"{m['remat'] / m['torch']:.2f} | {m['remat'] / m['mincut']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
