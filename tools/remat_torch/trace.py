"""Tracing a torch.nn.Module into an ATen joint forward+backward graph with AOT autograd.

`trace_joint` calls functorch.compile.aot_function with a partition_fn that captures the
joint graph (the graph every partitioner sees), after dead-code elimination and the CSE
that torch's min-cut partitioner runs itself, so remat and torch cut the same graph.
"""
import contextlib
import copy
import dataclasses
import os
import re
import sysconfig
import warnings
from typing import List, Optional

import torch
import torch.fx as fx
import torch.fx.experimental.proxy_tensor as proxy_tensor
import torch.nn.functional as F
from functorch.compile import aot_function, default_partition, make_boxed_func
from functorch._src.compile_utils import fx_graph_cse
from torch._decomp import get_decompositions
from torch.nn.utils import stateless

aten = torch.ops.aten


@dataclasses.dataclass
class Arg:
    """One primal of the joint graph: a parameter, a buffer or a model input."""
    name: str          # the parameter's or buffer's qualified name, or x0, x1, ...
    kind: str          # "param" | "buffer" | "input"
    value: torch.Tensor
    requires_grad: bool
    range: Optional[tuple] = None  # an integer input's [LO, HI) (--input ...:LO:HI): rt.range


@dataclasses.dataclass
class Joint:
    gm: fx.GraphModule          # the joint graph (primals_*, tangents_* placeholders)
    joint_inputs: tuple         # what aot_function handed to the partitioner
    args: List[Arg]             # one per primals_* placeholder, in order
    num_outputs: int            # forward outputs (the first results)


def _addmm(bias, a, b, beta=1, alpha=1):
    # torch's own addmm decomposition multiplies by beta and alpha even when they are 1;
    # a Linear layer is mm + bias.
    out = torch.mm(a, b)
    if alpha != 1:
        out = out * alpha
    if beta == 0:
        return out
    return out + (bias if beta == 1 else bias * beta)


def decompositions():
    """Compound ATen ops decomposed into ops docs/importer.md maps one by one."""
    table = get_decompositions([
        aten.native_layer_norm, aten.native_layer_norm_backward,
        aten._softmax, aten._softmax_backward_data,
        aten._log_softmax, aten._log_softmax_backward_data,
        aten.gelu, aten.gelu_backward, aten.silu, aten.silu_backward,
        aten.sigmoid_backward, aten.tanh_backward, aten.threshold_backward,
        aten.masked_fill, aten.t, aten.detach, aten.native_dropout_backward,
        aten.leaky_relu_backward, aten.hardtanh_backward,
        aten.mse_loss, aten.mse_loss_backward,
        aten.softplus_backward, aten.hardswish_backward, aten.hardsigmoid_backward,
        aten.mish_backward,
        aten.log_sigmoid_forward, aten.log_sigmoid_backward,
        aten.native_batch_norm, aten.native_batch_norm_backward,
    ])
    table[aten.addmm.default] = _addmm
    from . import indexing
    table.update(indexing.table())
    return table


def _dropout(input, p=0.5, training=True, inplace=False):
    """F.dropout as the importer traces it: a uniform draw compared with the keep
    probability (the form remat recomputes from a Philox seed and offset)."""
    if not training or p == 0.0:
        return input
    keep = 1.0 - p
    mask = torch.rand_like(input) < keep
    return input * mask / keep


@contextlib.contextmanager
def tracing_context():
    """Everything that must hold while aot_function traces:
    - F.dropout (used by nn.Dropout) traced as rand_like(x) < keep;
    - forward ops record the Python stack (fx's record_stack_traces), backward ops the
      stack of their forward op (anomaly mode keeps it; check_nan=False since a traced
      tensor has no values to check)."""
    saved_dropout = F.dropout
    saved_record = proxy_tensor.PythonKeyTracer.record_stack_traces
    F.dropout = _dropout
    proxy_tensor.PythonKeyTracer.record_stack_traces = True
    try:
        with warnings.catch_warnings():
            # anomaly mode announces itself with a UserWarning on every use
            warnings.simplefilter("ignore", UserWarning)
            with torch.autograd.detect_anomaly(check_nan=False):
                yield
    finally:
        F.dropout = saved_dropout
        proxy_tensor.PythonKeyTracer.record_stack_traces = saved_record


def module_args(module, inputs, grad_all_floats=False):
    """The primals in aot_function's order: parameters, buffers, then inputs.
    grad_all_floats: every floating-point tensor gets a gradient (forward-only mode,
    where remat's autodiff differentiates every float tensor argument)."""
    args = []
    for name, p in module.named_parameters():
        args.append(Arg(name, "param", p, p.requires_grad or (grad_all_floats and p.is_floating_point())))
    for name, b in module.named_buffers():
        args.append(Arg(name, "buffer", b, grad_all_floats and b.is_floating_point()))
    for i, x in enumerate(inputs):
        args.append(Arg(f"x{i}", "input", x,
                        x.requires_grad or (grad_all_floats and x.is_floating_point())))
    return args


def copy_module(gm):
    """A deep copy that keeps the pytree specs (deepcopy drops them; the partitioners
    read _out_spec to count the forward outputs)."""
    new = copy.deepcopy(gm)
    for attr in ("_in_spec", "_out_spec"):
        if hasattr(gm, attr):
            setattr(new, attr, getattr(gm, attr))
    return new


def tied_names(module):
    """{canonical name: [other names]} of the parameters and buffers that more than one
    attribute holds (weight tying: `head.weight = emb.weight`). named_parameters() and
    named_buffers() give each tensor once, under its first name (the canonical one); the
    others would stay the module's own tensor in functional_call, traced as a constant."""
    first, tied = {}, {}
    for prefix, mod in module.named_modules(remove_duplicate=False):
        for table in (mod._parameters, mod._buffers):
            for key, t in table.items():
                if t is None:
                    continue
                name = f"{prefix}.{key}" if prefix else key
                if id(t) not in first:
                    first[id(t)] = name
                elif first[id(t)] != name:
                    tied.setdefault(first[id(t)], [])
                    if name not in tied[first[id(t)]]:
                        tied[first[id(t)]].append(name)
    return tied


def trace_joint(module, inputs, grad_all_floats=False) -> Joint:
    args = module_args(module, inputs, grad_all_floats)
    n_state = sum(1 for a in args if a.kind != "input")
    state_names = [a.name for a in args[:n_state]]
    tied = tied_names(module)

    def flat_fn(*flat):
        state = dict(zip(state_names, flat[:n_state]))
        # a tied tensor is one primal: every name that holds it gets the same traced
        # value, so autograd sums the gradients of all its uses into that primal's
        for name, others in tied.items():
            for other in others:
                state[other] = state[name]
        out = stateless.functional_call(module, state, tuple(flat[n_state:]))
        return out

    captured = {}

    def capture(joint_gm, joint_inputs):
        captured["gm"] = copy_module(joint_gm)
        captured["inputs"] = joint_inputs
        return default_partition(joint_gm, joint_inputs)

    compiled = aot_function(flat_fn, fw_compiler=lambda gm, _: make_boxed_func(gm),
                            partition_fn=capture, decompositions=decompositions())
    # Tracing runs on detached copies so the module's own tensors keep their flags.
    values = [a.value.detach().clone().requires_grad_(a.requires_grad) for a in args]
    with tracing_context(), torch.random.fork_rng():
        out = compiled(*values)
    gm = captured["gm"]
    # torch's min-cut partitioner starts with DCE and CSE; do it here once so that the
    # graph remat imports is the graph torch partitions.
    gm.graph.eliminate_dead_code()
    specs = {a: getattr(gm, a) for a in ("_in_spec", "_out_spec") if hasattr(gm, a)}
    gm.graph = fx_graph_cse(gm.graph)
    gm.recompile()
    for attr, spec in specs.items():
        setattr(gm, attr, spec)
    num_outputs = len(out) if isinstance(out, (tuple, list)) else 1
    return Joint(gm, captured["inputs"], args, num_outputs)


# ---- source locations ------------------------------------------------------------------

_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ')


def _library_dirs():
    dirs = [os.path.dirname(torch.__file__), os.path.dirname(os.path.dirname(__file__))]
    import functorch
    dirs.append(os.path.dirname(functorch.__file__))
    dirs.append(sysconfig.get_paths()["stdlib"])
    return tuple(os.path.realpath(d) + os.sep for d in dirs)


_LIBS = None


def node_source(node, cache=None) -> Optional[tuple]:
    """(file, line) of the innermost user frame that produced `node` (the model's line),
    or None. Stack traces list the innermost frame first (fx formats forward frames from
    the user frame outwards, and reverses the anomaly-mode stacks of backward ops).
    cache: a dict kept across the nodes of one graph, which share traces (a backward op
    has its forward op's, every layer of a loop the same lines)."""
    text = node.meta.get("stack_trace") or getattr(node, "stack_trace", None) or ""
    if cache is None:
        return _source_of(text)
    if text not in cache:
        cache[text] = _source_of(text)
    return cache[text]


def _source_of(text):
    global _LIBS
    if _LIBS is None:
        _LIBS = _library_dirs()
    for path, line in _FRAME.findall(text):
        if path.startswith("<") or os.path.realpath(path).startswith(_LIBS):
            continue
        return os.path.normpath(path), int(line)
    return None
