"""remat as torch 1.13's AOT autograd partitioner (docs/importer.md, "partition_fn").

    from functools import partial
    from functorch.compile import aot_module, make_boxed_func
    import remat_torch
    compiled = aot_module(model, fw_compiler=nop, bw_compiler=nop,
                          partition_fn=partial(remat_torch.partition_fn, scalar_factor=0.1),
                          decompositions=remat_torch.decompositions())

`partition_fn(joint_module, joint_inputs, **options)`:
0. the options are checked (options.py: TypeError, ValueError) before anything else;
1. the conversions rewritten (lower.py), dead-code elimination and torch's CSE (what
   min_cut_rematerialization_partition does first; fx_passes.cse merges what
   fx_graph_cse merges, in place); an op that reads a tensor only for its shape
   (zeros_like(x), ...) is rewritten to read none (shape_only_inputs), as rt writes it;
2. the joint graph as an rt function, written by the importer's emitter with every op's
   SSA name (the fx node's name) in its location; a node without an rt mapping is an
   rt.extern (extern.py), a tensor constant an rt.full or a constant rt.extern;
3. --remat-checkpoint (when `checkpoint` is given) and --remat-mincut run in-process
   through the C API (binding.py);
4. the saved set comes back by name (rematSplitSavedValues) and maps to fx nodes: a
   node's own value is that node (an rt.extern's k-th result the getitem node that reads
   it); a value the emitter made inside a node (a conversion, a broadcast, a step of a
   decomposed op) maps to the fx nodes it is computed from (the nearest ones up its
   operands), which the backward then recomputes it from;
5. the split is checked against fx's own dependencies (check_split); then the two
   GraphModules, as torch's `_extract_fwd_bwd_modules(joint_module, saved)` builds them
   (fx_passes.extract, faster), the backward's recomputation sunk to its uses.

Options (keywords, through functools.partial): the --remat-mincut options in snake case
(`scalar_factor`, `params_free`, `ban`, `ban_random`, `objective`, `peak_budget`,
`peak_search`, `report`, `dot`, `timeline`, `dump_network`), `checkpoint` (None; True:
--remat-checkpoint with its defaults; a dict of its options in snake case, {"ac": "auto"};
or its option text, "save-ops=mm,save-every=2"), `sink` (True, default: the backward's
recomputed ops move to just before their first use, see fx_passes.sink_recomputation;
False: the joint graph's order, as torch's partitioners leave it), `fallback` ("error", default:
any error inside remat's partitioning raises RematPartitionError with the reason and the
fx node's model line; "torch": warn once with the same text and partition with torch's
min_cut_rematerialization_partition instead; "default": with default_partition), and
`stats` (a dict that receives the report, the saved names, the ops written as rt.extern
and the partition time).

Importing this module turns on fx's record_stack_traces, so graphs traced afterwards
know each op's model line (for the error message above).
"""
import time
import warnings

import torch
import torch.fx as fx
import torch.fx.experimental.proxy_tensor as proxy_tensor
from functorch.compile import default_partition, min_cut_rematerialization_partition

from . import binding, emit, extern, fx_passes, lower, options, trace

proxy_tensor.PythonKeyTracer.record_stack_traces = True

MINCUT_OPTIONS = tuple(options.MINCUT)


class RematPartitionError(RuntimeError):
    """remat could not partition the graph: `reason` (one line), where (`file`, `line`:
    the model's line of the fx node `node`, None where unknown), `op` (the node's ATen
    op) and `kind`: "unmapped" (the graph has a value rt cannot hold: a complex tensor,
    an op without a tensor result) or "internal" (a bug: an exception inside the
    emitter, a failed pass, a split that is no cut of fx's graph)."""

    def __init__(self, reason, node=None, kind="internal", hint=False):
        src = trace.node_source(node) if node is not None else None
        self.reason, self.kind, self.fx_node = reason, kind, node
        self.node = node.name if node is not None else None
        self.op = emit._op_name(node.target) if node is not None and \
            node.op == "call_function" else None
        self.file, self.line = src if src else (None, None)
        where = f"{src[0]}:{src[1]}: " if src else ""
        text = f"{where}remat_torch.partition_fn: {reason}" + \
            (f"; fx node '{node.name}'" if node is not None else "")
        if hint:
            text += (" (or partition with torch's: functools.partial(remat_torch.partition_fn, "
                     "fallback='torch'))")
        super().__init__(text)


def decompositions():
    """The decompositions the emitter expects (layer norm, softmax, GELU, ... and addmm as
    mm + bias): pass them to aot_module as `decompositions=`."""
    return trace.decompositions()


def _prepare(joint_module):
    """The conversions rewritten (lower.py), DCE and CSE (torch's min-cut does the last
    two), in place on the graph; the module is not recompiled (its code is not run)."""
    lower.cheap_converts(joint_module.graph)
    joint_module.graph.eliminate_dead_code()
    fx_passes.cse(joint_module.graph)


def _primal_args(graph, joint_inputs):
    """trace.Arg per primals_* placeholder, named by the placeholder: parameters (torch's
    nn.Parameter objects, which aot_module passes) are rt.param."""
    primals = [n for n in graph.nodes if n.op == "placeholder" and "tangents" not in n.target]
    values = list(joint_inputs[0]) if isinstance(joint_inputs, (tuple, list)) and \
        len(joint_inputs) == 2 else []
    args = []
    for k, node in enumerate(primals):
        v = values[k] if k < len(values) else None
        if v is None:
            tm = node.meta.get("tensor_meta")
            v = torch.empty(tuple(tm.shape), dtype=tm.dtype, device="meta")
            kind = "input"
        else:
            kind = "param" if isinstance(v, torch.nn.Parameter) else "input"
        args.append(trace.Arg(node.name, kind, v, bool(getattr(v, "requires_grad", False))))
    return args


def _num_outputs(joint_module):
    return joint_module._out_spec.children_specs[0].num_leaves


def to_rt(joint_module, joint_inputs, fn_name="joint"):
    """The joint graph as an rt function (emit.Function) with names in locations; ops
    that draw from torch's generator are rt.extern "forward" (torch runs the graph)."""
    from . import dropout  # noqa: F401  (registers remat::philox_state)
    args = _primal_args(joint_module.graph, joint_inputs)
    return emit.write_function(joint_module.graph, args, fn_name, _num_outputs(joint_module),
                               names=True, torch_random=True)


SHAPE_ONLY = {  # op: the value its result is filled with (an argument index, or a number)
    torch.ops.aten.zeros_like.default: 0, torch.ops.aten.ones_like.default: 1,
    torch.ops.aten.empty_like.default: 0, torch.ops.aten.full_like.default: ("arg", 1),
    torch.ops.aten.new_zeros.default: 0, torch.ops.aten.new_ones.default: 1,
    torch.ops.aten.new_empty.default: 0, torch.ops.aten.new_full.default: ("arg", 2),
    torch.ops.aten.fill.Scalar: ("arg", 1),
}


def shape_only_inputs(joint_module, joint_inputs):
    """Rewrites each op that reads a tensor only for its shape and type (zeros_like(x),
    new_zeros(x, size), fill(x, v), ...) to read no tensor: aten.full (or
    aten.empty_strided then fill, for a result with other strides than a contiguous
    tensor's, so later kernels see the same layout). rt writes these ops as rt.full, which
    reads nothing, so its split may leave x unsaved; fx would still make the backward read
    x (nll_loss's backward starts from zeros_like(log_probs)). The values are the same.
    In place on the graph, as _prepare: the module is not recompiled.
    The device is the joint inputs' (the graph is left alone when they have several)."""
    devices = {t.device for t in _tensors(joint_inputs)}
    if len(devices) > 1:
        return
    device = devices.pop() if devices else torch.device("cpu")
    aten, g = torch.ops.aten, joint_module.graph
    for n in list(g.nodes):
        fill = SHAPE_ONLY.get(n.target) if n.op == "call_function" else None
        tm = n.meta.get("tensor_meta")
        if fill is None or not n.all_input_nodes or not hasattr(tm, "stride"):
            continue
        value = n.args[fill[1]] if isinstance(fill, tuple) else fill
        if isinstance(value, fx.Node) or (n.target == aten.fill.Scalar and
                                          not n.args[0].all_input_nodes):
            continue
        shape, kw = list(tm.shape), dict(dtype=tm.dtype, layout=torch.strided, device=device,
                                          pin_memory=False)
        with g.inserting_before(n):
            if tuple(tm.stride) == _contiguous(shape):
                new = g.call_function(aten.full.default, (shape, value), kw)
            else:
                empty = g.call_function(aten.empty_strided.default,
                                        (shape, list(tm.stride)), kw)
                empty.meta = dict(n.meta)
                new = g.call_function(aten.fill.Scalar, (empty, value))
        new.meta = dict(n.meta)
        n.replace_all_uses_with(new)
        g.erase_node(n)


def _contiguous(shape):
    out, step = [], 1
    for d in reversed(shape):
        out.append(step)
        step *= max(d, 1)
    return tuple(reversed(out))


def _tensors(tree):
    if isinstance(tree, torch.Tensor):
        yield tree
    elif isinstance(tree, (list, tuple)):
        for x in tree:
            yield from _tensors(x)


def saved_nodes(joint_module, fn, saved_names):
    """The fx nodes that stand for the saved rt values `saved_names`."""
    by_ssa = {}
    nodes = {n.name: n for n in joint_module.graph.nodes}
    for fx_name, ssa in fn.values.items():
        by_ssa.setdefault(ssa, nodes[fx_name])
    for n in joint_module.graph.nodes:        # philox_state: %<node>.seed / .offset
        by_ssa.setdefault(n.name + ".seed", n)
        by_ssa.setdefault(n.name + ".offset", n)
    out, seen = [], set()

    def add(node):
        if node.name not in seen:
            seen.add(node.name)
            out.append(node)

    for name in saved_names:
        stack, visited = [name], set()
        while stack:
            v = stack.pop()
            if v in visited:
                continue
            visited.add(v)
            if v in by_ssa:
                add(by_ssa[v])
            elif v in fn.operands:
                stack.extend(fn.operands[v])
            else:
                raise RematPartitionError(f"saved value %{v} is neither an fx node nor "
                                          "computed from one")
    order = {n: i for i, n in enumerate(joint_module.graph.nodes)}
    return sorted(out, key=lambda n: order[n])


def _runs_once_in_forward(node):
    """A node the backward must not run again: a draw from a generator, a write."""
    from functorch._src.compile_utils import get_aten_target, rand_ops
    return node.op == "call_function" and (extern.recompute(node.target) == "forward" or
                                           get_aten_target(node) in rand_ops)


def check_split(joint_module, saved):
    """Checks the split against fx's own dependencies before torch builds the modules
    from it: every saved node is computed by the forward (depends on no tangent), and
    every node the backward reads is saved, a tangent, or recomputable from those
    without running a forward-only op (a draw, a write) again, nor making again a fresh
    buffer that such an op was handed (it may have filled it). A violation is remat's
    bug (an rt value whose dependencies differ from its fx node's), raised as an
    internal RematPartitionError instead of fx's SyntaxError ("Invalid Node")."""
    from functorch._src.partitioners import _extract_fwd_bwd_outputs
    _, bwd_outputs = _extract_fwd_bwd_outputs(joint_module)
    tangent_dep = set()
    for n in joint_module.graph.nodes:
        if (n.op == "placeholder" and "tangents" in n.target) or \
                any(a in tangent_dep for a in n.all_input_nodes):
            tangent_dep.add(n)
    for n in saved:
        if n in tangent_dep:
            raise RematPartitionError(f"the split saves '{n.name}', which depends on a "
                                      "tangent", n)
    have = set(saved)
    stack = [(o, None) for o in bwd_outputs if isinstance(o, fx.Node)]
    seen = set()
    while stack:
        n, reader = stack.pop()
        if n in have or n in seen or n.op == "get_attr" or \
                (n.op == "placeholder" and n in tangent_dep):
            continue
        seen.add(n)
        if n.op == "placeholder":
            raise RematPartitionError(
                f"the backward reads '{n.name}' (in '{reader.name}'), which is neither saved "
                "nor recomputable from saved values", reader)
        if n not in tangent_dep and _runs_once_in_forward(n):
            raise RematPartitionError(f"the backward would run '{n.name}' "
                                      f"({emit._op_name(n.target)}) again, which runs once, "
                                      "in the forward", n)
        writer = next((u for u in n.users if u not in tangent_dep and
                       _runs_once_in_forward(u)), None) if not n.all_input_nodes else None
        if writer is not None:
            raise RematPartitionError(f"the backward would compute '{n.name}' again, a buffer "
                                      f"that '{writer.name}' may fill in the forward", n)
        stack.extend((a, n) for a in n.all_input_nodes)


def _partition_error(e, hint):
    """Any exception raised inside remat's partitioning as a RematPartitionError with
    the reason and the fx node it happened at."""
    if isinstance(e, RematPartitionError):
        return RematPartitionError(e.reason, e.fx_node, e.kind, hint)
    if isinstance(e, emit.ImportError_):
        return RematPartitionError(str(e), e.node, "unmapped", hint)
    if isinstance(e, binding.RematError):
        lines = [x for x in str(e).splitlines() if x.strip()]
        errors = [x for x in lines if "error:" in x]
        reason = "; ".join([lines[0]] + errors[:1]) if lines else "a remat pass failed"
        return RematPartitionError(reason, None, "internal", hint)
    return RematPartitionError(f"internal error: {type(e).__name__}: {e}",
                               getattr(e, "fx_node", None), "internal", hint)


def partition_fn(joint_module: fx.GraphModule, joint_inputs, *, checkpoint=None,
                 fallback="error", stats=None, sink=True, **mincut):
    """A partition_fn for functorch.compile.aot_function / aot_module (torch 1.13):
    returns (forward GraphModule, backward GraphModule) with remat's min-cut split.
    Options are checked first (TypeError, ValueError); then any error inside remat's
    partitioning is a RematPartitionError (fallback="error") or a warning and torch's
    partition (fallback="torch" / "default")."""
    passes = options.passes(checkpoint, fallback, stats, sink, mincut)
    try:
        binding.check_passes(passes)
    except binding.RematError as e:
        if "cannot load" not in str(e):
            raise ValueError(f"partition_fn: {e}") from None
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        return _remat_partition(joint_module, joint_inputs, passes, sink, stats, t0, c0)
    except Exception as e:  # noqa: BLE001 (every error of remat's partitioning: the fallback)
        err = _partition_error(e, hint=fallback == "error")
        if fallback == "error":
            raise err from e
        warnings.warn(f"{err}; partitioned by torch's "
                      f"{'min-cut' if fallback == 'torch' else 'default'} partitioner",
                      stacklevel=2)
        part = min_cut_rematerialization_partition if fallback == "torch" else default_partition
        fwd, bwd = part(joint_module, joint_inputs)
        if stats is not None:
            stats.update(partitioner=fallback, fallback=str(err),
                         seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0)
        return fwd, bwd


def _remat_partition(joint_module, joint_inputs, passes, sink, stats, t0, c0):
    _prepare(joint_module)
    shape_only_inputs(joint_module, joint_inputs)
    fn = to_rt(joint_module, joint_inputs)
    t1 = time.perf_counter()
    mincut = dict(passes[-1][1])
    if stats is not None and "report" not in mincut:
        mincut["report"] = "-"
    with binding.shared_context() as ctx:
        module = ctx.parse(fn.text, "joint")
        report = module.run(passes[:-1] + [("remat-mincut", mincut)])
        saved = [s.name for s in module.saved()]
    t2 = time.perf_counter()
    nodes = saved_nodes(joint_module, fn, saved)
    check_split(joint_module, nodes)
    lower.fuse_masks(joint_module.graph, nodes)
    lower.fold_transposes(joint_module.graph, nodes)
    fwd, bwd = fx_passes.extract(joint_module, list(nodes), sink=sink)
    if stats is not None:
        stats.update(partitioner="remat", saved_rt=saved, saved_fx=[n.name for n in nodes],
                     externs=[f"{n.name}: {why}" for n, why in fn.externs],
                     report=report, seconds=time.perf_counter() - t0,
                     cpu_seconds=time.process_time() - c0,
                     emit_seconds=t1 - t0, remat_seconds=t2 - t1, rt=fn.text)
    return fwd, bwd
