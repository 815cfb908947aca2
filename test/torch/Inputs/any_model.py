"""Any model through remat_torch.partition_fn (issue 38; test/torch/*.test).

    any_model.py crashes    each crash class of issue 38, through partition_fn(fallback='error'),
                            bit-identical to torch's min-cut
    any_model.py losses     nn.Linear + F.cross_entropy, log_softmax + nll_loss: 5 SGD steps
    any_model.py fallback   every error inside remat's partitioning: fallback='error' raises
                            RematPartitionError, fallback='torch' warns once and trains
    any_model.py values     tensor constants, uint8 inputs, ops without a mapping (rt.extern)
    any_model.py vision     torchvision resnet18, mobilenet_v3_small, a small ViT: 5 SGD steps
    any_model.py depth      stochastic depth under philox_random: masks redrawn, not saved
    any_model.py peak       partition_fn(objective='peak')

Each prints lines that FileCheck checks; a failed expectation also exits 1."""
import copy
import functools
import os
import re
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "bench"), HERE]

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from functorch.compile import (aot_function, make_boxed_func,  # noqa: E402
                               min_cut_rematerialization_partition)

import remat_torch  # noqa: E402
from remat_torch import aot, emit, training as T  # noqa: E402
from expectations import expect, failed  # noqa: E402

MINCUT = min_cut_rematerialization_partition


def _nop(gm, _):
    return make_boxed_func(gm)


def remat(**options):
    return functools.partial(remat_torch.partition_fn, **options)


def run(fn, args, partition, seed=0):
    """fn's outputs and its arguments' gradients, forward and backward through
    aot_function with `partition` (cotangents drawn from seed)."""
    g = aot_function(fn, _nop, _nop, partition_fn=partition,
                     decompositions=remat_torch.decompositions())
    args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    out = g(*args)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    diff = [o for o in outs if o.requires_grad]
    gen = torch.Generator().manual_seed(seed)
    torch.autograd.backward(diff, [torch.randn(o.shape, generator=gen) for o in diff])
    return outs, [a.grad for a in args if a.requires_grad]


def bit_identical(a, b):
    (ao, ag), (bo, bg) = a, b
    return len(ao) == len(bo) and len(ag) == len(bg) and all(
        x.dtype == y.dtype and x.shape == y.shape and
        torch.equal(x.reshape(-1).view(torch.uint8) if x.numel() and x.dim() else x,
                    y.reshape(-1).view(torch.uint8) if y.numel() and y.dim() else y)
        for x, y in zip(ao + ag, bo + bg))


def same_as_mincut(name, fn, args, **options):
    stats = {}
    try:
        got = run(fn, args, remat(fallback="error", stats=stats, **options))
    except Exception as e:  # noqa: BLE001
        expect(False, f"{name}: {type(e).__name__}: {e}")
        return stats
    expect(bit_identical(got, run(fn, args, MINCUT)),
           f"{name}: partitions, bit-identical to torch's min-cut")
    return stats


def crashes_cmd():
    torch.manual_seed(0)
    r = lambda *s: torch.randn(*s, requires_grad=True)  # noqa: E731
    x0 = r(())
    cases = [
        ("gather of a 0-d tensor", lambda x, i: torch.gather(x, 0, i) * 2, [x0, torch.tensor(0)]),
        ("index_select of a 0-d tensor", lambda x, i: torch.index_select(x, 0, i) * 2,
         [x0, torch.tensor([0])]),
        ("max along dim 0 of a 0-d tensor", lambda x: torch.max(x, 0)[0] * 2, [x0]),
        ("t of a 0-d tensor", lambda x: x.t() * 2, [x0]),
        ("sum over dim 0 of a 0-d tensor", lambda x: x.exp().sum(0), [x0]),
        ("amax over dim 0 of a 0-d tensor", lambda x: x.exp().amax(0), [x0]),
        ("mean over dim 0 of a 0-d tensor", lambda x: x.exp().mean(0), [x0]),
        ("var with correction=None", lambda x: torch.var(x, dim=1, correction=None), [r(3, 5)]),
        ("cat of empty tensors", lambda a, b: torch.cat([a, b]).sum() + 1, [r(0, 3), r(0, 3)]),
        ("slice_backward with a step", lambda x: (x[:, 1::2] * 3).exp(), [r(4, 7)]),
        ("an f64 constant written with an exponent (1e-15)",
         lambda x: (x.double() * 1e-15).exp().float(), [r(3)]),
    ]
    for name, fn, args in cases:
        same_as_mincut(name, fn, args)


class Linear(torch.nn.Module):
    def __init__(self, loss):
        super().__init__()
        self.fc, self.loss = torch.nn.Linear(8, 4), loss

    def forward(self, x, y):
        logits = self.fc(x)
        if self.loss == "nll_loss":
            return F.nll_loss(F.log_softmax(logits, dim=-1), y)
        return F.cross_entropy(logits, y)


def losses_cmd():
    """fx reads log_probs in nll_loss's backward (zeros_like(log_probs)); rt's zeros read
    nothing. partition_fn rewrites such ops to read no tensor, so both agree."""
    torch.manual_seed(0)
    x, y = torch.randn(6, 8), torch.tensor([0, 1, 2, 3, 0, 1])
    for loss in ("cross_entropy", "nll_loss"):
        torch.manual_seed(0)
        model = Linear(loss)
        stats = {}
        r = T.train(model, [x, y], "remat", steps=5, stats=stats, loss=lambda out: out,
                    options={"fallback": "error"})
        m = T.train(model, [x, y], "mincut", steps=5, loss=lambda out: out)
        print(f"{loss}: losses " + " ".join(f"{v:.4f}" for v in r[0].tolist()) +
              f"; remat saves {' '.join(stats['saved_fx'])}")
        expect(torch.equal(r[0], m[0]) and T.bit_identical(r[1], m[1]),
               f"nn.Linear + {loss}: 5 SGD steps bit-identical to torch's min-cut")
        expect(bool(r[0][-1] < r[0][0]), f"{loss}: the loss goes down")


def fallback_cmd():
    """An error anywhere inside remat's partitioning (here: a bug injected into the
    emitter's mapping of mul, and a split that is no cut of fx's graph): fallback='error'
    raises RematPartitionError with the reason and the model's line, fallback='torch'
    warns once with the same text and partitions with torch's min-cut."""
    torch.manual_seed(0)
    args = [torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)]
    want = run(softplus, args, MINCUT)

    def broken_mul(w, node, *args, **kwargs):
        return 1 // 0

    def no_saved_values(joint_module, fn, saved_names):
        return []

    for what, target, attr, bad in (
            ("a bug in the emitter", emit.OPS, torch.ops.aten.mul.Tensor, broken_mul),
            ("a split that is no cut of fx's graph", aot.__dict__, "saved_nodes",
             no_saved_values)):
        good = target[attr]
        target[attr] = bad
        try:
            try:
                run(softplus, args, remat(fallback="error"))
                expect(False, f"{what}: fallback='error' raises")
            except remat_torch.RematPartitionError as e:
                print(f"error ({e.kind}): {e}")
                expect(e.kind == "internal" and (e.line is not None or e.node is not None),
                       f"{what}: fallback='error' raises RematPartitionError, located")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                stats = {}
                got = run(softplus, args, remat(fallback="torch", stats=stats))
            texts = [str(m.message) for m in caught if "remat_torch" in str(m.message)]
            print("warning:", texts[0] if texts else "-")
            expect(len(texts) == 1 and stats["partitioner"] == "torch" and
                   bit_identical(got, want),
                   f"{what}: fallback='torch' warns once and trains as torch's min-cut")
        finally:
            target[attr] = good
    # check_split itself: with nothing saved, the backward would read the inputs
    captured = {}

    def capture(gm, inputs):
        captured["gm"] = gm
        return MINCUT(gm, inputs)
    run(softplus, args, capture)
    try:
        aot.check_split(captured["gm"], [])
        expect(False, "check_split refuses a split the backward cannot run")
    except remat_torch.RematPartitionError as e:
        print("check_split:", str(e).split("remat_torch.partition_fn: ")[1])
        expect(e.kind == "internal", "check_split: an internal RematPartitionError")


def softplus(x, w):
    return F.softplus(x @ w) * x


class Constants(torch.nn.Module):
    """Tensor constants (get_attr nodes): one of equal elements (rt.full), one not (a
    constant rt.extern)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x) * torch.tensor([1.0, 2.0, 3.0]) + torch.tensor([0.5, 0.5, 0.5])


def values_cmd():
    torch.manual_seed(0)
    x = torch.randn(4, 3, requires_grad=True)
    stats = same_as_mincut("tensor constants", Constants(), [x])
    rt = stats.get("rt", "")
    print("constants:", " | ".join(line.split("=", 1)[1].split(" loc(")[0].strip()
                                   for line in rt.splitlines()
                                   if re.fullmatch(r"%_tensor_constant\d+",
                                                   line.split("=")[0].strip())))
    mask = torch.randint(0, 2, (4, 3), dtype=torch.uint8)
    stats = same_as_mincut("a uint8 input", lambda a, m: (a * m).tanh(), [x, mask])
    print("uint8:", " | ".join(e.split(": ", 1)[1] for e in stats.get("externs", [])))
    stats = same_as_mincut("ops without an rt mapping",
                           lambda a: torch.cumsum(a.tanh(), 1).atan().exp(), [x])
    print("externs:", " ".join(e.split(": ", 1)[1].split(" ")[0]
                               for e in stats.get("externs", [])))


def vision_cmd():
    """torchvision's models, 5 SGD steps each, remat against torch's min-cut: the same
    losses and parameters, and the memory the saved activations hold at run time
    (training.Capture). "bans": partition_fn with every reduction banned
    (reduction_ratio=0, remat-opt's default): resnet18's last stage (512 channels at
    1x1) then saves its batch norms' means, which torch's min-cut and partition_fn's
    default (reduction_ratio=4) recompute."""
    import vision_models as V
    images, labels = V.batch(2)
    setups = {"remat": {"fallback": "error"}, "mincut": None,
              "bans": {"fallback": "error", "reduction_ratio": 0}}
    for name, cls in V.MODELS.items():
        torch.manual_seed(0)
        model = cls()
        res, saved = {}, {}
        for setup in setups if name == "resnet18" else ("remat", "mincut"):
            cap = T.Capture()
            res[setup] = T.train(model, [images, labels], "mincut" if setup == "mincut" else
                                 "remat", steps=5, lr=0.01, loss=lambda out: out,
                                 options=setups[setup], capture=cap)
            saved[setup] = cap.activation_bytes[-1]
        print(f"{name}: losses " + " ".join(f"{v:.4f}" for v in res["remat"][0].tolist()) +
              "; saved activation bytes: " + ", ".join(f"{s} {n}" for s, n in saved.items()))
        for setup in res:
            if setup != "mincut":
                expect(torch.equal(res[setup][0], res["mincut"][0]) and
                       T.bit_identical(res[setup][1], res["mincut"][1]),
                       f"{name}: 5 SGD steps of {setup} bit-identical to torch's min-cut")
        expect(saved["remat"] <= saved["mincut"],
               f"{name}: no more activation bytes than torch's min-cut")
        if "bans" in saved:
            expect(saved["bans"] > saved["remat"], f"{name}: with every reduction banned, "
                   "more activation bytes than with reduction_ratio=4")


class Depth(torch.nn.Module):
    """Residual blocks with torchvision's stochastic depth (row mode: a bernoulli_ mask
    per sample) and dropout."""

    def __init__(self):
        super().__init__()
        import torchvision
        self.fc1, self.fc2 = torch.nn.Linear(16, 16), torch.nn.Linear(16, 16)
        self.depth = torchvision.ops.StochasticDepth(0.5, "row")
        self.drop = torch.nn.Dropout(0.25)

    def forward(self, x):
        h = x + self.depth(torch.tanh(self.fc1(x)))
        return (h + self.depth(self.drop(torch.tanh(self.fc2(h))))).sum()


def depth_cmd():
    torch.manual_seed(0)
    model, x = Depth(), torch.randn(8, 16)
    graphs = {}
    for setup in ("remat", "mincut"):
        cap = T.Capture()
        f = T.compile_model(copy.deepcopy(model), setup, capture=cap)
        with remat_torch.philox_random(seed=3):
            f(x).backward()
        out = next(n for n in cap.fwd.graph.nodes if n.op == "output")
        saved = list(out.args[0])[1:]
        graphs[setup] = (saved, cap.bwd)
        print(f"{setup} forward saves: " + " ".join(
            f"{n.name}:{str(n.meta['tensor_meta'].dtype).replace('torch.', '')}"
            f"{list(n.meta['tensor_meta'].shape)}" for n in saved))
    saved, bwd = graphs["remat"]
    draws = (torch.ops.remat.philox_uniform.default, torch.ops.remat.philox_mask.default)
    redraws = sum(n.target in draws for n in bwd.graph.nodes)  # a mask: philox_mask (lower.py)
    expect(not any(n.meta["tensor_meta"].dtype == torch.bool or "philox_uniform" in n.name
                   for n in saved) and redraws == 3,
           "remat saves no mask: its backward redraws the 3 masks (2 stochastic depth, 1 "
           "dropout) from the saved states")
    expect(any(n.meta["tensor_meta"].dtype == torch.bool for n in graphs["mincut"][0]),
           "torch's min-cut saves masks")
    # the same steps eagerly and compiled draw the same masks: bit-identical training
    r = T.train(model, [x], "remat", steps=3, loss=lambda out: out, seed=3)
    e = T.train(model, [x], "eager", steps=3, loss=lambda out: out, seed=3)
    expect(torch.equal(r[0], e[0]) and T.bit_identical(r[1], e[1]),
           "stochastic depth under philox_random: remat and eager bit-identical")
    with remat_torch.philox_dropout(seed=3):          # the first name still works
        t = torch.empty(64).bernoulli_(0.5)
    with remat_torch.philox_random(seed=3):
        u = torch.ops.remat.philox_uniform(torch.tensor([3, 0]), [64])
    expect(torch.equal(t, (u < 0.5).float()), "bernoulli_ draws u < p from Philox")


def peak_cmd():
    from models import gpt
    torch.manual_seed(0)
    model, inputs = gpt.build(layers=2)
    base = T.train(model, inputs, "remat", steps=3)
    for opts in ({"objective": "peak"}, {"objective": "peak", "peak_budget": 10**9,
                                          "peak_search": "heuristic"}):
        stats = {}
        r = T.train(model, inputs, "remat", steps=3, options=opts, stats=stats)
        print(f"{opts}: saves {len(stats['saved_fx'])} fx nodes; "
              f"{[line for line in stats['report'].splitlines() if 'objective' in line][:1]}")
        expect(torch.equal(r[0], base[0]) and T.bit_identical(r[1], base[1]),
               f"gpt {opts}: bit-identical to the default objective")


if __name__ == "__main__":
    {"crashes": crashes_cmd, "losses": losses_cmd, "fallback": fallback_cmd,
     "values": values_cmd, "vision": vision_cmd, "depth": depth_cmd,
     "peak": peak_cmd}[sys.argv[1]]()
    sys.exit(1 if failed else 0)
