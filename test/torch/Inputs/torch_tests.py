"""remat_torch.partition_fn and philox_dropout in training loops (test/torch/*.test).

    torch_tests.py train     zoo models, 10 steps, remat vs eager vs torch's partitioners
    torch_tests.py dropout   the fx graphs: remat's forward saves seed+offset, torch's a mask
    torch_tests.py user      a model written as a user writes it trains under remat
    torch_tests.py unmapped  ops without an rt mapping, torch's own dropout: rt.extern

Each prints lines that FileCheck checks; a failed expectation also exits 1."""
import copy
import functools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "bench"), HERE]

import torch  # noqa: E402
from functorch.compile import aot_module, make_boxed_func  # noqa: E402

import remat_torch  # noqa: E402
from remat_torch import dropout, training as T  # noqa: E402
from expectations import expect, failed  # noqa: E402


def train_cmd():
    from models import gpt, llama, mlp
    for name, mod in (("mlp", mlp), ("gpt", gpt), ("llama", llama)):
        torch.manual_seed(0)
        model, inputs = mod.build(layers=2)
        res = {s: T.train(model, inputs, s, steps=10) for s in T.SETUPS}
        rl, rp = res["remat"]
        for s in ("default", "mincut", "eager", "eager-native"):
            l, p = res[s]
            same = torch.equal(l, rl) and T.bit_identical(p, rp)
            print(f"{name} remat vs {s}: {'bit-identical' if same else 'differ'} "
                  f"(losses {T.max_diff([l], [rl]):.3g}, params {T.max_diff(p, rp):.3g})")
            if s in ("default", "mincut", "eager"):
                expect(same, f"{name}: remat and {s} bit-identical")
            else:
                expect(T.max_diff([l], [rl]) <= 1e-6 and T.max_diff(p, rp) <= 1e-6,
                       f"{name}: remat and {s} within 1e-6")
        expect(bool(rl[-1] < rl[0]), f"{name}: the loss goes down ({rl[0]:.4f} -> {rl[-1]:.4f})")
    # options through the keywords: --remat-checkpoint's ac=auto before the min-cut,
    # a lower scalar weight, matmuls recomputable: other splits, the same numbers
    torch.manual_seed(0)
    model, inputs = gpt.build(layers=2)
    base_stats = {}
    base = T.train(model, inputs, "remat", steps=3, stats=base_stats)
    print(f"gpt default options: saves {len(base_stats['saved_fx'])} fx nodes")
    for opts in ({"checkpoint": "ac=auto"}, {"scalar_factor": 0.01, "ban": "reduction"}):
        stats = {}
        r = T.train(model, inputs, "remat", steps=3, options=opts, stats=stats)
        print(f"gpt {opts}: saves {len(stats['saved_fx'])} fx nodes")
        expect(torch.equal(r[0], base[0]) and T.bit_identical(r[1], base[1]),
               f"gpt {opts}: bit-identical to the default options")
        expect(stats["saved_fx"] != base_stats["saved_fx"], f"gpt {opts}: another saved set")
    # a real optimizer with state: AdamW
    torch.manual_seed(0)
    model, inputs = gpt.build(layers=2)
    r = T.train(model, inputs, "remat", steps=10, optimizer="adamw", lr=1e-2)
    e = T.train(model, inputs, "eager", steps=10, optimizer="adamw", lr=1e-2)
    m = T.train(model, inputs, "mincut", steps=10, optimizer="adamw", lr=1e-2)
    expect(torch.equal(r[0], e[0]) and T.bit_identical(r[1], e[1]),
           "gpt AdamW: remat and eager bit-identical")
    expect(torch.equal(r[0], m[0]) and T.bit_identical(r[1], m[1]),
           "gpt AdamW: remat and torch min-cut bit-identical")
    expect(bool(r[0][-1] < r[0][0]), f"gpt AdamW: the loss goes down ({r[0][0]:.4f} -> {r[0][-1]:.4f})")


def _graph_ops(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function"]


def _saved(gm):
    out = next(n for n in gm.graph.nodes if n.op == "output")
    return list(out.args[0])[1:]


def _recomputed(bwd):
    dep = set()
    for n in bwd.graph.nodes:
        if (n.op == "placeholder" and "tangents" in n.target) or \
                any(a in dep for a in n.all_input_nodes):
            dep.add(n)
    return [n for n in bwd.graph.nodes if n.op == "call_function" and n not in dep]


def _recompute_positions(bwd):
    pos = {n: i for i, n in enumerate(bwd.graph.nodes)}
    return " ".join(str(pos[n]) for n in _recomputed(bwd))


def _recomputation_is_sunk(bwd):
    """Between a recomputed op and its first user there are only recomputed ops."""
    nodes = list(bwd.graph.nodes)
    pos = {n: i for i, n in enumerate(nodes)}
    rec = set(_recomputed(bwd))
    for n in rec:
        first = min(pos[u] for u in n.users)
        if any(m not in rec for m in nodes[pos[n] + 1:first]):
            return False
    return True


def dropout_cmd():
    from models import mlp
    torch.manual_seed(0)
    model, inputs = mlp.build(layers=1)
    graphs = {}
    for setup in ("remat", "mincut"):
        cap = T.Capture()
        f = T.compile_model(copy.deepcopy(model), setup, capture=cap)
        with remat_torch.philox_dropout(seed=7):
            T.loss_of(f(*inputs)).backward()
        graphs[setup] = cap
        saved = _saved(cap.fwd)
        print(f"{setup} forward saves: " + " ".join(
            f"{n.name}:{str(n.meta['tensor_meta'].dtype).replace('torch.', '')}"
            f"{list(n.meta['tensor_meta'].shape)}" for n in saved))
        bwd_targets = sorted({str(n.target) for n in _graph_ops(cap.bwd)
                              if "remat" in str(n.target)})
        print(f"{setup} backward runs: {' '.join(bwd_targets) or '-'}")
    r = graphs["remat"]
    expect(any(n.name.startswith("philox_state") for n in _saved(r.fwd)),
           "remat's forward saves the philox state (seed, offset)")
    expect(not any(n.meta["tensor_meta"].dtype == torch.bool or "philox_uniform" in n.name
                   for n in _saved(r.fwd)), "remat's forward saves no mask")
    expect(any(n.target == dropout.philox_mask_op for n in _graph_ops(r.bwd)) and
           not any(n.target == dropout.philox_state_op for n in _graph_ops(r.bwd)),
           "remat's backward redraws the mask from the saved state, without a new state")
    expect(not any(n.target == dropout.philox_uniform_op for n in _graph_ops(graphs["mincut"].bwd)),
           "torch's min-cut saves the mask (it bans random ops from recomputation)")
    # the backward's order: each recomputed op just before its first use (sink), not
    # every layer's recomputation up front (the joint graph's order)
    torch.manual_seed(0)
    model2, inputs2 = mlp.build(layers=3)
    for sink in (True, False):
        cap = T.Capture()
        f = T.compile_model(copy.deepcopy(model2), "remat", options={"sink": sink}, capture=cap)
        with remat_torch.philox_dropout(seed=7):
            T.loss_of(f(*inputs2)).backward()
        print(f"sink={sink}: backward recomputes at", _recompute_positions(cap.bwd))
        expect(_recomputation_is_sunk(cap.bwd) == sink,
               f"sink={sink}: recomputed ops {'just before' if sink else 'not all just before'}"
               " their first use")
    # the recomputed mask is the forward's, bit for bit: run the forward's and the
    # backward's philox_uniform on the saved state
    st = torch.tensor([7, 0], dtype=torch.int64)
    a = torch.ops.remat.philox_uniform(st, [4, 32])
    b = torch.ops.remat.philox_uniform(st.clone(), [4, 32])
    expect(torch.equal(a, b), "philox_uniform is a pure function of (seed, offset)")
    # the state advances per call: two dropouts draw two masks, one after the other
    with remat_torch.philox_dropout(seed=7):
        x = torch.ones(4, 32)
        m1 = torch.nn.functional.dropout(x, 0.5)
        m2 = torch.nn.functional.dropout(x, 0.5)
        s = dropout.state()
    print(f"state after two draws of 128 elements: {s}")
    expect(s == (7, 64) and not torch.equal(m1, m2), "the offset advances by ceil(numel/4) per draw")
    expect(torch.equal(m1, (a < 0.5).float() / 0.5), "the first draw is philox_uniform(7, 0)")
    # numbers: remat's Philox (tools/remat_torch/philox.py == rt.uniform_philox, checked
    # against the Random123 vectors by remat-import-torch --self-test); the first words
    from remat_torch import philox
    print("uniform(7, 0)[:4] =", " ".join(f"{v:.8f}" for v in a.flatten()[:4].tolist()))
    expect(not philox.self_test(), "Philox4x32-10 matches the Random123 known answers")


def user_cmd():
    from user_model import Classifier
    torch.manual_seed(0)
    model = Classifier()
    x, target = torch.randn(16, 12), torch.randn(16, 5)
    results = {}
    for setup in ("remat", "eager"):
        m = copy.deepcopy(model)
        stats = {}
        f = remat_aot(m, stats=stats, scalar_factor=0.1) if setup == "remat" else m
        opt = torch.optim.AdamW(m.parameters(), lr=1e-2)
        losses = []
        with remat_torch.philox_dropout(seed=0):
            for _ in range(10):
                opt.zero_grad()
                if setup == "eager":
                    with T.decomposed():
                        loss = f(x, target)
                        loss.backward()
                else:
                    loss = f(x, target)
                    loss.backward()
                opt.step()
                losses.append(loss.item())
        results[setup] = (losses, [p.detach().clone() for p in m.parameters()])
        if setup == "remat":
            print("remat saved:", " ".join(stats["saved_fx"]))
    (rl, rp), (el, ep) = results["remat"], results["eager"]
    print("losses:", " ".join(f"{v:.4f}" for v in rl))
    expect(rl[-1] < rl[0], "the user model trains under remat's partition_fn")
    expect(rl == el and T.bit_identical(rp, ep), "remat and eager bit-identical")


def remat_aot(module, **options):
    """aot_module with remat's partition_fn (OPTIONS as keywords through functools.partial)
    and its decompositions; the traced forward and backward run as they are."""
    nop = lambda gm, _: make_boxed_func(gm)  # noqa: E731
    return aot_module(module, fw_compiler=nop, bw_compiler=nop,
                      partition_fn=functools.partial(remat_torch.partition_fn, **options),
                      decompositions=remat_torch.decompositions())


def unmapped_cmd():
    """An op without an rt mapping (cumsum, forward and backward) is an rt.extern: the
    model partitions under remat and its gradients are eager torch's. torch's own dropout
    (bernoulli_, outside philox_random) is an rt.extern that runs once in the forward: its
    mask is saved, as torch's min-cut saves it, and the gradients match torch's min-cut
    under the same generator seed."""
    from cumsum_model import Net
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    net = Net()
    ref = copy.deepcopy(net)
    stats = {}
    remat_aot(net, stats=stats)(x).sum().backward()
    print("externs:", " ".join(e.split(": ", 1)[1].split(" ")[0] for e in stats["externs"]))
    with T.decomposed():
        ref(x).sum().backward()
    expect(stats["partitioner"] == "remat" and
           all(torch.equal(a.grad, b.grad) for a, b in zip(net.parameters(), ref.parameters())),
           "cumsum: partitioned by remat, the gradients are eager torch's")
    drop = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Dropout(0.5))
    grads = {}
    for setup in ("remat", "mincut"):
        m, stats = copy.deepcopy(drop), {}
        cap = T.Capture()
        f = T.compile_model(m, setup, stats=stats, capture=cap)
        torch.manual_seed(1)
        f(x).sum().backward()
        grads[setup] = [p.grad for p in m.parameters()]
        out = next(n for n in cap.fwd.graph.nodes if n.op == "output")
        print(f"{setup} forward saves:", " ".join(n.name for n in list(out.args[0])[1:]))
        if setup == "remat":
            print("externs:", " ".join(e.split(": ", 1)[1] for e in stats["externs"]))
    expect(all(torch.equal(a, b) for a, b in zip(grads["remat"], grads["mincut"])),
           "torch's dropout: the mask is drawn once and saved; gradients as torch's min-cut")


if __name__ == "__main__":
    {"train": train_cmd, "dropout": dropout_cmd, "user": user_cmd,
     "unmapped": unmapped_cmd}[sys.argv[1]]()
    sys.exit(1 if failed else 0)
