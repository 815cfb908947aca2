"""rt.extern: an fx node that remat does not model, written as one opaque op
(docs/importer.md, "Opaque ops").

    %r:2 = "rt.extern"(%a, %b) {name = "aten.max_pool2d_with_indices.default",
        recompute = "once", args = "(%0, [2, 2], ...)"} : (...) -> (t0, t1) loc(...)

- operands: the node's tensor arguments (inside lists too), in argument order; a scalar
  the emitter made a constant (aten.scalar_tensor) is a 0-d rt.full;
- results: the node's tensor result, or for a tuple result one per element that an
  operator.getitem reads (in index order: `%r#k` is the k-th element read);
- `name`: the ATen overload; `args`: the node's arguments, the tensors written `%k`
  (operand k), for the reader; `flops` where a formula is known (convolution and its
  backward, the matrix-vector and batched products);
- `recompute` (what the min-cut may do with the op):
  - "forward": the op draws from torch's generator (tag nondeterministic_seeded) or
    writes an argument (a mutable schema). It runs in the forward and is never run
    again: a second run would draw other numbers, or write twice;
  - "pure": a cheap function of its operands that may run again in the backward: the
    ATen names in PURE (views, elementwise math and its backward formulas, copies that
    move data without arithmetic (flip, pad, repeat, cat), factories), in the spirit of
    torch's own recomputable ops (functorch/_src/partitioners.py);
  - "once" (every other op, as rt.matmul): computed once, in the forward or moved to
    the backward, never both. Reductions are "once", as rt's reductions are banned by
    default.
"""
import operator

import torch
import torch.fx as fx
from torch.fx.passes.shape_prop import TensorMetadata

from . import emit

aten = torch.ops.aten

# ATen overload packets (the name after "aten::") whose extern may be recomputed.
VIEWS = """
    alias as_strided chunk detach diagonal expand expand_as movedim narrow permute
    reshape select slice split split_with_sizes squeeze t transpose unbind unflatten
    unfold unsqueeze view view_as _reshape_alias _unsafe_view
""".split()
ELEMENTWISE = """
    abs acos acosh add addcdiv addcmul asin asinh atan atan2 atanh bitwise_and
    bitwise_not bitwise_or bitwise_xor ceil celu clamp clamp_max clamp_min clone copy
    copysign cos cosh deg2rad digamma div elu eq erf erfc erfinv exp exp2 expm1 fill
    float_power floor floor_divide fmax fmin fmod frac ge gelu gt hardshrink heaviside
    hypot i0 isfinite isinf isnan le leaky_relu lerp lgamma log log10 log1p log2
    logaddexp logaddexp2 logical_and logical_not logical_or logical_xor logit lt
    masked_fill maximum minimum mul mvlgamma nan_to_num ne neg nextafter polygamma pow
    rad2deg reciprocal relu remainder round rsqrt rsub selu sgn sigmoid sign signbit
    silu sin sinc sinh softplus softshrink sqrt square sub tan tanh threshold
    true_divide trunc where xlogy _to_copy
    elu_backward gelu_backward hardshrink_backward hardtanh_backward leaky_relu_backward
    logit_backward sigmoid_backward silu_backward softplus_backward softshrink_backward
    tanh_backward threshold_backward
""".split()
DATA_MOVEMENT = """
    cat constant_pad_nd flip reflection_pad1d reflection_pad2d reflection_pad3d repeat
    replication_pad1d replication_pad2d replication_pad3d roll stack tile tril triu
    reflection_pad1d_backward reflection_pad2d_backward reflection_pad3d_backward
    replication_pad1d_backward replication_pad2d_backward replication_pad3d_backward
""".split()
FACTORIES = """
    arange empty empty_like empty_strided eye full full_like linspace logspace new_empty
    new_empty_strided new_full new_ones new_zeros ones ones_like scalar_tensor zeros
    zeros_like
""".split()
PURE = frozenset(VIEWS + ELEMENTWISE + DATA_MOVEMENT + FACTORIES)


def why_forward(target):
    """Why the op runs once, in the forward ("forward" below), or None."""
    schema = getattr(target, "_schema", None)
    if schema is None:
        return None
    if torch.Tag.nondeterministic_seeded in getattr(target, "tags", ()):
        return "draws from torch's generator"
    return "writes an argument" if schema.is_mutable else None


def recompute(target):
    """"forward", "pure" or "once" for an fx call_function target (module docstring)."""
    if why_forward(target):
        return "forward"
    schema = getattr(target, "_schema", None)
    ns, _, name = schema.name.partition("::") if schema is not None else ("", "", "")
    return "pure" if ns == "aten" and name in PURE else "once"


def _prod(xs):
    n = 1
    for x in xs:
        n *= int(x)
    return n


def _conv_flops(x_shape, w_shape, out_shape, transposed):
    """2 * N * C_out * prod(out spatial) * (C_in / groups) * prod(kernel): each output
    element is a dot product over the weight's C_in/groups x kernel elements. The weight
    holds C_out x C_in/groups x kernel (C_in x C_out/groups x kernel when transposed,
    where the input's spatial size takes the output's place)."""
    spatial = x_shape[2:] if transposed else out_shape[2:]
    return 2 * x_shape[0] * _prod(spatial) * _prod(w_shape)


def flops(target, args, shape_of, out_shapes):
    """FLOPs of the op (multiply and add counted apart), or None where no formula is known.
    args: the node's arguments; shape_of(node): an operand's shape; out_shapes: the
    results'."""
    if target == aten.convolution.default:
        return _conv_flops(shape_of(args[0]), shape_of(args[1]), out_shapes[0], bool(args[6]))
    if target == aten.convolution_backward.default:
        # (grad_output, input, weight, ...): grad_input and grad_weight each cost a
        # convolution of the forward's size; grad_bias a sum over grad_output
        grad, x, w = (shape_of(a) for a in args[:3])
        mask = list(args[10])
        conv = _conv_flops(x, w, grad, bool(args[7]))
        return conv * (int(mask[0]) + int(mask[1])) + (_prod(grad) if mask[2] else 0)
    if target in (aten.dot.default, aten.vdot.default):
        return 2 * shape_of(args[0])[0]
    if target == aten.mv.default:
        return 2 * _prod(shape_of(args[0]))
    if target == aten.addmv.default:
        return 2 * _prod(shape_of(args[1])) + _prod(out_shapes[0])
    if target in (aten.baddbmm.default, aten.addbmm.default):
        b, m, k = shape_of(args[1])
        return 2 * b * m * shape_of(args[2])[2] * k + _prod(out_shapes[0])
    if target == aten.addmm.default:
        (m, k), n = shape_of(args[1]), shape_of(args[2])[1]
        return 2 * m * n * k + m * n
    return None


def _args_text(node, operand_of):
    """The node's arguments as Python writes them, each tensor as %k (its operand)."""
    def show(a):
        if isinstance(a, fx.Node):
            return f"%{operand_of[a]}"
        if isinstance(a, (list, tuple)):
            inner = ", ".join(show(x) for x in a)
            return f"[{inner}]" if isinstance(a, list) else f"({inner}{',' if len(a) == 1 else ''})"
        return repr(a)
    parts = [show(a) for a in node.args] + [f"{k}={show(v)}" for k, v in node.kwargs.items()]
    return ", ".join(parts)


def _mlir_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _result_metas(node):
    """[(index, TensorMetadata)]: the tensor results. A single tensor is index None; a
    tuple (no tensor_meta of its own in make_fx's graphs) gives the elements that an
    operator.getitem reads."""
    tm = node.meta.get("tensor_meta")
    if isinstance(tm, TensorMetadata):
        return [(None, tm)]
    if isinstance(tm, (list, tuple)) and tm and all(isinstance(t, TensorMetadata) for t in tm):
        return list(enumerate(tm))
    picks = {}
    for u in node.users:
        if u.op == "call_function" and u.target is operator.getitem and \
                isinstance(u.meta.get("tensor_meta"), TensorMetadata):
            picks.setdefault(u.args[1], u.meta["tensor_meta"])
        else:
            picks = {}
            break
    if not picks:
        raise emit.ImportError_(f"{emit._op_name(node.target)} returns no tensor that rt "
                                "can hold", node)
    return sorted(picks.items())


def _operand(w, v):
    """A tensor operand for the op: a scalar the emitter made (an arith.constant) as a 0-d
    rt.full of its value."""
    if isinstance(v, tuple) or v is None:
        raise emit.ImportError_("an operand is not a tensor", w.node)
    if not v.is_scalar:
        return v
    for (lit, elem), c in w.consts.items():
        if c is v:
            value = lit if elem == "i1" else f"{lit} : {elem}"
            return w.emit("rt.full", [], (), elem, f"value = {value}", base=v.name + ".t")
    raise emit.ImportError_("a scalar operand that is no constant", w.node)


def _written(w, node):
    """The tensor arguments the op may write and does not return: each is one more result
    of the rt.extern, the argument's value after the op, which the nodes after it read.
    Those its schema marks `Tensor(a!)`, and, for an op that runs once in the forward, a
    buffer it was handed fresh (an operand that is a constant in rt: torch 1.13's
    rrelu_with_noise fills its `noise` argument, an empty_like, without saying so in its
    schema, and its backward reads the noise)."""
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return []
    out = []
    if recompute(node.target) == "forward":
        out = [a for a in node.all_input_nodes if isinstance(w.env[a], emit.Val) and
               w.is_constant(w.env[a]) and isinstance(a.meta.get("tensor_meta"), TensorMetadata)]
    returned = {tuple(sorted(r.alias_info.before_set))
                for r in schema.returns if r.alias_info is not None}
    for k, a in enumerate(schema.arguments):
        info = a.alias_info
        if info is None or not info.is_write or tuple(sorted(info.before_set)) in returned:
            continue
        v = node.args[k] if k < len(node.args) else node.kwargs.get(a.name)
        if isinstance(v, fx.Node) and isinstance(v.meta.get("tensor_meta"), TensorMetadata) \
                and v not in out:
            out.append(v)
    return out


def write(w, node):
    """Writes `node` as one rt.extern; returns its value (a Val, or a tuple of Vals and
    None for a tuple result, indexed as the node's result). An argument the op writes
    and does not return gets a result too, which stands for that argument from here on
    (w.env)."""
    operands, operand_of = [], {}
    for a in node.all_input_nodes:
        operand_of[a] = len(operands)
        operands.append(_operand(w, w.env[a]))
    metas = _result_metas(node)
    written = _written(w, node)
    out = [(i, tuple(tm.shape), emit.elem_of(tm.dtype, node))
           for i, tm in metas + [(a, a.meta["tensor_meta"]) for a in written]]
    base = w.fresh(w.node_base())
    names = [base] if len(out) == 1 else [f"{base}#{k}" for k in range(len(out))]
    vals = [emit.Val(n, shape, elem) for n, (_, shape, elem) in zip(names, out)]
    attrs = [f"name = {_mlir_string(emit._op_name(node.target))}",
             f"recompute = {_mlir_string(recompute(node.target))}"]
    try:
        f = flops(node.target, node.args, lambda a: w.env[a].shape, [v.shape for v in vals])
    except (AttributeError, IndexError, TypeError, ValueError):
        f = None          # arguments other than the formula expects: no count
    if f is not None:
        attrs.append(f"flops = {f} : i64")
    text = _args_text(node, operand_of)
    if text:
        attrs.append(f"args = {_mlir_string(text)}")
    res = f"%{base}" + (f":{len(vals)}" if len(vals) > 1 else "")
    types = ", ".join(v.type for v in vals)
    w.ops.append(emit.Op(base, (
        f'{res} = "rt.extern"({", ".join("%" + v.name for v in operands)}) '
        f'{{{", ".join(attrs)}}} : ({", ".join(v.type for v in operands)}) -> '
        f'({types}) {w.op_loc(base)}'), [v.name for v in operands]))
    for a, v in zip(written, vals[len(metas):]):
        w.env[a] = v
    vals = vals[:len(metas)]
    if metas[0][0] is None:
        return vals[0]
    result = [None] * (metas[-1][0] + 1)
    for (i, _), v in zip(metas, vals):
        result[i] = v
    return tuple(result)


def constant(w, node, tensor):
    """A tensor constant (a get_attr node: torch.tensor([...]) in a model): rt.full when
    every element is the same (or there is none), else a zero-operand pure rt.extern named
    "constant" (args: the attribute, its dtype and shape) that the split may compute
    wherever it is used, as fx copies get_attr nodes into both modules."""
    if not isinstance(tensor, torch.Tensor):
        raise emit.ImportError_(f"get_attr '{node.target}' is not a tensor", node)
    shape, elem = tuple(tensor.shape), emit.elem_of(tensor.dtype, node)
    flat = tensor.detach().reshape(-1)
    if flat.numel() == 0 or bool((flat == flat[0]).all()):
        return emit._full(w, shape, elem, flat[0].item() if flat.numel() else 0)
    base = w.fresh(w.node_base())
    v = emit.Val(base, shape, elem)
    what = _mlir_string(f"{node.target}: {str(tensor.dtype).replace('torch.', '')}{list(shape)}")
    w.ops.append(emit.Op(base, f'%{base} = "rt.extern"() {{name = "constant", recompute = '
                         f'"pure", args = {what}}} : () -> {v.type} {w.op_loc(base)}', []))
    return v
