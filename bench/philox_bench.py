#!/usr/bin/python3
"""Philox draws in remat_torch: the C bulk fill against the numpy reference and torch's own
generator (bench/RESULTS.md, "Philox in C").

    REMAT_LIBRARY=build/lib/libremat.so /usr/bin/python3 bench/philox_bench.py \
        [--sizes 4096,65536,262144,1048576,4194304] [--reps 15]

Per size, wall time of one draw of that many f32 uniforms in [0, 1), the median of
`reps` rounds; each round runs every method once, in turn (interleaved, so a change of
load on the shared machine hits them all alike):
- numpy:      tools/remat_torch/philox.py (the reference; what remat_torch drew before);
- C 1 thread: rematPhiloxUniformF32 (binding.philox_uniform) into a tensor's storage;
- C 2 threads: the same on two threads (the size threshold decides how many it uses);
- op:         torch.ops.remat.philox_uniform (what philox_dropout's dropout calls: the
              state tensor read, the tensor allocated, the C fill on torch's threads);
- torch:      torch's own Tensor.uniform_ (its CPU generator, mt19937), one thread.
Ratios: numpy / C 1 thread, numpy / op, op / torch.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tools")]

import torch  # noqa: E402

from remat_torch import binding, dropout, philox  # noqa: E402


def methods(n):
    out = torch.empty(n)
    ptr = out.data_ptr()
    state = torch.tensor([0x0123456789ABCDEF, 12345])
    return {
        "numpy": lambda: philox.uniform(0x0123456789ABCDEF, 12345, (n,)),
        "C 1 thread": lambda: binding.philox_uniform(0x0123456789ABCDEF, 12345, ptr, n, threads=1),
        "C 2 threads": lambda: binding.philox_uniform(0x0123456789ABCDEF, 12345, ptr, n,
                                                      threads=2),
        "op": lambda: dropout.philox_uniform_op(state, [n]),
        "torch": lambda: out.uniform_(),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,65536,262144,1048576,4194304")
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    torch.set_num_threads(1)
    binding.library()
    print("| elements | numpy ms | C 1 thread ms | C 2 threads ms | op ms | torch uniform_ ms |"
          " numpy / C | numpy / op | op / torch | 1 / 2 threads |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in (int(x) for x in args.sizes.split(",")):
        fns = methods(n)
        times = {k: [] for k in fns}
        for f in fns.values():
            f()                               # warm-up
        for _ in range(args.reps):
            for k, f in fns.items():
                t0 = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t0)
        m = {k: 1e3 * statistics.median(v) for k, v in times.items()}
        print(f"| {n} | {m['numpy']:.3f} | {m['C 1 thread']:.3f} | {m['C 2 threads']:.3f} | "
              f"{m['op']:.3f} | {m['torch']:.3f} | {m['numpy'] / m['C 1 thread']:.1f} | "
              f"{m['numpy'] / m['op']:.1f} | {m['op'] / m['torch']:.2f} | "
              f"{m['C 1 thread'] / m['C 2 threads']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
