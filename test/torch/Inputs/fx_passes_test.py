"""remat_torch.fx_passes against the functorch steps it replaces (test/torch/fx_passes.test):
on the zoo MLP, GPT and Llama (2 layers), `cse` leaves the graph fx_graph_cse builds and
`extract` the forward and backward _extract_fwd_bwd_modules builds (the same Python code),
also when a saved value is one the backward does not read (dropped, then extracted again);
with sink=True the backward is torch's reordered by sink_recomputation."""
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "bench")]

import torch  # noqa: E402
from functorch._src.compile_utils import fx_graph_cse  # noqa: E402
from functorch._src.partitioners import _extract_fwd_bwd_modules  # noqa: E402
from functorch.compile import aot_module, default_partition, make_boxed_func  # noqa: E402

from remat_torch import aot, dropout, fx_passes  # noqa: E402
from models import gpt, llama, mlp  # noqa: E402
from expectations import expect, failed  # noqa: E402


def nodes_of(graph):
    """The graph as text, node by node (the generated code differs in its signature: the
    graph merged in place keeps the joint graph's pytree calling convention)."""
    return [(n.op, n.name, str(n.target), str(n.args), str(n.kwargs)) for n in graph.nodes]


def joint_of(mod):
    """The joint module aot_module hands its partition_fn, and its inputs."""
    torch.manual_seed(0)
    model, inputs = mod.build(layers=2)
    got = {}

    def capture(gm, ji):
        got["joint"] = (copy.deepcopy(gm), ji)
        return default_partition(gm, ji)
    nop = lambda gm, _: make_boxed_func(gm)  # noqa: E731
    f = aot_module(model, nop, nop, partition_fn=capture, decompositions=aot.decompositions())
    with dropout.philox_dropout(0):
        f(*inputs)
    return got["joint"]


for name, mod in (("mlp", mlp), ("gpt", gpt), ("llama", llama)):
    joint, ji = joint_of(mod)
    # CSE: torch's new graph against the graph merged in place
    a, b = copy.deepcopy(joint), copy.deepcopy(joint)
    a.graph.eliminate_dead_code()
    a.graph = fx_graph_cse(a.graph)
    b.graph.eliminate_dead_code()
    n = len(b.graph.nodes)
    fx_passes.cse(b.graph)
    print(f"{name}: cse merged {n - len(b.graph.nodes)} nodes")
    expect(nodes_of(a.graph) == nodes_of(b.graph), f"{name}: cse gives fx_graph_cse's graph")
    # extraction, on remat's saved set plus the model's output (the backward reads no
    # forward output: it is dropped and both graphs extracted again)
    stats = {}
    aot.partition_fn(copy.deepcopy(joint), ji, stats=stats)
    prepared = copy.deepcopy(joint)
    aot._prepare(prepared)
    nodes = {x.name: x for x in prepared.graph.nodes}
    out = next(x for x in prepared.graph.nodes if x.op == "output").args[0][0]
    for extra in ([], [out]):
        saved = [nodes[s] for s in stats["saved_fx"]] + extra
        s1, s2, s3 = list(saved), list(saved), list(saved)
        f1, b1 = _extract_fwd_bwd_modules(prepared, s1)
        f2, b2 = fx_passes.extract(prepared, s2, sink=False)
        what = f"{name}{' with an unread saved value' if extra else ''}"
        expect(f1.code == f2.code and b1.code == b2.code and s1 == s2,
               f"{what}: extract gives _extract_fwd_bwd_modules' graphs and saved list")
        f3, b3 = fx_passes.extract(prepared, s3, sink=True)
        fx_passes.sink_recomputation(b1.graph)
        b1.recompile()
        expect(f1.code == f3.code and b1.code == b3.code and b3.code != b2.code,
               f"{what}: sink=True reorders that backward")
sys.exit(1 if failed else 0)
