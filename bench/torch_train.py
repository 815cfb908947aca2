#!/usr/bin/python3
"""remat's partition_fn against torch's min-cut and default partitions, in the training
loop (bench/RESULTS.md, "Inside PyTorch").

    REMAT_LIBRARY=build/lib/libremat.so /usr/bin/python3 bench/torch_train.py \
        [--models mlp,gpt,llama] [--layers 1,8,32] [--steps 31] [--seconds 3] [--partitions 5]

Per model, depth and partitioner (torch 1.13 aot_module, CPU, dropout drawing remat's
Philox under philox_dropout), per training step:
- saved bytes: the forward module's outputs after the model's own, summed
  (numel x element size) at run time, every step; "of which activations": those whose
  storage is not one of the forward's inputs' (a saved parameter or input, or a view of
  one, costs no memory of its own);
- peak bytes: the C heap in use (glibc mallinfo2: uordblks + hblkhd, torch's CPU
  allocator is malloc) sampled after every fx node of the forward and backward modules,
  run by an fx.Interpreter, minus the heap in use before the step; one step, after the
  timed ones;
- step time: median process CPU time (one torch thread, so wall time on an idle
  machine; CPU time because the bench machine's 2 cores are shared) of `steps` steps,
  or more until each setup has run `seconds` (the small models' steps take 3-20 ms),
  after one warm-up step (forward, backward, SGD), without the sampling; the setups'
  steps interleaved (round r runs every setup once, the order rotated by r), each
  setup drawing its masks from its own Philox offset, Python's garbage collector off;
- partition time: median process CPU time of `partitions` calls of the partitioner on
  a fresh copy of the joint graph it was first given (remat: DCE and CSE, emit rt, the
  C API passes, fx extraction and the backward's reorder; torch: its partitioner, DCE,
  CSE and extraction included), interleaved the same way, after the first call (which
  compiled the model).
Setups: remat (partition_fn, defaults), remat-joint-order (sink=False: the backward in
the joint graph's order, as torch's partitioners leave it), torch's min-cut, torch's
default partition; on request (--setups) remat-no-lower (partition_fn without
lower.py's rewrites of prims.convert_element_type and of the dropout masks).
Ratios are to min-cut from the same run, and the step time's to the default partition.
"""
import argparse
import copy
import ctypes
import gc
import functools
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tools"), HERE]

import torch  # noqa: E402
import torch.fx as fx  # noqa: E402

from functorch.compile import (aot_module, default_partition,  # noqa: E402
                               min_cut_rematerialization_partition)

from remat_torch import aot, dropout, lower, training as T  # noqa: E402

SIZES = {  # bigger than the test defaults, small enough for a 2-core machine
    "mlp": dict(batch=32, d=64, hidden=256),
    "gpt": dict(batch=4, seq=32, d=64, heads=4),
    "llama": dict(batch=4, seq=32, d=64, heads=4, hidden=128),
}
SETUPS = ("remat", "remat-joint-order", "mincut", "default")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                 "uordblks", "fordblks", "keepcost")]


_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _MallInfo2


def heap_in_use():
    m = _libc.mallinfo2()
    return m.uordblks + m.hblkhd


class Probe:
    """Compilers whose modules count saved bytes and, when `sampling`, run node by node
    and record the heap's peak."""

    def __init__(self):
        self.sampling = False
        self.peak = 0
        self.saved = []           # per step: (all saved bytes, those not aliasing an input)
        self.num_outputs = 1

    def _runner(self, gm, count_saved):
        probe = self

        class Sampler(fx.Interpreter):
            def run_node(self, n):
                r = super().run_node(n)
                probe.peak = max(probe.peak, heap_in_use())
                return r

        def run(args):
            if probe.sampling:
                res = Sampler(gm).run(*args)
            else:
                res = gm(*args)
            if count_saved:
                ins = {a.storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
                ts = [t for t in res[probe.num_outputs:] if isinstance(t, torch.Tensor)]
                probe.saved.append((
                    sum(t.numel() * t.element_size() for t in ts),
                    sum(t.numel() * t.element_size() for t in ts
                        if t.storage().data_ptr() not in ins)))
            return res
        run._boxed_call = True
        return run

    def fw(self, gm, _):
        return self._runner(gm, True)

    def bw(self, gm, _):
        return self._runner(gm, False)


class Setup:
    """One partitioner's compiled copy of the model: its optimizer, Probe, Philox offset
    and the joint graph its partition_fn was first given (for the partition timings)."""

    def __init__(self, name, layers, setup):
        mod = __import__(f"models.{name}", fromlist=["build"])
        torch.manual_seed(0)
        model, inputs = mod.build(layers=layers, **SIZES[name])
        self.model = copy.deepcopy(model)
        self.inputs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
        self.probe, self.joint, self.offset = Probe(), None, 0
        self.partition = partitioner(setup)

        def pfn(gm, ji):
            self.joint = (copy.deepcopy(gm), ji)     # before the partitioner edits it
            return self.partition(gm, ji)
        self.f = aot_module(self.model, fw_compiler=self.probe.fw, bw_compiler=self.probe.bw,
                            partition_fn=pfn, decompositions=aot.decompositions())
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3)

    def step(self):
        """One training step (forward, backward, SGD) drawing the masks from this setup's
        own Philox offset; returns its process CPU time."""
        with dropout.philox_dropout(0, self.offset):
            t0 = time.process_time()
            self.opt.zero_grad(set_to_none=True)
            loss = T.loss_of(self.f(*self.inputs))
            loss.backward()
            self.opt.step()
            t = time.process_time() - t0
            self.offset = dropout.state()[1]
        return t

    def peak_step(self):
        self.probe.sampling = True
        base = heap_in_use()
        self.probe.peak = base
        self.step()
        self.probe.sampling = False
        return self.probe.peak - base

    def partition_time(self):
        """Process CPU time of the partitioner on a fresh copy of the joint graph."""
        gm, ji = copy.deepcopy(self.joint[0]), self.joint[1]
        t0 = time.process_time()
        self.partition(gm, ji)
        return time.process_time() - t0


def _without_lowering(gm, ji):
    """remat's partition_fn without lower.py's rewrites (prims.convert_element_type left
    as they are, dropout masks drawn as philox_uniform and lt): what they are worth."""
    saved = lower.cheap_converts, lower.fuse_masks
    lower.cheap_converts = lower.fuse_masks = lambda graph, *_: 0
    try:
        return aot.partition_fn(gm, ji)
    finally:
        lower.cheap_converts, lower.fuse_masks = saved


def partitioner(setup):
    if setup == "remat":
        return aot.partition_fn
    if setup == "remat-no-lower":
        return _without_lowering
    if setup == "remat-joint-order":
        return functools.partial(aot.partition_fn, sink=False)
    return min_cut_rematerialization_partition if setup == "mincut" else default_partition


def rotation(items, r):
    """The order of round r: items starting at the r-th, so that no setup always runs
    right after the same other one."""
    items = list(items)
    k = r % len(items)
    return items[k:] + items[:k]


def measure(name, layers, steps, partitions, names=SETUPS, seconds=0.0):
    """Every setup of one model and depth, their steps and partitions interleaved: at
    least `steps` rounds, more until each setup has run `seconds` of timed steps."""
    setups = {s: Setup(name, layers, s) for s in names}
    for s in setups.values():
        s.step()                     # compiles (the first partition) and warms up
    times = {s: [] for s in setups}
    gc.collect()
    gc.disable()                     # no collection inside a timed step
    try:
        r = 0
        while r < steps or min(sum(t) for t in times.values()) < seconds:
            for s in rotation(setups, r):
                times[s].append(setups[s].step())
            r += 1
    finally:
        gc.enable()
    parts = {s: [] for s in setups}
    for r in range(partitions):
        for s in rotation(setups, r):
            parts[s].append(setups[s].partition_time())
    out = {}
    for k, s in setups.items():
        out[k] = {"saved": s.probe.saved[-1][0], "activations": s.probe.saved[-1][1],
                  "peak": s.peak_step(), "step": statistics.median(times[k]),
                  "partition": statistics.median(parts[k])}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="mlp,gpt,llama")
    ap.add_argument("--layers", default="1,8,32")
    ap.add_argument("--steps", type=int, default=31)
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="more rounds until each setup has run this long (small models)")
    ap.add_argument("--partitions", type=int, default=5)
    ap.add_argument("--setups", default=",".join(SETUPS),
                    help="of " + ", ".join(SETUPS + ("remat-no-lower",)) +
                    "; mincut and default are always run (the ratios' bases)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    # one-time costs outside the timed calls: libremat.so and an MLIR context (remat),
    # networkx (torch's min-cut imports it on its first call)
    import networkx  # noqa: F401
    from remat_torch import binding
    binding.Context().close()
    print("| model | layers | partitioner | saved bytes | of which activations | peak bytes |"
          " step ms | partition ms | saved | activations | peak | step | partition |"
          " step / default |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.models.split(","):
        for layers in (int(x) for x in args.layers.split(",")):
            names = [x for x in args.setups.split(",") if x not in ("mincut", "default")]
            names += ["mincut", "default"]
            r = measure(name, layers, args.steps, args.partitions, names, args.seconds)
            m, d = r["mincut"], r["default"]
            for s in names:
                x = r[s]
                ratio = " | ".join(f"{x[k] / m[k]:.2f}" if m[k] else "-"
                                   for k in ("saved", "activations", "peak", "step",
                                             "partition"))
                print(f"| {name} | {layers} | {s} | {x['saved']} | {x['activations']} | "
                      f"{x['peak']} | "
                      f"{1e3 * x['step']:.2f} | {1e3 * x['partition']:.1f} | {ratio} | "
                      f"{x['step'] / d['step']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
