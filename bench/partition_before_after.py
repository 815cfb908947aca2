#!/usr/bin/python3
"""partition_fn's time before and after a change, in one process (bench/RESULTS.md,
issue 43).

    REMAT_LIBRARY=build/lib/libremat.so /usr/bin/python3 bench/partition_before_after.py \
        BEFORE_TOOLS [--models mlp,gpt,llama] [--layers 1,8,32] [--reps 5]

BEFORE_TOOLS is the tools/ folder of another checkout (a `git worktree` of the commit
before the change); its remat_torch is copied to a temporary folder and loaded as a second
package, remat_torch_before, beside this checkout's (both call the same libremat.so; the
remat:: torch ops, registered once per process, are this checkout's).
Per zoo model and depth, the joint graph is captured once (aot_module under this
checkout's philox_dropout), each partitioner runs once untimed, then the process CPU
time of each on a fresh copy of the joint graph, the three interleaved (the order
rotated each round), median of `reps`: before, after (this checkout's partition_fn), and
torch's min-cut. One torch thread.
"""
import argparse
import copy
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tools"), HERE]

import torch  # noqa: E402
from functorch.compile import (aot_module, make_boxed_func,  # noqa: E402
                               min_cut_rematerialization_partition)

from remat_torch import aot, dropout, training as T  # noqa: E402
from torch_train import SIZES, rotation  # noqa: E402


def load_before(tools):
    tmp = tempfile.mkdtemp(prefix="remat-before-")
    shutil.copytree(os.path.join(tools, "remat_torch"), os.path.join(tmp, "remat_torch_before"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, tmp)
    # torch registers the remat:: ops once per process: the before package's emitter
    # reads this checkout's dropout module
    sys.modules["remat_torch_before.dropout"] = dropout
    return importlib.import_module("remat_torch_before.aot")


def joint_graph(name, layers):
    mod = __import__(f"models.{name}", fromlist=["build"])
    torch.manual_seed(0)
    model, inputs = mod.build(layers=layers, **SIZES[name])
    got = []

    def capture(gm, ji):
        got.append((copy.deepcopy(gm), ji))
        return min_cut_rematerialization_partition(gm, ji)
    f = aot_module(model, lambda gm, _: make_boxed_func(gm), lambda gm, _: make_boxed_func(gm),
                   partition_fn=capture,
                   decompositions=aot.decompositions())
    with dropout.philox_dropout(0):
        T.loss_of(f(*inputs)).backward()
    return got[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before_tools")
    ap.add_argument("--models", default="mlp,gpt,llama")
    ap.add_argument("--layers", default="1,8,32")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    torch.set_num_threads(1)
    import networkx  # noqa: F401  (torch's min-cut imports it on its first call)
    before = load_before(args.before_tools)
    parts = {"before": before.partition_fn, "after": aot.partition_fn,
             "mincut": min_cut_rematerialization_partition}
    print("| model | layers | before ms | after ms | min-cut ms | after / before |"
          " after / min-cut |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.models.split(","):
        for layers in (int(x) for x in args.layers.split(",")):
            gm, ji = joint_graph(name, layers)
            times = {k: [] for k in parts}
            for r in range(args.reps + 1):
                for k in rotation(parts, r):
                    g = copy.deepcopy(gm)
                    t0 = time.process_time()
                    parts[k](g, ji)
                    if r:                       # round 0: the untimed first calls
                        times[k].append(time.process_time() - t0)
            b, a, m = (1e3 * statistics.median(times[k]) for k in parts)
            print(f"| {name} | {layers} | {b:.1f} | {a:.1f} | {m:.1f} | {a / b:.2f} | "
                  f"{a / m:.2f} |", flush=True)


if __name__ == "__main__":
    main()
