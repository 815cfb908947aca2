"""remat as torch 1.13's AOT autograd partitioner (docs/importer.md, "partition_fn").

    from functools import partial
    from functorch.compile import aot_module, make_boxed_func
    import remat_torch
    compiled = aot_module(model, fw_compiler=nop, bw_compiler=nop,
                          partition_fn=partial(remat_torch.partition_fn, scalar_factor=0.1),
                          decompositions=remat_torch.decompositions())

`partition_fn(joint_module, joint_inputs, **options)`:
1. the conversions rewritten (lower.py), dead-code elimination and torch's CSE (what
   min_cut_rematerialization_partition does first; fx_passes.cse merges what
   fx_graph_cse merges, in place);
2. the joint graph as an rt function, written by the importer's emitter with every op's
   SSA name (the fx node's name) in its location;
3. --remat-checkpoint (when `checkpoint` is given) and --remat-mincut run in-process
   through the C API (binding.py);
4. the saved set comes back by name (rematSplitSavedValues) and maps to fx nodes: a
   node's own value is that node; a value the emitter made inside a node (a conversion,
   a broadcast, a step of a decomposed op) maps to the fx nodes it is computed from
   (the nearest ones up its operands), which the backward then recomputes it from;
5. the two GraphModules, as torch's `_extract_fwd_bwd_modules(joint_module, saved)` builds
   them (fx_passes.extract, faster), the backward's recomputation sunk to its uses.

Options (keywords, through functools.partial): the --remat-mincut options in snake case
(`scalar_factor`, `params_free`, `ban`, `ban_random`, `report`, `dot`, `timeline`,
`dump_network`), `checkpoint` (None, or --remat-checkpoint's option text: "ac=auto",
"save-ops=mm,save-every=2"), `sink` (True, default: the backward's recomputed ops move to just
before their first use, see fx_passes.sink_recomputation; False: the joint graph's order, as
torch's partitioners leave it), `fallback` ("error", default: an op the emitter cannot map
raises RematPartitionError naming the ATen op and the model's line; "torch": warn and
partition with torch's min_cut_rematerialization_partition instead; "default": with
default_partition), and `stats` (a dict that receives the report, the saved names and
the partition time).

Importing this module turns on fx's record_stack_traces, so graphs traced afterwards
know each op's model line (for the error message above).
"""
import time
import warnings

import torch
import torch.fx as fx
import torch.fx.experimental.proxy_tensor as proxy_tensor
from functorch.compile import default_partition, min_cut_rematerialization_partition

from . import binding, emit, fx_passes, lower, trace

proxy_tensor.PythonKeyTracer.record_stack_traces = True

MINCUT_OPTIONS = ("scalar_factor", "params_free", "ban", "ban_random", "report", "dot",
                  "timeline", "dump_network")


class RematPartitionError(RuntimeError):
    """The joint graph has an op remat cannot write (op, file, line set), or a pass
    failed."""

    def __init__(self, message, op=None, file=None, line=None):
        super().__init__(message)
        self.op, self.file, self.line = op, file, line


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


def _unmapped(e):
    node = e.node
    op = emit._op_name(node.target) if node is not None and node.op == "call_function" else None
    src = trace.node_source(node) if node is not None else None
    where = f"{src[0]}:{src[1]}: " if src else ""
    what = str(e)
    hint = (" (or partition with torch's: functools.partial(remat_torch.partition_fn, "
            "fallback='torch'))")
    return RematPartitionError(f"{where}remat_torch.partition_fn: {what}" +
                               (f"; fx node '{node.name}'" if node is not None else "") + hint,
                               op, src[0] if src else None, src[1] if src else None)


def _torch_random(graph):
    """The first node that draws from torch's generator (dropout outside philox_dropout:
    bernoulli_, rand_like, ...), or None. The emitter would write it as
    rt.uniform_philox, but torch runs the fx graph: a backward that recomputed it would
    draw other numbers than the forward, a silently wrong gradient. So it is refused."""
    from functorch._src.compile_utils import get_aten_target, rand_ops
    aten = torch.ops.aten
    extra = {aten.bernoulli_, aten.randn_like, aten.randint_like, aten.uniform_,
             aten.normal_, aten.exponential_}
    for n in graph.nodes:
        if n.op == "call_function":
            t = get_aten_target(n)
            if (t in rand_ops or t in extra) and t is not torch.ops.remat.philox_state:
                return n
    return None


def to_rt(joint_module, joint_inputs, fn_name="joint"):
    """The joint graph as an rt function (emit.Function) with names in locations."""
    from . import dropout  # noqa: F401  (registers remat::philox_state)
    rnd = _torch_random(joint_module.graph)
    if rnd is not None:
        raise _unmapped(emit.ImportError_(
            f"{emit._op_name(rnd.target)} draws from torch's generator: a recomputed mask "
            "would differ from the forward's; train under remat_torch.philox_dropout(), "
            "whose masks remat recomputes from (seed, offset)", rnd))
    args = _primal_args(joint_module.graph, joint_inputs)
    try:
        return emit.write_function(joint_module.graph, args, fn_name,
                                   _num_outputs(joint_module), names=True)
    except emit.ImportError_ as e:
        raise _unmapped(e) from None


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
                raise RematPartitionError(f"remat_torch.partition_fn: saved value %{v} "
                                          "is neither an fx node nor computed from one")
    order = {n: i for i, n in enumerate(joint_module.graph.nodes)}
    return sorted(out, key=lambda n: order[n])


def partition_fn(joint_module: fx.GraphModule, joint_inputs, *, checkpoint=None,
                 fallback="error", stats=None, sink=True, **mincut):
    """A partition_fn for functorch.compile.aot_function / aot_module (torch 1.13):
    returns (forward GraphModule, backward GraphModule) with remat's min-cut split."""
    unknown = set(mincut) - set(MINCUT_OPTIONS)
    if unknown:
        raise TypeError(f"partition_fn: unknown option(s) {sorted(unknown)}; --remat-mincut "
                        f"takes {', '.join(MINCUT_OPTIONS)}, plus checkpoint=, fallback=, stats=")
    if fallback not in ("error", "torch", "default"):
        raise ValueError("partition_fn: fallback is 'error', 'torch' or 'default'")
    t0, c0 = time.perf_counter(), time.process_time()
    _prepare(joint_module)
    try:
        fn = to_rt(joint_module, joint_inputs)
    except RematPartitionError as e:
        if fallback == "error" or e.op is None:
            raise
        warnings.warn(f"{e}; partitioned by torch's "
                      f"{'min-cut' if fallback == 'torch' else 'default'} partitioner")
        part = min_cut_rematerialization_partition if fallback == "torch" else default_partition
        fwd, bwd = part(joint_module, joint_inputs)
        if stats is not None:
            stats.update(partitioner=fallback, fallback=str(e),
                         seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0)
        return fwd, bwd
    t1 = time.perf_counter()
    passes = []
    if checkpoint:
        passes.append(("remat-checkpoint", checkpoint))
    opts = dict(mincut)
    want_report = stats is not None and "report" not in opts
    if want_report:
        opts["report"] = "-"
    passes.append(("remat-mincut", opts))
    with binding.Context() as ctx:
        try:
            module = ctx.parse(fn.text, "joint")
            report = module.run(passes)
        except binding.RematError as e:
            raise RematPartitionError(f"remat_torch.partition_fn: {e}") from None
        saved = [s.name for s in module.saved()]
    t2 = time.perf_counter()
    nodes = saved_nodes(joint_module, fn, saved)
    lower.fuse_masks(joint_module.graph, nodes)
    lower.fold_transposes(joint_module.graph, nodes)
    fwd, bwd = fx_passes.extract(joint_module, list(nodes), sink=sink)
    if stats is not None:
        stats.update(partitioner="remat", saved_rt=saved, saved_fx=[n.name for n in nodes],
                     report=report, seconds=time.perf_counter() - t0,
                     cpu_seconds=time.process_time() - c0,
                     emit_seconds=t1 - t0, remat_seconds=t2 - t1, rt=fn.text)
    return fwd, bwd
