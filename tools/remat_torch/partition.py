"""torch's own partition of the joint graph: functorch's
min_cut_rematerialization_partition called on the graph remat imports, timed.

The partitioner mutates the module it gets (DCE, CSE), so every call gets a fresh
deep copy; only the call itself is timed (wall and process CPU time; networkx is
imported before, the partitioner would import it on its first call). Saved values are the forward module's
outputs after the forward outputs (what torch keeps for the backward)."""
import statistics
import time

from functorch.compile import min_cut_rematerialization_partition

from . import emit, trace


def _bytes(node):
    tm = node.meta.get("tensor_meta")
    if tm is None:
        return 0
    return emit.numel(tuple(tm.shape)) * emit.ELEM_BYTES[emit.elem_of(tm.dtype, node)]


# Ops that return a view of their input in eager torch: a saved view of a parameter
# costs no memory of its own (torch keeps the parameter alive anyway).
VIEW_OPS = {"aten.transpose.int", "aten.t.default", "aten.view.default", "aten.permute.default",
            "aten._unsafe_view.default", "aten._reshape_alias.default", "aten.alias.default",
            "aten.expand.default", "aten.slice.Tensor", "aten.select.int", "aten.unsqueeze.default",
            "aten.squeeze.default", "aten.squeeze.dim", "aten.reshape.default"}


def _param_root(node, arg_kind):
    """The parameter or buffer that `node` is, or is a chain of views of; else None."""
    while node.op == "call_function" and str(node.target) in VIEW_OPS:
        node = node.args[0]
    a = arg_kind.get(node.name) if node.op == "placeholder" else None
    return a if a is not None and a.kind in ("param", "buffer") else None


def torch_partition(joint, values, runs=5, compiler="nvfuser"):
    """values: {fx node name: rt SSA name} from the writer (names in the .mlir file)."""
    arg_kind = {f"primals_{i + 1}": a for i, a in enumerate(joint.args)}
    import networkx  # noqa: F401  (the partitioner imports it on its first call)
    times, cpu, fw = [], [], None
    for _ in range(max(1, runs)):
        gm = trace.copy_module(joint.gm)
        t0, c0 = time.perf_counter(), time.process_time()
        fw, _bw = min_cut_rematerialization_partition(gm, joint.joint_inputs, compiler=compiler)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    out = next(n for n in fw.graph.nodes if n.op == "output")
    saved_nodes = list(out.args[0])[joint.num_outputs:]
    saved, total, params = [], 0, 0
    jnodes = {n.name: n for n in joint.gm.graph.nodes}
    for n in saved_nodes:
        b = _bytes(n)
        a = arg_kind.get(n.name)
        is_param = _param_root(jnodes.get(n.name, n), arg_kind) is not None
        tm = n.meta.get("tensor_meta")
        saved.append({
            "fx": n.name,
            "value": a.name if a is not None else values.get(n.name, n.name),
            "type": emit.tensor_type(tuple(tm.shape), emit.elem_of(tm.dtype, n)) if tm else None,
            "bytes": b,
            "param": is_param,   # a parameter or buffer, or a view of one
        })
        total += b
        params += b if is_param else 0
    return {
        "partitioner": "functorch.compile.min_cut_rematerialization_partition",
        "compiler": compiler,
        "runs": len(times),
        "median_s": statistics.median(times),
        "times_s": times,
        "median_cpu_s": statistics.median(cpu),
        "saved": saved,
        "saved_bytes": total,
        "saved_param_bytes": params,
        "saved_activation_bytes": total - params,
    }
