"""The fx graph steps of partition_fn (aot.py): CSE, the forward/backward extraction and
the backward's order. `cse` and `extract` give the graphs functorch's `fx_graph_cse` and
`_extract_fwd_bwd_modules` give (test/torch/fx_passes.test compares the generated code),
for less time, which their profile on the zoo models spent in (bench/RESULTS.md,
"Partition time"):
- `fx_graph_cse` copies every node into a new graph, which the GraphModule then
  recompiles to Python; `cse` merges the same nodes in place, so nothing is recompiled;
- `_extract_fwd_bwd_modules` extracts each graph twice (the second time after dropping
  saved values the backward does not read) with a list as the set of inputs, flattens
  every node's arguments with pytree to find its inputs, and lints each graph; `extract`
  extracts again only when a saved value was dropped, tests membership in a set, reads
  `all_input_nodes`, and reorders the backward (`sink_recomputation`) before its
  GraphModule is built, so its code is generated once.
"""
import torch.fx as fx
import torch.utils._pytree as pytree
from functorch._src.compile_utils import get_aten_target, rand_ops


def _key(value):
    """A hashable form of an fx argument, equal for the arguments fx_graph_cse's tokens
    (pytree leaves and their spec: list, tuple and dict kept apart) find equal."""
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, _key(v)) for k, v in value.items()))
    return value


def cse(graph):
    """functorch's fx_graph_cse in place: a call_function node with the target and the
    arguments of an earlier one (after the earlier merges) is replaced by it; random
    ops (compile_utils.rand_ops, which remat::philox_state joins) are never merged."""
    seen = {}
    for node in list(graph.nodes):
        if node.op != "call_function" or get_aten_target(node) in rand_ops:
            continue
        key = (node.target, _key(node.args), _key(node.kwargs))
        first = seen.setdefault(key, node)
        if first is not node:
            node.replace_all_uses_with(first)
            graph.erase_node(node)


class _Invalid:
    """A value the extracted graph cannot compute (it needs an input it does not take)."""


_INVALID = _Invalid()


def _subgraph(graph, inputs, outputs):
    """functorch's _extract_graph_with_inputs_outputs: the nodes of graph computable from
    `inputs` (placeholders, in that order, named and with the meta of the nodes they
    stand for) that `outputs` need, in graph order."""
    new = fx.Graph()
    env = {}
    for node in inputs:
        p = new.placeholder(node.name)
        p.meta = node.meta
        env[node] = p
    for node in graph.nodes:
        if node in env:
            continue
        if node.op == "placeholder":
            env[node] = _INVALID
        elif node.op == "call_function":
            if any(env[a] is _INVALID for a in node.all_input_nodes):
                env[node] = _INVALID
            else:
                env[node] = new.node_copy(node, env.__getitem__)
        elif node.op == "get_attr":
            env[node] = new.node_copy(node, env.__getitem__)
    values = []
    for x in outputs:
        if isinstance(x, fx.Node):
            if x not in env or env[x] is _INVALID:
                raise RuntimeError(f"Node {x} couldn't be found in env")
            values.append(env[x])
        else:
            values.append(x)
    new.output(values)
    new.eliminate_dead_code()
    return new


def sink_recomputation(graph):
    """Moves each op the backward recomputes (one that depends on no tangent) to just
    before its first use, everything else keeping its order, as --remat-mincut orders
    its own @f_bwd. The extraction keeps the joint graph's order, where the forward
    comes first: every layer's recomputation would run at the start of the backward and
    stay alive until its layer's gradients, raising the peak."""
    nodes = list(graph.nodes)
    tangent_dep = set()
    for n in nodes:
        if (n.op == "placeholder" and "tangents" in n.target) or \
                any(a in tangent_dep for a in n.all_input_nodes):
            tangent_dep.add(n)
    lazy = {n for n in nodes if n.op == "call_function" and n not in tangent_dep}
    order, done = [], set()
    for n in nodes:
        if n in lazy:
            continue
        stack = [(n, False)]
        while stack:
            x, ready = stack.pop()
            if x in done:
                continue
            if ready:
                done.add(x)
                order.append(x)
                continue
            stack.append((x, True))
            stack.extend((a, False) for a in reversed(x.all_input_nodes)
                         if a in lazy and a not in done)
    assert len(order) == len(nodes), "sink_recomputation lost a node"
    for prev, n in zip(order, order[1:]):
        if prev.next is not n:
            prev.append(n)
    return graph


def extract(joint_module, saved, sink=True):
    """(forward, backward) GraphModules of joint_module for the saved fx nodes `saved`
    (a list; the ones the backward does not read are removed from it), as functorch's
    _extract_fwd_bwd_modules builds them; the backward reordered by sink_recomputation
    when `sink`."""
    graph = joint_module.graph
    num_fwd = joint_module._out_spec.children_specs[0].num_leaves
    outputs = pytree.tree_flatten([n.args for n in graph.nodes if n.op == "output"])[0]
    fwd_outputs, bwd_outputs = outputs[:num_fwd], outputs[num_fwd:]
    primals = [n for n in graph.nodes if n.op == "placeholder" and "tangents" not in n.target]
    tangents = [n for n in graph.nodes if n.op == "placeholder" and "tangents" in n.target]
    bwd_graph = _subgraph(graph, saved + tangents, bwd_outputs)
    unread = {n.name for n in bwd_graph.nodes if n.op == "placeholder" and not n.users}
    if any(s.name in unread for s in saved):
        saved[:] = [s for s in saved if s.name not in unread]
        bwd_graph = _subgraph(graph, saved + tangents, bwd_outputs)
    fwd_graph = _subgraph(graph, primals, fwd_outputs + saved)
    if sink:
        sink_recomputation(bwd_graph)
    return fx.GraphModule(joint_module, fwd_graph), fx.GraphModule(joint_module, bwd_graph)
