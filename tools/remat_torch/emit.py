"""Writing an ATen fx graph as an rt function (MLIR generic form).

The mapping table is `OPS` at the bottom (documented in docs/importer.md): each ATen op
becomes one or a few rt ops. Conventions:
- broadcasting is explicit: a tensor operand of another shape goes through rt.broadcast
  (numpy rules: dimensions aligned on the right, size-1 dimensions expanded);
- a Python number becomes an `arith.constant` scalar (f32 for f32/f16/bf16 arithmetic,
  f64 for f64, i64 for integers, i1 for booleans), so no tensor of constants is built;
- dtype promotion is explicit: operands of another element type go through rt.convert;
- views (view, reshape, _unsafe_view, squeeze, ...) are rt.reshape, copies that keep the
  value (clone, alias, contiguous) are no op at all;
- the k-th aten.rand_like of the graph is rt.uniform_philox(seed, offset + delta_k) where
  delta_k is the number of 4-word Philox blocks the earlier random ops used.
An op without a mapping (or whose mapping refuses its arguments) is one rt.extern
(extern.py), listed in Function.externs.
"""
import math
import struct

import numpy as np
import torch
import torch.fx as fx

from . import extern, indexing, trace

aten = torch.ops.aten
prims = torch.ops.prims

DTYPES = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16", torch.float64: "f64",
    torch.bool: "i1", torch.int8: "i8", torch.int32: "i32", torch.int64: "i64",
    torch.uint8: "ui8", torch.int16: "i16",
}
FLOATS = ("f32", "f16", "bf16", "f64")
ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i1": 1, "i8": 1, "i32": 4, "i64": 8,
              "ui8": 1, "i16": 2}
# Element types that rt.extern and function arguments take but rt's arithmetic does not:
# an op on them is written as rt.extern.
EXTERN_ONLY = ("ui8", "i16")


class ImportError_(Exception):
    """An op or value the importer cannot write; `node` locates it."""

    def __init__(self, message, node=None):
        super().__init__(message)
        self.node = node


class Val:
    """An SSA value: a tensor (shape tuple, elem) or a scalar (shape None)."""
    __slots__ = ("name", "shape", "elem")

    def __init__(self, name, shape, elem):
        self.name, self.shape, self.elem = name, shape, elem

    @property
    def is_scalar(self):
        return self.shape is None

    @property
    def type(self):
        if self.shape is None:
            return self.elem
        return tensor_type(self.shape, self.elem)


def tensor_type(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def elem_of(dtype, node=None):
    if dtype not in DTYPES:
        raise ImportError_(f"element type {dtype} has no rt equivalent", node)
    return DTYPES[dtype]


def scalar_elem(compute):
    """The scalar type a Python number takes in arithmetic of element type `compute`."""
    if compute in ("f32", "f16", "bf16"):
        return "f32"
    if compute == "f64":
        return "f64"
    if compute == "i1":
        return "i1"
    return "i64"


def float_literal(value, elem):
    """An MLIR float literal that parses to exactly the value torch uses: the Python
    float rounded once to the scalar type (hex bits for inf/nan)."""
    if elem == "f32":
        v = np.float32(value)
        if not np.isfinite(v):
            return "0x%08X" % struct.unpack("<I", struct.pack("<f", v))[0]
        return _decimal(repr(float(v)))
    if not math.isfinite(value):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    return _decimal(repr(float(value)))


def _decimal(text):
    """MLIR's float literal needs a '.' before the exponent: Python writes 1e-07."""
    mantissa, e, exponent = text.partition("e")
    return mantissa + ("" if "." in mantissa or not e else ".0") + e + exponent


def promote(elems):
    """torch's promotion over tensor element types (category, then width)."""
    order = ["i1", "ui8", "i8", "i16", "i32", "i64", "bf16", "f16", "f32", "f64"]
    rev = {v: k for k, v in DTYPES.items()}
    out = rev[elems[0]]
    for e in elems[1:]:
        out = torch.promote_types(out, rev[e])
    assert DTYPES[out] in order
    return DTYPES[out]


class Op:
    __slots__ = ("result", "text", "operands", "keep")

    def __init__(self, result, text, operands, keep=False):
        self.result, self.text, self.operands, self.keep = result, text, operands, keep


class Writer:
    """Writes one fx graph as one func.func. Ops are collected, then the ones whose
    results nothing uses are dropped (decompositions leave a few: empty_like before
    fill), so the function has no dead code."""

    def __init__(self, graph: fx.Graph, seed=None, offset=None, names=False,
                 torch_random=False):
        self.graph = graph
        # torch_random: ops that draw from torch's generator (rand_like too) are rt.extern
        # "forward" (partition_fn: torch runs the graph, with torch's numbers); else
        # rand_like is rt.uniform_philox (the importer's dropout, docs/importer.md)
        self.torch_random = torch_random
        self.externs = []           # [(node, reason)]: the nodes written as rt.extern
        self.names_in_locs = names  # each op's loc is loc("<its SSA name>"(<source>))
        self.ops = []
        self.names = set()
        self.consts = {}
        self.env = {}
        self.loc = "loc(unknown)"
        self.node = None
        self.seed, self.offset = seed, offset
        self.random_blocks = 0      # Philox blocks used by the random ops so far
        self.memo = {}              # (op, value, type) -> Val: one convert/broadcast each
        self.sources = {}           # stack trace -> node_source, for set_node

    # ---- values and ops ------------------------------------------------------------
    def fresh(self, base):
        base = "".join(c if c.isalnum() or c in "_." else "_" for c in base) or "v"
        if base[0].isdigit():
            base = "v" + base
        name, k = base, 1
        while name in self.names:
            name = f"{base}.{k}"
            k += 1
        self.names.add(name)
        return name

    def emit(self, opname, operands, shape, elem, attrs="", base=None):
        res = Val(self.fresh(base or self.node_base()), shape, elem)
        ops = ", ".join("%" + v.name for v in operands)
        types = ", ".join(v.type for v in operands)
        attr = f" {{{attrs}}}" if attrs else ""
        text = (f'%{res.name} = "{opname}"({ops}){attr} : ({types}) -> {res.type} '
                f'{self.op_loc(res.name)}')
        self.ops.append(Op(res.name, text, [v.name for v in operands]))
        return res

    def op_loc(self, name):
        """The location of an op defining %name: the node's source line, wrapped in a
        name location carrying `name` when names_in_locs (so the SSA name survives the
        parse and rematSplitSavedValues can report it)."""
        if not self.names_in_locs:
            return self.loc
        return f'loc("{name}"({self.loc[4:-1]}))'

    def node_base(self):
        return self.node.name if self.node is not None else "v"

    def const(self, value, elem):
        """A scalar arith.constant (one per value and type, defined at first use)."""
        if elem in ("f32", "f64"):
            lit = float_literal(float(value), elem)
        elif elem == "i1":
            lit = "true" if value else "false"
        else:
            lit = str(int(value))
        key = (lit, elem)
        if key not in self.consts:
            name = self.fresh("c" if elem == "i1" else "cst")
            v = Val(name, None, elem)
            loc = self.op_loc(name)
            text = (f"%{name} = arith.constant {lit} : {elem} {loc}" if elem != "i1"
                    else f"%{name} = arith.constant {lit} {loc}")
            self.ops.append(Op(name, text, []))
            self.consts[key] = v
        return self.consts[key]

    def number(self, x, compute):
        """A Python number or a Val as an operand of arithmetic in `compute`."""
        if isinstance(x, Val):
            return x
        if isinstance(x, bool):
            return self.const(x, "i1" if compute == "i1" else scalar_elem(compute))
        return self.const(x, scalar_elem(compute))

    # ---- shapes and types -----------------------------------------------------------
    def convert(self, v, elem):
        if v.elem == elem:
            return v
        if v.is_scalar:
            raise ImportError_(f"a {v.elem} scalar would need a conversion to {elem}", self.node)
        key = ("cvt", v.name, elem)
        if key not in self.memo:
            self.memo[key] = self.emit("rt.convert", [v], v.shape, elem, base=v.name + ".cvt")
        return self.memo[key]

    def tensor(self, v):
        """A scalar (a 0-d constant of torch) as a 0-d tensor when an op needs a tensor."""
        if not v.is_scalar:
            return v
        raise ImportError_("a scalar is used where rt needs a tensor", self.node)

    def broadcast(self, v, shape):
        if v.is_scalar or tuple(v.shape) == tuple(shape):
            return v
        r, R = len(v.shape), len(shape)
        if r > R:
            raise ImportError_(f"cannot broadcast {v.type} to {list(shape)}", self.node)
        for k, d in enumerate(v.shape):
            if d != 1 and d != shape[R - r + k]:
                raise ImportError_(f"cannot broadcast {v.type} to {list(shape)}", self.node)
        key = ("bc", v.name, tuple(shape))
        if key not in self.memo:
            dims = ", ".join(str(R - r + k) for k in range(r))
            self.memo[key] = self.emit("rt.broadcast", [v], tuple(shape), v.elem,
                                       f"dims = array<i64{': ' + dims if dims else ''}>",
                                       base=v.name + ".bc")
        return self.memo[key]

    def reshape(self, v, shape):
        v = self.tensor(v)
        if tuple(v.shape) == tuple(shape):
            return v
        return self.emit("rt.reshape", [v], tuple(shape), v.elem)

    def elementwise(self, opname, operands, out_shape, compute, result_elem=None):
        """operands: Vals and Python numbers. Tensors are converted to `compute` and
        broadcast to out_shape; numbers become scalars of compute's scalar type."""
        vals = []
        for x in operands:
            if isinstance(x, Val):
                if x.is_scalar:
                    x = self.scalar_as(x, compute)
                else:
                    x = self.broadcast(self.convert(x, compute), out_shape)
            else:
                x = self.number(x, compute)
            vals.append(x)
        if all(v.is_scalar for v in vals):
            raise ImportError_(f"{opname} of scalars only", self.node)
        return self.emit(opname, vals, tuple(out_shape), result_elem or compute)

    def scalar_as(self, v, compute):
        want = scalar_elem(compute)
        if v.elem == want:
            return v
        raise ImportError_(f"a {v.elem} scalar in {compute} arithmetic", self.node)

    # ---- the graph --------------------------------------------------------------------
    def set_node(self, node):
        self.node = node
        src = trace.node_source(node, self.sources)
        if src is None:
            self.loc = f'loc("{node.name}")'
        else:
            path, line = src
            self.loc = f'loc("{path}":{line}:{_column(path, line)})'

    def run_node(self, node):
        """Writes one call_function node: its mapping (OPS), else (no mapping, a mapping
        that refuses these arguments, an element type only rt.extern takes, a draw from
        torch's generator under torch_random) one rt.extern."""
        self.set_node(node)
        handler = OPS.get(node.target)
        reason = self.extern_reason(node, handler)
        if reason is None:
            n_ops = len(self.ops)
            args = fx.node.map_arg(node.args, lambda n: self.env[n])
            kwargs = fx.node.map_arg(node.kwargs, lambda n: self.env[n])
            try:
                self.env[node] = handler(self, node, *args, **kwargs)
                return
            except ImportError_ as e:
                self.rollback(n_ops)
                reason = f"{_op_name(node.target)}: {e}"
        self.env[node] = extern.write(self, node)
        self.externs.append((node, reason))

    def extern_reason(self, node, handler):
        """Why `node` is written as rt.extern without trying its mapping, or None."""
        what = _op_name(node.target)
        if node.target is operator.getitem:
            return None               # an element of a tuple: whatever the op was
        if self.torch_random and extern.recompute(node.target) == "forward":
            return f"{what} {extern.why_forward(node.target)}"
        if handler is None:
            return f"{what} has no rt mapping"
        for n in [node] + node.all_input_nodes:
            elem = DTYPES.get(getattr(n.meta.get("tensor_meta"), "dtype", None))
            if elem in EXTERN_ONLY:
                return f"{what} on {elem}, an element type rt's arithmetic does not take"
        return None

    def is_constant(self, v):
        """Whether the op that defines Val v reads nothing (rt.full, rt.iota, a constant)."""
        return not v.is_scalar and any(op.result == v.name and not op.operands
                                       for op in reversed(self.ops))

    def rollback(self, n_ops):
        """Drops the ops written since there were n_ops (a mapping that gave up midway),
        and the memoized values they defined."""
        gone = {op.result for op in self.ops[n_ops:]}
        del self.ops[n_ops:]
        if gone:
            self.memo = {k: v for k, v in self.memo.items() if v.name not in gone}
            self.consts = {k: v for k, v in self.consts.items() if v.name not in gone}

    def live_ops(self, roots):
        """The ops that the returned values need (the rest is dead code)."""
        by_result = {op.result: op for op in self.ops}
        live, stack = set(), list(roots)
        while stack:
            name = stack.pop().partition("#")[0]   # %r#1: a result of the op %r:N
            if name in live or name not in by_result:
                continue
            live.add(name)
            stack.extend(by_result[name].operands)
        return [op for op in self.ops if op.result in live]


def _column(path, line):
    import linecache
    text = linecache.getline(path, line)
    return len(text) - len(text.lstrip()) + 1 if text.strip() else 1


def _op_name(target):
    return str(target) if not callable(target) or hasattr(target, "_schema") else \
        getattr(target, "__name__", str(target))


# ---- helpers for handlers -----------------------------------------------------------

def meta(node):
    tm = node.meta.get("tensor_meta")
    if tm is None:
        raise ImportError_("the op has no tensor metadata", node)
    return tuple(tm.shape), elem_of(tm.dtype, node)


def out_shape(node):
    return meta(node)[0]


def out_elem(node):
    return meta(node)[1]


def norm_dims(dims, rank):
    if isinstance(dims, int):
        dims = [dims]
    return sorted({d % rank if rank else 0 for d in dims})


def binary(opname):
    def h(w, node, a, b, alpha=1):
        shape, elem = meta(node)
        if alpha != 1:
            b = w.elementwise("rt.mul", [b, alpha], shape, elem) if isinstance(b, Val) else b * alpha
        return w.elementwise(opname, [a, b], shape, elem)
    return h


def rsub(w, node, a, b, alpha=1):
    shape, elem = meta(node)
    if alpha != 1:
        a = w.elementwise("rt.mul", [a, alpha], shape, elem)
    return w.elementwise("rt.sub", [b, a], shape, elem)


def unary(opname):
    def h(w, node, x):
        shape, elem = meta(node)
        return w.elementwise(opname, [x], shape, elem)
    return h


def compare(opname):
    def h(w, node, a, b):
        shape, _ = meta(node)
        elems = [x.elem for x in (a, b) if isinstance(x, Val) and not x.is_scalar]
        compute = promote(elems)
        if any(isinstance(x, float) for x in (a, b)) and compute not in FLOATS:
            compute = "f32"
        return w.elementwise(opname, [a, b], shape, compute, result_elem="i1")
    return h


def reciprocal(w, node, x):
    shape, elem = meta(node)
    return w.elementwise("rt.div", [1.0, x], shape, elem)


def sigmoid(w, node, x):
    # 1 / (1 + exp(-x)), as torch's CPU kernel computes it
    shape, elem = meta(node)
    n = w.elementwise("rt.neg", [x], shape, elem)
    e = w.elementwise("rt.exp", [n], shape, elem)
    d = w.elementwise("rt.add", [e, 1.0], shape, elem)
    return w.elementwise("rt.div", [1.0, d], shape, elem)


def softplus(w, node, x, beta=1, threshold=20):
    # torch: where(x * beta > threshold, x, log1p(exp(x * beta)) / beta), its
    # decomposition's ops; with PyTorch's defaults, the one op rt.softplus (whose threshold
    # is RT_SOFTPLUS_THRESHOLD), computed in f32 for f16/bf16 as torch's kernel does
    shape, elem = meta(node)
    if beta == 1 and threshold == 20:
        return w.elementwise("rt.softplus", [x], shape, elem)
    scaled = w.elementwise("rt.mul", [x, beta], shape, elem)
    e = w.elementwise("rt.exp", [scaled], shape, elem)
    rhs = w.elementwise("rt.div", [w.elementwise("rt.log1p", [e], shape, elem), beta], shape, elem)
    return where(w, node, compare("rt.gt")(w, node, scaled, threshold), x, rhs)


def relu(w, node, x):
    shape, elem = meta(node)
    return w.elementwise("rt.max", [x, 0.0 if elem in FLOATS else 0], shape, elem)


def pow_scalar(w, node, x, exponent):
    shape, elem = meta(node)
    if exponent == 2:           # torch computes x*x for a square
        return w.elementwise("rt.mul", [x, x], shape, elem)
    if exponent == 1:
        return w.convert(w.tensor(x), elem)
    return w.elementwise("rt.pow", [x, exponent], shape, elem)


def pow_tensor(w, node, x, y):
    shape, elem = meta(node)
    return w.elementwise("rt.pow", [x, y], shape, elem)


def where(w, node, cond, a, b):
    shape, elem = meta(node)
    c = w.broadcast(cond, shape) if isinstance(cond, Val) and not cond.is_scalar else cond
    ops = [c]
    for x in (a, b):
        if isinstance(x, Val) and not x.is_scalar:
            x = w.broadcast(w.convert(x, elem), shape)
        elif isinstance(x, Val):
            x = w.scalar_as(x, elem)
        else:
            x = w.number(x, elem)
        ops.append(x)
    return w.emit("rt.select", ops, shape, elem)


def logical_not(w, node, x):
    shape, elem = meta(node)
    if x.elem != "i1":
        raise ImportError_("bitwise_not of a non-boolean tensor has no rt mapping", node)
    return w.elementwise("rt.eq", [x, False], shape, "i1", result_elem="i1")


def convert_element_type(w, node, x, dtype):
    return w.convert(x, elem_of(dtype, node))


def to_copy(w, node, x, dtype=None, **_):
    return w.convert(x, elem_of(dtype, node)) if dtype is not None else x


def identity(w, node, x, *_, **__):
    return x


def view(w, node, x, *_, **__):
    return w.reshape(x, out_shape(node))


def transpose(w, node, x, d0, d1):
    r = len(x.shape)
    if r == 0:
        return x                      # t() of a 0-d tensor: transpose(x, 0, 0)
    perm = list(range(r))
    perm[d0 % r], perm[d1 % r] = perm[d1 % r], perm[d0 % r]
    return _transpose(w, x, perm)


def permute(w, node, x, dims):
    return _transpose(w, x, [d % len(x.shape) for d in dims])


def _transpose(w, x, perm):
    if perm == sorted(perm):
        return x
    shape = tuple(x.shape[p] for p in perm)
    return w.emit("rt.transpose", [x], shape, x.elem,
                  "perm = array<i64: " + ", ".join(map(str, perm)) + ">")


def expand(w, node, x, *_, **__):
    return w.broadcast(w.tensor(x), out_shape(node))


def _slice(w, x, dim, start, end, step=1, base=None):
    shape = list(x.shape)
    size = shape[dim]
    start = 0 if start is None else start
    end = size if end is None else end
    if start < 0:
        start += size
    if end < 0:
        end += size
    start, end = max(0, min(start, size)), max(0, min(end, size))
    end = max(start, end)
    if start == 0 and end == size and step == 1:
        return x
    starts = [0] * len(shape)
    limits = list(shape)
    strides = [1] * len(shape)
    starts[dim], limits[dim], strides[dim] = start, end, step
    shape[dim] = (end - start + step - 1) // step
    fmt = lambda xs: "array<i64: " + ", ".join(map(str, xs)) + ">"
    return w.emit("rt.slice", [x], tuple(shape), x.elem,
                  f"start = {fmt(starts)}, limit = {fmt(limits)}, stride = {fmt(strides)}",
                  base=base)


def slice_(w, node, x, dim=0, start=None, end=None, step=1):
    return _slice(w, x, dim % len(x.shape), start, end, step)


def select(w, node, x, dim, index):
    dim %= len(x.shape)
    index %= x.shape[dim]
    s = _slice(w, x, dim, index, index + 1)
    return w.reshape(s, out_shape(node))


def split(w, node, x, size, dim=0):
    dim %= len(x.shape)
    n = x.shape[dim]
    sizes = [min(size, n - i) for i in range(0, n, size)]
    return _split(w, node, x, sizes, dim)


def split_with_sizes(w, node, x, sizes, dim=0):
    return _split(w, node, x, list(sizes), dim % len(x.shape))


def _split(w, node, x, sizes, dim):
    outs, at = [], 0
    for k, s in enumerate(sizes):
        outs.append(_slice(w, x, dim, at, at + s, base=f"{node.name}.{k}"))
        at += s
    return tuple(outs)


def _pad(w, node, g, dim, before, after, shape, elem, value=0):
    """g placed between `before` and `after` elements of `value` (zeros: the gradient of a
    slice) along dim."""
    parts = []
    for n in (before, None, after):
        if n is None:
            parts.append(g)
        elif n > 0:
            zshape = list(g.shape)
            zshape[dim] = n
            parts.append(_full(w, tuple(zshape), elem, value))
    return _concat(w, parts, dim, elem)


def select_backward(w, node, grad, input_sizes, dim, index):
    shape, elem = meta(node)
    dim %= len(shape)
    index %= shape[dim]
    kshape = list(shape)
    kshape[dim] = 1
    g = w.reshape(w.convert(grad, elem), tuple(kshape))
    return _pad(w, node, g, dim, index, shape[dim] - index - 1, shape, elem)


def slice_backward(w, node, grad, input_sizes, dim, start, end, step):
    """The gradient of x[start:end:step] along dim: between zeros (step 1), else added
    into zeros at start + i * step (rt.iota; each target written once)."""
    shape, elem = meta(node)
    dim %= len(shape)
    size = shape[dim]
    start = max(0, min(start + size if start < 0 else start, size))
    n = grad.shape[dim]
    g = w.convert(grad, elem)
    if step == 1 or n <= 1:
        return _pad(w, node, g, dim, start, size - start - n, shape, elem)
    idx = w.emit("rt.iota", [], grad.shape, "i64", f"dim = {dim} : i64")
    idx = w.elementwise("rt.mul", [idx, step], grad.shape, "i64")
    if start:
        idx = w.elementwise("rt.add", [idx, start], grad.shape, "i64")
    return w.emit("rt.scatter_add", [_full(w, shape, elem, 0), idx, g], shape, elem,
                  f"dim = {dim} : i64")


def getitem(w, node, tup, i):
    return tup[i]


def cat(w, node, tensors, dim=0):
    shape, elem = meta(node)
    dim %= len(shape)
    parts = [w.convert(t, elem) for t in tensors if numel(t.shape) > 0]
    if not parts:   # every operand empty: concatenated all the same (the value reads them)
        parts = [w.convert(t, elem) for t in tensors if len(t.shape) == len(shape)]
    return _concat(w, parts, dim, elem)


def _concat(w, ts, dim, elem):
    if len(ts) == 1:
        return ts[0]
    shape = list(ts[0].shape)
    shape[dim] = sum(t.shape[dim] for t in ts)
    # IRDL binds one type for the variadic tail: concat(first, rest...) needs the rest
    # to share a type; otherwise nest two at a time.
    if all(t.type == ts[1].type for t in ts[1:]):
        return w.emit("rt.concat", ts, tuple(shape), elem, f"dim = {dim} : i64")
    acc = ts[0]
    for t in ts[1:]:
        s = list(acc.shape)
        s[dim] += t.shape[dim]
        acc = w.emit("rt.concat", [acc, t], tuple(s), elem, f"dim = {dim} : i64")
    return acc



# ---- data movement written with rt's ops (each exact: elements moved, none computed) ----

def flip(w, node, x, dims):
    """x reversed along each of dims: rt.gather along it with the index n - 1 - i."""
    shape, elem = meta(node)
    for d in sorted({d % max(len(shape), 1) for d in dims}):
        if not shape or shape[d] <= 1:
            continue
        idx = w.emit("rt.iota", [], shape, "i64", f"dim = {d} : i64")
        idx = w.elementwise("rt.sub", [shape[d] - 1, idx], shape, "i64")
        x = w.emit("rt.gather", [x, idx], shape, elem, f"dim = {d} : i64")
    return x


def roll(w, node, x, shifts, dims=()):
    """x rolled by each shift along its dim: the last `shift` elements, then the rest
    (rt.slice, rt.concat); without dims, over the flattened tensor."""
    shape, elem = meta(node)
    if not dims:
        flat = roll(w, node, w.reshape(x, (numel(shape),)), shifts, (0,))
        return w.reshape(flat, shape)
    for shift, d in zip(shifts, dims):
        d %= len(x.shape)
        n = x.shape[d]
        k = shift % n if n else 0
        if k:
            x = _concat(w, [_slice(w, x, d, n - k, n), _slice(w, x, d, 0, n - k)], d, elem)
    return x


def repeat(w, node, x, repeats):
    """x tiled `repeats` times: x's shape (padded with leading 1s to len(repeats)) with a
    1 before each dim, broadcast to the repeats there, reshaped to the result."""
    shape, elem = meta(node)
    xs = [1] * (len(repeats) - len(x.shape)) + list(x.shape)
    if not repeats or all(r == 1 for r in repeats) or numel(shape) == 0:
        return w.reshape(x, shape) if numel(shape) else _full(w, shape, elem, 0)
    split = tuple(v for d in xs for v in (1, d))
    wide = tuple(v for r, d in zip(repeats, xs) for v in (r, d))
    return w.reshape(w.broadcast(w.reshape(x, split), wide), shape)


def _band_keep(w, m, n, diagonal, upper):
    """i1 [m, n]: column - row >= diagonal (upper) or <= diagonal, from rt.iota."""
    rows = w.emit("rt.iota", [], (m, n), "i64", "dim = 0 : i64")
    cols = w.emit("rt.iota", [], (m, n), "i64", "dim = 1 : i64")
    diff = w.elementwise("rt.sub", [cols, rows], (m, n), "i64")
    return w.elementwise("rt.ge" if upper else "rt.le", [diff, diagonal], (m, n), "i64",
                         result_elem="i1")


def _band(upper):
    def h(w, node, x, diagonal=0):
        """triu / tril: x where column - row >= diagonal (triu) or <= diagonal (tril) in
        the last two dims, else 0 (rt.iota, rt.select: the other elements are written,
        not multiplied, as torch does)."""
        shape, elem = meta(node)
        keep = _band_keep(w, shape[-2], shape[-1], diagonal, upper)
        return w.emit("rt.select", [w.broadcast(keep, shape), w.convert(x, elem),
                                    _full(w, shape, elem, 0)], shape, elem)
    return h


def causal_diagonal(t):
    """d when t is a boolean matrix equal to tril(ones, d) (a causal mask), else None."""
    if t.dtype != torch.bool or t.dim() != 2 or t.numel() == 0:
        return None
    m, n = t.shape
    counts = t.sum(dim=1)
    first = int(torch.nonzero(counts).min()) if bool(counts.any()) else m - 1
    d = int(counts[first]) - first - 1  # row `first` keeps columns 0 .. first + d
    cols = torch.arange(n).unsqueeze(0) - torch.arange(m).unsqueeze(1)
    return d if torch.equal(t, cols <= d) else None


def constant_pad_nd(w, node, x, pad, value=0):
    """x padded with `value` (pad: before and after pairs from the last dim back; a
    negative pair entry slices instead): rt.slice, rt.full, rt.concat."""
    shape, elem = meta(node)
    x = w.convert(x, elem)
    for k in range(len(pad) // 2):
        d = len(x.shape) - 1 - k
        before, after = pad[2 * k], pad[2 * k + 1]
        x = _slice(w, x, d, max(0, -before), x.shape[d] - max(0, -after))
        x = _pad(w, node, x, d, before, after, shape, elem, value)
    return x


def baddbmm(w, node, c, a, b, beta=1, alpha=1):
    """beta * c + alpha * (a @ b), batched; with beta = 0, c's values are not read (torch
    ignores its NaNs): select(false, c, product), which keeps fx's dependency on c."""
    shape, elem = meta(node)
    prod = w.emit("rt.matmul", [w.convert(a, elem), w.convert(b, elem)], shape, elem)
    if alpha != 1:
        prod = w.elementwise("rt.mul", [prod, alpha], shape, elem)
    if beta == 0:
        return _reading(w, w.broadcast(w.convert(c, elem), shape), prod)
    if beta != 1:
        c = w.elementwise("rt.mul", [c, beta], shape, elem)
    return w.elementwise("rt.add", [c, prod], shape, elem)


CONV_ELEMS = ("f32", "f64", "f16", "bf16")


def _conv_attrs(node, n, stride, padding, dilation, transposed, groups, elem):
    """rt.conv's attributes, or ImportError_ where rt.conv is not the op (docs/design.md,
    "Convolution")."""
    if transposed:
        raise ImportError_("a transposed convolution has no rt mapping", node)
    if not 1 <= n <= 3:
        raise ImportError_(f"a convolution of {n} spatial dims has no rt mapping", node)
    if elem not in CONV_ELEMS:
        raise ImportError_(f"rt.conv takes f32, f64, f16 or bf16, not {elem}", node)
    arr = lambda v: "array<i64: " + ", ".join(
        str(int(x)) for x in (list(v) * n if len(v) == 1 else v)) + ">"
    return (f"stride = {arr(stride)}, padding = {arr(padding)}, "
            f"dilation = {arr(dilation)}, groups = {int(groups)} : i64")


def convolution(w, node, x, weight, bias, stride, padding, dilation, transposed,
                output_padding, groups):
    """rt.conv, then the bias (if any) broadcast over batch and space and added: an
    elementwise op of its own, which fuses into the convolution's consumers."""
    shape, elem = meta(node)
    attrs = _conv_attrs(node, len(shape) - 2, stride, padding, dilation, transposed,
                        groups, elem)
    if len(x.shape) != len(shape):
        raise ImportError_("an unbatched convolution has no rt mapping", node)
    y = w.emit("rt.conv", [w.convert(x, elem), w.convert(weight, elem)], shape, elem, attrs)
    if bias is None:
        return y
    b = w.reshape(w.convert(bias, elem), (shape[1],) + (1,) * (len(shape) - 2))
    return w.elementwise("rt.add", [y, w.broadcast(b, shape)], shape, elem)


def convolution_backward(w, node, grad, x, weight, bias_sizes, stride, padding, dilation,
                         transposed, output_padding, groups, mask):
    """(grad_input, grad_weight, grad_bias) as output_mask asks: rt.conv_grad_input,
    rt.conv_grad_weight and a sum of grad over batch and space. torch's op reads x and
    weight whatever the mask; a gradient that does not read one of them is written
    select(false, it, gradient), so that the split keeps what fx's module reads."""
    elem = grad.elem
    attrs = _conv_attrs(node, len(grad.shape) - 2, stride, padding, dilation, transposed,
                        groups, elem)
    if not (mask[0] or mask[1]):
        raise ImportError_("a convolution_backward of grad_bias alone has no rt mapping", node)
    g, xe, we = (w.convert(v, elem) for v in (grad, x, weight))
    gi = gw = gb = None
    if mask[0]:
        gi = w.emit("rt.conv_grad_input", [g, we], tuple(x.shape), elem, attrs)
        if not mask[1]:
            gi = _reading(w, xe, gi)
    if mask[1]:
        gw = w.emit("rt.conv_grad_weight", [xe, g], tuple(weight.shape), elem, attrs)
        if not mask[0]:
            gw = _reading(w, we, gw)
    if mask[2]:
        gb = _reduce(w, "rt.sum", g, [0] + list(range(2, len(grad.shape))), False,
                     (grad.shape[1],))
    return (gi, gw, gb)


def _and(w, a, b):
    """a && b of i1 values (rt.select(a, b, false)); None stands for true everywhere."""
    if a is None or b is None:
        return b if a is None else a
    return w.emit("rt.select", [a, b, w.const(False, "i1")], a.shape, "i1")


def _reading(w, x, value):
    """value, with x as an operand (rt.select(false, x, value)): the ATen op reads x only
    for its shape, and the split must keep x for it as fx's module will read it."""
    return w.emit("rt.select", [w.const(False, "i1"), x, value], value.shape, value.elem)


def _affine(w, v, mul, add, grid):
    """v * mul + add over the i64 grid (positions and window bounds from rt.iota)."""
    return w.elementwise("rt.add", [w.elementwise("rt.mul", [v, mul], grid, "i64"), add],
                         grid, "i64")


def _pool_args(kernel, stride, padding, dilation):
    pair = lambda v: [int(v)] * 2 if isinstance(v, int) else [int(x) for x in v] * (3 - len(v))
    return pair(kernel), pair(stride or kernel), pair(padding), pair(dilation)


def _pool_out(size, k, s, p, d, ceil_mode):
    """A pooled dimension's size, as torch's pooling_output_shape computes it."""
    o = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    return o - 1 if ceil_mode and (o - 1) * s >= size + p else o


def _planes(w, x, node):
    """x as [N, C, H, W] (a [C, H, W] input with N = 1)."""
    if len(x.shape) == 4:
        return x
    if len(x.shape) == 3:
        return w.reshape(x, (1,) + tuple(x.shape))
    raise ImportError_(f"pooling of a rank-{len(x.shape)} tensor has no rt mapping", node)


def max_pool2d_with_indices(w, node, x, kernel, stride=(), padding=0, dilation=1,
                            ceil_mode=False):
    """(values, indices) of 2-d max pooling, as torch's CPU kernel computes them: per
    output, the window's valid positions in row-major order, the first value greater than
    the maximum so far, or NaN, taking its place; the index (h * W + w) of the first valid
    position otherwise. Written per window position: a strided rt.slice of the input
    padded with -inf (rt.concat), and rt.select of value and index; the positions are
    rt.iota arithmetic. Exact: no arithmetic on the values."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = _pool_args(kernel, stride, padding, dilation)
    xp = _planes(w, x, node)
    n, c, h, wd = xp.shape
    oh, ow = (_pool_out(*a, ceil_mode) for a in ((h, kh, sh, ph, dh), (wd, kw, sw, pw, dw)))
    elem = xp.elem
    # pad with -inf: ph, pw before, and after as far as the last window reaches
    pad = []
    for size, p, k, st, d, o in ((wd, pw, kw, sw, dw, ow), (h, ph, kh, sh, dh, oh)):
        pad += [p, max(0, (o - 1) * st + (k - 1) * d + 1 - size - p)]
    xpad = xp
    for k, dim in ((0, 3), (1, 2)):
        xpad = _pad(w, node, xpad, dim, pad[2 * k], pad[2 * k + 1], None, elem, float("-inf"))
    oshape, grid = (n, c, oh, ow), (oh, ow)
    rows = w.emit("rt.iota", [], grid, "i64", "dim = 0 : i64")
    cols = w.emit("rt.iota", [], grid, "i64", "dim = 1 : i64")
    t = w.const(True, "i1")
    w.const(False, "i1")   # _and's false, defined with true ahead of the window loop
    cur = idx = None
    seen = False           # per output, a valid position was visited (Python bool: for all)
    for i in range(kh):
        for j in range(kw):
            v = _slice(w, xpad, 2, i * dh, i * dh + (oh - 1) * sh + 1, sh)
            v = _slice(w, v, 3, j * dw, j * dw + (ow - 1) * sw + 1, sw)
            ih = _affine(w, rows, sh, i * dh - ph, grid)
            iw = _affine(w, cols, sw, j * dw - pw, grid)
            pos = _affine(w, ih, wd, iw, grid)
            # valid (None: for every output; no window of this position leaves the input)
            valid = None
            for a, size, lo, hi in ((ih, h, i * dh - ph, (oh - 1) * sh + i * dh - ph),
                                    (iw, wd, j * dw - pw, (ow - 1) * sw + j * dw - pw)):
                if lo < 0 or hi >= size:
                    valid = _and(w, valid, _and(
                        w, w.elementwise("rt.ge", [a, 0], grid, "i64", result_elem="i1"),
                        w.elementwise("rt.lt", [a, size], grid, "i64", result_elem="i1")))
            pos = w.broadcast(pos, oshape)
            if seen is False and valid is None:    # the first position, valid everywhere
                cur, idx, seen = v, pos, True
                continue
            if cur is None:
                cur = _full(w, oshape, elem, float("-inf"))
                idx = _full(w, oshape, "i64", 0)
            upd = w.emit("rt.select", [
                w.elementwise("rt.gt", [v, cur], oshape, elem, result_elem="i1"), t,
                w.elementwise("rt.ne", [v, v], oshape, elem, result_elem="i1")], oshape, "i1")
            vb = None if valid is None else w.broadcast(valid, oshape)
            upd = _and(w, vb, upd)
            if seen is not True:                   # or the first valid position
                first = vb if seen is False else w.elementwise(
                    "rt.eq", [w.broadcast(seen, oshape), False], oshape, "i1",
                    result_elem="i1")
                if seen is not False and vb is not None:
                    first = _and(w, first, vb)
                upd = w.emit("rt.select", [first, t, upd], oshape, "i1")
                seen = True if valid is None else valid if seen is False else w.emit(
                    "rt.select", [seen, t, valid], grid, "i1")
            cur = w.emit("rt.select", [upd, v, cur], oshape, elem)
            idx = w.emit("rt.select", [upd, pos, idx], oshape, "i64")
    out = tuple(x.shape[:-2]) + (oh, ow)
    return (w.reshape(cur, out), w.reshape(idx, out))


def _avg_geometry(w, node, x, kernel, stride, padding, ceil_mode):
    """avg_pool2d's planes, sizes and its input padded with zeros to every window's end."""
    (kh, kw), (sh, sw), (ph, pw), _ = _pool_args(kernel, stride, padding, 1)
    xp = _planes(w, x, node)
    n, c, h, wd = xp.shape
    oh, ow = (_pool_out(*a, ceil_mode) for a in ((h, kh, sh, ph, 1), (wd, kw, sw, pw, 1)))
    hp, wp = ((o - 1) * st + k for o, st, k in ((oh, sh, kh), (ow, sw, kw)))
    hp, wp = max(hp, h + ph), max(wp, wd + pw)
    return xp, (n, c, h, wd), (oh, ow), (kh, kw, sh, sw, ph, pw), (hp, wp)


def _avg_divisor(w, grid, size, geo, count_include_pad, divisor_override, elem):
    """torch's divide factor per output (its CPU kernel's): divisor_override, or the
    window's size clipped to the padded input (count_include_pad), or its positions
    inside the input; a number where it is the same everywhere."""
    (h, wd), (kh, kw, sh, sw, ph, pw) = size, geo
    if divisor_override:
        return float(divisor_override)
    oh, ow = grid
    counts = []
    for d, n, k, st, p, o in ((0, h, kh, sh, ph, oh), (1, wd, kw, sw, pw, ow)):
        starts = [i * st - p for i in range(o)]
        ends = [min(a + k, n + p) for a in starts]
        per = [e - a if count_include_pad else min(e, n) - max(a, 0)
               for a, e in zip(starts, ends)]
        if len(set(per)) == 1:
            counts.append(per[0])
            continue
        i = w.emit("rt.iota", [], grid, "i64", f"dim = {d} : i64")
        a = w.elementwise("rt.sub", [w.elementwise("rt.mul", [i, st], grid, "i64"), p], grid,
                          "i64")
        e = w.elementwise("rt.min", [w.elementwise("rt.add", [a, k], grid, "i64"), n + p],
                          grid, "i64")
        if not count_include_pad:
            e = w.elementwise("rt.min", [e, n], grid, "i64")
            a = w.elementwise("rt.max", [a, 0], grid, "i64")
        counts.append(w.elementwise("rt.sub", [e, a], grid, "i64"))
    if all(isinstance(v, int) for v in counts):
        return float(counts[0] * counts[1])
    prod = w.elementwise("rt.mul", counts, grid, "i64")
    return w.convert(prod, elem)


def avg_pool2d(w, node, x, kernel, stride=(), padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """2-d average pooling as torch's CPU kernel computes it: per output, 0 plus the
    window's values in row-major order (positions in the padding add a zero, which
    changes no sum that starts at +0), divided by the divide factor (_avg_divisor)."""
    xp, (n, c, h, wd), (oh, ow), geo, (hp, wp) = _avg_geometry(w, node, x, kernel, stride,
                                                                padding, ceil_mode)
    kh, kw, sh, sw, ph, pw = geo
    elem = xp.elem
    xpad = xp
    for dim, p, size, total in ((3, pw, wd, wp), (2, ph, h, hp)):
        xpad = _pad(w, node, xpad, dim, p, total - size - p, None, elem)
    oshape = (n, c, oh, ow)
    total = None
    for i in range(kh):
        for j in range(kw):
            v = _slice(w, xpad, 2, i, i + (oh - 1) * sh + 1, sh)
            v = _slice(w, v, 3, j, j + (ow - 1) * sw + 1, sw)
            total = w.elementwise("rt.add", [0.0 if total is None else total, v], oshape, elem)
    div = _avg_divisor(w, (oh, ow), (h, wd), geo, count_include_pad, divisor_override, elem)
    out = w.elementwise("rt.div", [total, div], oshape, elem)
    return w.reshape(out, out_shape(node))


def avg_pool2d_backward(w, node, grad, x, kernel, stride, padding, ceil_mode,
                        count_include_pad, divisor_override):
    """Each output's gradient divided by its divide factor and added into every position
    of its window, as torch's CPU kernel adds them (outputs in row-major order): one
    rt.scatter_add into the padded planes per window position, the last first, which
    reaches each input position in the same order; then the padding sliced off. The
    input is read only for its shape (select(false, x, ...) keeps fx's dependency)."""
    xp, (n, c, h, wd), (oh, ow), geo, (hp, wp) = _avg_geometry(w, node, x, kernel, stride,
                                                                padding, ceil_mode)
    kh, kw, sh, sw, ph, pw = geo
    shape, elem = meta(node)
    oshape, grid, m = (n, c, oh, ow), (oh, ow), oh * ow
    div = _avg_divisor(w, grid, (h, wd), geo, count_include_pad, divisor_override, elem)
    g = w.elementwise("rt.div", [w.reshape(w.convert(grad, elem), oshape), div], oshape, elem)
    g = w.reshape(g, (n, c, m))
    rows = w.emit("rt.iota", [], grid, "i64", "dim = 0 : i64")
    cols = w.emit("rt.iota", [], grid, "i64", "dim = 1 : i64")
    acc = _full(w, (n, c, hp * wp), elem, 0)
    for i in reversed(range(kh)):
        for j in reversed(range(kw)):
            r = _affine(w, rows, sh, i, grid)
            q = _affine(w, cols, sw, j, grid)
            pos = _affine(w, r, wp, q, grid)
            pos = w.reshape(w.broadcast(pos, oshape), (n, c, m))
            acc = w.emit("rt.scatter_add", [acc, pos, g], (n, c, hp * wp), elem, "dim = 2 : i64")
    res = w.reshape(acc, (n, c, hp, wp))
    res = _slice(w, _slice(w, res, 2, ph, ph + h), 3, pw, pw + wd)
    return w.reshape(_reading(w, w.convert(xp, elem), res), shape)


def _adaptive_windows(w, n_in, n_out, dim, grid):
    """Adaptive pooling's windows along one dim, as torch's CPU kernel: output o reads
    [o * n_in // n_out, ceil((o + 1) * n_in / n_out)); (start, size) as i64 rt.iota
    expressions over grid, and the largest size."""
    o = w.emit("rt.iota", [], grid, "i64", f"dim = {dim} : i64")
    start = w.elementwise("rt.div", [w.elementwise("rt.mul", [o, n_in], grid, "i64"), n_out],
                          grid, "i64")
    end = w.elementwise("rt.div", [_affine(w, o, n_in, n_in + n_out - 1, grid), n_out], grid,
                        "i64")
    size = w.elementwise("rt.sub", [end, start], grid, "i64")
    most = max(-(-(k + 1) * n_in // n_out) - k * n_in // n_out for k in range(n_out))
    return start, size, most


def _adaptive_setup(w, node, x, out_hw):
    xp = _planes(w, x, node)
    n, c, h, wd = xp.shape
    oh, ow = out_hw
    grid = (oh, ow)
    rs, rn, mh = _adaptive_windows(w, h, oh, 0, grid)
    cs, cn, mw = _adaptive_windows(w, wd, ow, 1, grid)
    return xp, (n, c, h, wd), grid, (rs, rn, mh), (cs, cn, mw)


def _adaptive_offset(w, start, size, k, limit, grid):
    """start + k clamped into the input, and whether k is inside the window."""
    at = w.elementwise("rt.add", [start, k], grid, "i64")
    inside = w.elementwise("rt.lt", [k, size], grid, "i64", result_elem="i1") if k else None
    return w.elementwise("rt.min", [at, limit - 1], grid, "i64"), inside


def adaptive_avg_pool2d(w, node, x, output_size):
    """2-d adaptive average pooling as torch's CPU kernel: per output, 0 plus its
    window's values in row-major order, divided by the window's height, then by its
    width. Per window offset: the rows and columns picked by rt.gather (an index clamped
    into the input), a zero where the offset is past the window's end."""
    xp, (n, c, h, wd), grid, (rs, rn, mh), (cs, cn, mw) = _adaptive_setup(w, node, x,
                                                                          output_size)
    elem = xp.elem
    oh, ow = grid
    total = None
    for i in range(mh):
        row, rin = _adaptive_offset(w, rs, rn, i, h, grid)
        ridx = w.broadcast(w.reshape(_slice(w, row, 1, 0, 1), (1, 1, oh, 1)), (n, c, oh, wd))
        rows = w.emit("rt.gather", [xp, ridx], (n, c, oh, wd), elem, "dim = 2 : i64")
        for j in range(mw):
            col, cin = _adaptive_offset(w, cs, cn, j, wd, grid)
            cidx = w.broadcast(w.reshape(_slice(w, col, 0, 0, 1), (1, 1, 1, ow)), (n, c, oh, ow))
            v = w.emit("rt.gather", [rows, cidx], (n, c, oh, ow), elem, "dim = 3 : i64")
            keep = _and(w, rin, cin)
            if keep is not None:
                v = w.emit("rt.select", [w.broadcast(keep, (n, c, oh, ow)), v,
                                         _full(w, (n, c, oh, ow), elem, 0)], (n, c, oh, ow), elem)
            total = w.elementwise("rt.add", [0.0 if total is None else total, v],
                                  (n, c, oh, ow), elem)
    out = w.elementwise("rt.div", [total, w.convert(rn, elem)], (n, c, oh, ow), elem)
    out = w.elementwise("rt.div", [out, w.convert(cn, elem)], (n, c, oh, ow), elem)
    return w.reshape(out, out_shape(node))


def adaptive_avg_pool2d_backward(w, node, grad, x):
    """Each output's gradient divided by its window's height, then width, added into
    every position of its window as torch's CPU kernel adds them (outputs in row-major
    order): one rt.scatter_add per window offset, the last first, adding zero where the
    offset is past the window's end; x read only for its shape (select(false, x, ...))."""
    shape, elem = meta(node)
    gshape = tuple(grad.shape)
    xp, (n, c, h, wd), grid, (rs, rn, mh), (cs, cn, mw) = _adaptive_setup(
        w, node, x, gshape[-2:])
    oh, ow = grid
    oshape, m = (n, c, oh, ow), oh * ow
    g = w.reshape(w.convert(grad, elem), oshape)
    g = w.elementwise("rt.div", [g, w.convert(rn, elem)], oshape, elem)
    g = w.elementwise("rt.div", [g, w.convert(cn, elem)], oshape, elem)
    acc = _full(w, (n, c, h * wd), elem, 0)
    for i in reversed(range(mh)):
        row, rin = _adaptive_offset(w, rs, rn, i, h, grid)
        for j in reversed(range(mw)):
            col, cin = _adaptive_offset(w, cs, cn, j, wd, grid)
            keep = _and(w, rin, cin)
            upd = g if keep is None else w.emit(
                "rt.select", [w.broadcast(keep, oshape), g, _full(w, oshape, elem, 0)],
                oshape, elem)
            pos = _affine(w, row, wd, col, grid)
            pos = w.reshape(w.broadcast(pos, oshape), (n, c, m))
            acc = w.emit("rt.scatter_add", [acc, pos, w.reshape(upd, (n, c, m))],
                         (n, c, h * wd), elem, "dim = 2 : i64")
    return w.reshape(_reading(w, w.convert(xp, elem), w.reshape(acc, (n, c, h, wd))), shape)


def max_pool2d_with_indices_backward(w, node, grad, x, kernel, stride, padding, dilation,
                                     ceil_mode, indices):
    """The gradient added into zeros of the input's shape at each output's index, per
    plane (rt.scatter_add over H * W: in the outputs' row-major order, as torch's CPU
    kernel adds them). The zeros are select(false, x, 0): torch's op reads x (for its
    shape), so the split must keep x for it as fx will, and rt sees the same
    dependency."""
    shape, elem = meta(node)
    xp = _planes(w, x, node)
    n, c, h, wd = xp.shape
    g = w.convert(grad, elem)
    m = numel(g.shape) // (n * c)
    plane = (n, c, h * wd)
    zeros = _reading(w, w.reshape(w.convert(xp, elem), plane), _full(w, plane, elem, 0))
    flat = w.emit("rt.scatter_add", [zeros,
                                     w.reshape(indices, (n, c, m)), w.reshape(g, (n, c, m))],
                  (n, c, h * wd), elem, "dim = 2 : i64")
    return w.reshape(flat, shape)

def _reduce(w, opname, x, dims, keepdim, out_sh, elem=None):
    x = w.tensor(x)
    if elem is not None:
        x = w.convert(x, elem)
    if not x.shape:                   # a 0-d tensor reduced over "dim 0": itself
        return x
    dims = norm_dims(dims if dims not in (None, []) else list(range(len(x.shape))),
                     len(x.shape))
    if not dims:
        return w.reshape(x, out_sh)
    red = tuple(d for k, d in enumerate(x.shape) if k not in dims)
    v = w.emit(opname, [x], red, x.elem,
               "dims = array<i64: " + ", ".join(map(str, dims)) + ">")
    return w.reshape(v, out_sh) if keepdim else v


def sum_(w, node, x, dims=None, keepdim=False, dtype=None):
    shape, elem = meta(node)
    return _reduce(w, "rt.sum", x, dims, keepdim, shape, elem)


def amax(w, node, x, dims=(), keepdim=False):
    shape, elem = meta(node)
    return _reduce(w, "rt.amax", x, list(dims), keepdim, shape)


def _count(x, dims):
    if not x.shape:
        return 1
    dims = norm_dims(dims if dims not in (None, []) else list(range(len(x.shape))),
                     len(x.shape))
    n = 1
    for d in dims:
        n *= x.shape[d]
    return n


def mean(w, node, x, dims=None, keepdim=False, dtype=None):
    shape, elem = meta(node)
    s = _reduce(w, "rt.sum", x, dims, keepdim, shape, elem)
    return w.elementwise("rt.div", [s, float(_count(x, dims))], shape, elem)


def var_mean(w, node, x, dims=None, correction=None, keepdim=False, unbiased=None):
    """(var, mean): mean = sum(x)/n, var = sum((x - mean)^2)/(n - correction) (correction
    None: 1, torch's default)."""
    if unbiased is not None:
        correction = 1 if unbiased else 0
    if correction is None:
        correction = 1
    elem = x.elem
    n = _count(x, dims)
    kdims = norm_dims(dims if dims not in (None, []) else list(range(len(x.shape))),
                      len(x.shape)) if x.shape else []
    kshape = tuple(1 if k in kdims else d for k, d in enumerate(x.shape))
    oshape = kshape if keepdim else tuple(d for k, d in enumerate(x.shape) if k not in kdims)
    s = _reduce(w, "rt.sum", x, dims, True, kshape)
    m = w.elementwise("rt.div", [s, float(n)], kshape, elem)
    d = w.elementwise("rt.sub", [x, m], x.shape, elem)
    sq = w.elementwise("rt.mul", [d, d], x.shape, elem)
    ss = _reduce(w, "rt.sum", sq, dims, True, kshape)
    var = w.elementwise("rt.div", [ss, float(max(n - correction, 0))], kshape, elem)
    return (w.reshape(var, oshape), w.reshape(m, oshape))


def var(w, node, x, dims=None, correction=None, keepdim=False, unbiased=None):
    return var_mean(w, node, x, dims, correction, keepdim, unbiased)[0]


def matmul(w, node, a, b):
    shape, elem = meta(node)
    return w.emit("rt.matmul", [w.convert(a, elem), w.convert(b, elem)], shape, elem)


def rand_like(w, node, x, dtype=None, **_):
    shape, elem = meta(node)
    if w.seed is None:
        raise ImportError_("a random op in a graph without seed and offset", node)
    blocks = (numel(shape) + 3) // 4
    off = w.offset
    if w.random_blocks:
        # the k-th random op draws from offset + (blocks of the ones before it)
        off = w.emit("arith.addi", [w.offset, w.const(w.random_blocks, "i64")], None,
                     "i64", base=f"{node.name}.offset")
    w.random_blocks += blocks
    return w.emit("rt.uniform_philox", [w.seed, off], shape, elem,
                  "lo = 0.0 : f64, hi = 1.0 : f64")


def philox_uniform(w, node, state, size):
    """remat::philox_uniform(state, size): rt.uniform_philox on the state's two i64
    arguments (write_function makes %<state>.seed and %<state>.offset)."""
    shape, elem = meta(node)
    if not isinstance(state, tuple):
        raise ImportError_("remat::philox_uniform of a state that is not a philox_state", node)
    return w.emit("rt.uniform_philox", list(state), shape, elem,
                  "lo = 0.0 : f64, hi = 1.0 : f64")


def scalar_tensor(w, node, value, dtype=None, **_):
    _, elem = meta(node)
    return w.const(value, scalar_elem(elem) if elem in FLOATS else elem)


def full(w, node, size, value, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, value)


def _full(w, shape, elem, value):
    key = ("full", tensor_type(shape, elem), value)
    if key not in w.memo:
        w.memo[key] = _full_op(w, shape, elem, value)
    return w.memo[key]


def _full_op(w, shape, elem, value):
    se = scalar_elem(elem)
    if se in ("f32", "f64"):
        lit = f"{float_literal(float(value), se)} : {se}"
    elif se == "i1":
        lit = "true" if value else "false"
    else:
        lit = f"{int(value)} : {se}"
    return w.emit("rt.full", [], shape, elem, f"value = {lit}")


def full_like(w, node, x, value, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, value)


def zeros_like(w, node, x, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 0)


def ones_like(w, node, x, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 1)


def fill(w, node, x, value):
    shape, elem = meta(node)
    if isinstance(value, Val):
        raise ImportError_("fill with a tensor value has no rt mapping", node)
    return _full(w, shape, elem, value)


def zeros(w, node, size, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 0)


def empty(w, node, *_, **__):
    """empty / empty_strided: uninitialized in torch; zeros here, as empty_like (a fill or
    a copy follows in the graphs traced)."""
    shape, elem = meta(node)
    return _full(w, shape, elem, 0)


def ones(w, node, size, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 1)


def clamp(w, node, x, min=None, max=None):
    """min(max(x, lo), hi), as torch's clamp (NaN propagates: rt.max/rt.min do; lo > hi
    gives hi)."""
    shape, elem = meta(node)
    r = x
    if min is not None:
        r = w.elementwise("rt.max", [r, min], shape, elem)
    if max is not None:
        r = w.elementwise("rt.min", [r, max], shape, elem)
    if r is x:
        raise ImportError_("clamp without a bound", node)
    return r


def hardtanh(w, node, x, min_val=-1.0, max_val=1.0):
    # F.relu6 and nn.ReLU6 trace as hardtanh(x, 0, 6): rt.relu6, torch's clamp exactly
    # (-0 stays -0); other bounds: the clamp above
    shape, elem = meta(node)
    if min_val == 0 and max_val == 6 and elem in FLOATS:
        return w.elementwise("rt.relu6", [x], shape, elem)
    return clamp(w, node, x, min=min_val, max=max_val)


def clamp_min(w, node, x, bound):
    return clamp(w, node, x, min=bound)


def clamp_max(w, node, x, bound):
    return clamp(w, node, x, max=bound)


def sgn(w, node, x):
    """select(x > 0, 1, select(x < 0, -1, 0)): 0 at +-0 and at NaN, as torch's CPU sgn
    (the same form as autodiff's VJP of rt.abs, docs/design.md)."""
    shape, elem = meta(node)
    zero, one = (0.0, 1.0) if elem in FLOATS else (0, 1)
    gt = w.elementwise("rt.gt", [x, zero], shape, elem, result_elem="i1")
    lt = w.elementwise("rt.lt", [x, zero], shape, elem, result_elem="i1")
    neg = w.emit("rt.select", [lt, w.number(-one, elem), w.number(zero, elem)], shape, elem)
    return w.emit("rt.select", [gt, w.number(one, elem), neg], shape, elem)


def logical_and(w, node, a, b):
    """i1 a && b = select(a, b, false)."""
    shape, _ = meta(node)
    if a.elem != "i1" or b.elem != "i1":
        raise ImportError_("and/or of non-boolean tensors has no rt mapping", node)
    return w.emit("rt.select", [w.broadcast(a, shape), w.broadcast(b, shape),
                                w.const(False, "i1")], shape, "i1")


def logical_or(w, node, a, b):
    """i1 a || b = select(a, true, b)."""
    shape, _ = meta(node)
    if a.elem != "i1" or b.elem != "i1":
        raise ImportError_("and/or of non-boolean tensors has no rt mapping", node)
    return w.emit("rt.select", [w.broadcast(a, shape), w.const(True, "i1"),
                                w.broadcast(b, shape)], shape, "i1")


def arange(w, node, *args, **_):
    """arange(end) / arange(start, end[, step]): rt.iota along dim 0 of the result type,
    then * step + start (integers exactly; floats as torch's CPU kernel: start + i * step)."""
    shape, elem = meta(node)
    nums = [a for a in args if isinstance(a, (int, float)) and not isinstance(a, bool)]
    start, step = (nums[0], nums[2] if len(nums) > 2 else 1) if len(nums) >= 2 else (0, 1)
    r = w.emit("rt.iota", [], shape, elem, "dim = 0 : i64")
    if step != 1:
        r = w.elementwise("rt.mul", [r, step], shape, elem)
    if start != 0:
        r = w.elementwise("rt.add", [r, start], shape, elem)
    return r


def new_full(w, node, x, size, value, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, value)


def new_zeros(w, node, x, size, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 0)


def new_ones(w, node, x, size, **_):
    shape, elem = meta(node)
    return _full(w, shape, elem, 1)


def _index(w, idx):
    if idx.elem not in ("i32", "i64"):
        raise ImportError_(f"indices of element type {idx.elem}: rt takes i32 or i64", w.node)
    return idx


def _fit(w, x, shape, dim):
    """x sliced to `shape` in every dimension but dim (torch lets an index tensor be
    smaller than the source there; rt.gather wants them equal)."""
    for d, n in enumerate(shape):
        if d != dim and x.shape[d] != n:
            if x.shape[d] < n:
                raise ImportError_(f"an index tensor larger than its source in dim {d}", w.node)
            x = _slice(w, x, d, 0, n)
    return x


def _rank1(w, *vals):
    """0-d tensors as [1] (torch's indexing ops treat a 0-d tensor as one element along
    dim 0; rt's take rank >= 1)."""
    return [w.reshape(v, (1,)) if not v.shape else v for v in vals]


def gather(w, node, x, dim, index, sparse_grad=False):
    """rt.gather(src, idx) {dim}: torch.gather (src first sliced to the index's shape
    outside dim, as torch reads only that part)."""
    shape, elem = meta(node)
    x, idx = _rank1(w, x, _index(w, index))
    dim %= len(x.shape)
    src = _fit(w, x, idx.shape, dim)
    return w.reshape(w.emit("rt.gather", [src, idx], idx.shape, elem, f"dim = {dim} : i64"),
                     shape)


def scatter_add(w, node, base, dim, index, src):
    """rt.scatter_add(base, idx, upd) {dim}: torch.scatter_add (src sliced to the index's
    shape; the index must match base outside dim, rt's rule)."""
    shape, elem = meta(node)
    base, idx, src = _rank1(w, base, _index(w, index), src)
    dim %= len(base.shape)
    for d, n in enumerate(idx.shape):
        if d != dim and base.shape[d] != n:
            raise ImportError_("scatter_add with an index smaller than its base outside dim "
                               "has no rt mapping", node)
    upd = _fit(w, w.convert(src, elem), idx.shape, dim)
    return w.reshape(w.emit("rt.scatter_add", [w.convert(base, elem), idx, upd], base.shape,
                            elem, f"dim = {dim} : i64"), shape)


def scatter_src(w, node, base, dim, index, src):
    """torch.scatter (an overwrite) into zeros with one index per target row (size 1 along
    dim: every target written at most once, as max.dim's backward does) is a scatter_add
    into those zeros; other scatters (duplicates: the last write, which torch leaves
    open) have no rt mapping."""
    shape, elem = meta(node)
    zero = w.memo.get(("full", tensor_type(shape, elem), 0))
    dim %= max(len(base.shape), 1)
    if base is not zero or (index.shape and index.shape[dim] != 1):
        raise ImportError_("scatter (overwrite) other than into zeros with one index per "
                           "row has no rt mapping", node)
    return scatter_add(w, node, base, dim, index, src)


def max_dim(w, node, x, dim, keepdim=False):
    """(values, indices) of max along dim: rt.amax and rt.argmax (the first index of the
    maximum; NaN is the maximum, as torch)."""
    zero_d = not x.shape               # max(x, 0) of a 0-d tensor: as of x reshaped to [1]
    x, = _rank1(w, x)
    r = len(x.shape)
    dim %= r
    red = tuple(d for k, d in enumerate(x.shape) if k != dim)
    kshape = tuple(1 if k == dim else d for k, d in enumerate(x.shape))
    vals = w.emit("rt.amax", [x], red, x.elem, f"dims = array<i64: {dim}>",
                  base=node.name + ".values")
    idx = w.emit("rt.argmax", [x], red, "i64", f"dim = {dim} : i64",
                 base=node.name + ".indices")
    if keepdim and not zero_d:
        vals, idx = w.reshape(vals, kshape), w.reshape(idx, kshape)
    return (vals, idx)


def index_select(w, node, x, dim, index):
    """x.index_select(dim, index): index [n] reshaped to rank R (n at dim), broadcast to
    x's shape with n at dim, then rt.gather along dim."""
    shape, elem = meta(node)
    x, idx = _rank1(w, x, _index(w, index))
    dim %= len(x.shape)
    one = tuple(idx.shape[0] if k == dim else 1 for k in range(len(x.shape)))
    rshape = tuple(idx.shape[0] if k == dim else d for k, d in enumerate(x.shape))
    idx = w.broadcast(w.reshape(idx, one), rshape)
    return w.reshape(w.emit("rt.gather", [x, idx], rshape, elem, f"dim = {dim} : i64"), shape)


def index_add(w, node, base, dim, index, source, alpha=1):
    """base.index_add(dim, index, source) (index_select's backward): the index [n]
    reshaped to rank R (n at dim) and broadcast to source's shape, then rt.scatter_add
    (source slices added in index order, rt's row-major order)."""
    shape, elem = meta(node)
    base, idx, source = _rank1(w, base, _index(w, index), source)
    dim %= len(base.shape)
    one = tuple(idx.shape[0] if k == dim else 1 for k in range(len(source.shape)))
    idx = w.broadcast(w.reshape(idx, one), source.shape)
    if alpha != 1:
        source = w.elementwise("rt.mul", [source, alpha], source.shape, elem)
    return w.reshape(w.emit("rt.scatter_add", [w.convert(base, elem), idx,
                                               w.convert(source, elem)],
                            base.shape, elem, f"dim = {dim} : i64"), shape)


import operator  # noqa: E402

OPS = {
    # elementwise arithmetic (numbers become arith.constant scalars)
    aten.add.Tensor: binary("rt.add"), aten.add.Scalar: binary("rt.add"),
    aten.sub.Tensor: binary("rt.sub"), aten.sub.Scalar: binary("rt.sub"),
    aten.rsub.Scalar: rsub, aten.rsub.Tensor: rsub,
    aten.mul.Tensor: binary("rt.mul"), aten.mul.Scalar: binary("rt.mul"),
    aten.div.Tensor: binary("rt.div"), aten.div.Scalar: binary("rt.div"),
    aten.maximum.default: binary("rt.max"), aten.minimum.default: binary("rt.min"),
    aten.pow.Tensor_Scalar: pow_scalar, aten.pow.Tensor_Tensor: pow_tensor,
    aten.neg.default: unary("rt.neg"), aten.exp.default: unary("rt.exp"),
    aten.log.default: unary("rt.log"), aten.tanh.default: unary("rt.tanh"),
    aten.erf.default: unary("rt.erf"), aten.sqrt.default: unary("rt.sqrt"),
    aten.rsqrt.default: unary("rt.rsqrt"), aten.abs.default: unary("rt.abs"),
    aten.sin.default: unary("rt.sin"), aten.cos.default: unary("rt.cos"),
    aten.reciprocal.default: reciprocal, aten.sigmoid.default: sigmoid,
    aten.relu.default: relu, aten.log1p.default: unary("rt.log1p"),
    aten.softplus.default: softplus,
    aten.hardswish.default: unary("rt.hardswish"),
    aten.hardsigmoid.default: unary("rt.hardsigmoid"),
    aten.mish.default: unary("rt.mish"), aten.hardtanh.default: hardtanh,
    aten.clamp.default: clamp, aten.clamp_min.default: clamp_min,
    aten.clamp_max.default: clamp_max,
    aten.sgn.default: sgn, aten.sign.default: sgn,
    # comparisons and selection
    aten.lt.Tensor: compare("rt.lt"), aten.lt.Scalar: compare("rt.lt"),
    aten.le.Tensor: compare("rt.le"), aten.le.Scalar: compare("rt.le"),
    aten.gt.Tensor: compare("rt.gt"), aten.gt.Scalar: compare("rt.gt"),
    aten.ge.Tensor: compare("rt.ge"), aten.ge.Scalar: compare("rt.ge"),
    aten.eq.Tensor: compare("rt.eq"), aten.eq.Scalar: compare("rt.eq"),
    aten.ne.Tensor: compare("rt.ne"), aten.ne.Scalar: compare("rt.ne"),
    aten.where.self: where, aten.bitwise_not.default: logical_not,
    aten.logical_not.default: logical_not,
    aten.logical_and.default: logical_and, aten.bitwise_and.Tensor: logical_and,
    aten.logical_or.default: logical_or, aten.bitwise_or.Tensor: logical_or,
    # element types and copies
    prims.convert_element_type.default: convert_element_type,
    aten._to_copy.default: to_copy,
    aten.clone.default: identity, aten.alias.default: identity,
    aten.lift_fresh_copy.default: identity,
    # views
    aten.view.default: view, aten._unsafe_view.default: view,
    aten._reshape_alias.default: view, aten.reshape.default: view,
    aten.unsqueeze.default: view, aten.squeeze.default: view, aten.squeeze.dim: view,
    aten.transpose.int: transpose, aten.permute.default: permute,
    aten.expand.default: expand,
    aten.slice.Tensor: slice_, aten.select.int: select,
    aten.split.Tensor: split, aten.split_with_sizes.default: split_with_sizes,
    aten.select_backward.default: select_backward, aten.slice_backward.default: slice_backward,
    operator.getitem: getitem, aten.cat.default: cat,
    aten.flip.default: flip, aten.roll.default: roll, aten.repeat.default: repeat,
    aten.triu.default: _band(True), aten.tril.default: _band(False),
    aten.constant_pad_nd.default: constant_pad_nd,
    aten.max_pool2d_with_indices.default: max_pool2d_with_indices,
    aten.max_pool2d_with_indices_backward.default: max_pool2d_with_indices_backward,
    aten.avg_pool2d.default: avg_pool2d, aten.avg_pool2d_backward.default: avg_pool2d_backward,
    aten._adaptive_avg_pool2d.default: adaptive_avg_pool2d,
    aten._adaptive_avg_pool2d_backward.default: adaptive_avg_pool2d_backward,
    # reductions
    aten.sum.dim_IntList: sum_, aten.sum.default: sum_, aten.amax.default: amax,
    aten.mean.dim: mean, aten.mean.default: mean,
    aten.var_mean.correction: var_mean, aten.var.correction: var,
    # indexing (docs/design.md, "Indexing ops")
    aten.gather.default: gather, aten.scatter_add.default: scatter_add,
    aten.scatter.src: scatter_src, aten.max.dim: max_dim,
    aten.index_select.default: index_select, aten.index_add.default: index_add,
    # matrix products
    aten.mm.default: matmul, aten.bmm.default: matmul,
    aten.baddbmm.default: baddbmm,
    aten.convolution.default: convolution,
    aten.convolution_backward.default: convolution_backward,
    # random numbers
    aten.rand_like.default: rand_like,
    # constants
    aten.scalar_tensor.default: scalar_tensor, aten.full.default: full,
    aten.full_like.default: full_like, aten.zeros_like.default: zeros_like,
    aten.ones_like.default: ones_like, aten.empty_like.default: zeros_like,
    aten.fill.Scalar: fill, aten.zeros.default: zeros, aten.ones.default: ones,
    aten.empty_strided.default: empty, aten.empty.memory_format: empty,
    aten.new_full.default: new_full, aten.new_zeros.default: new_zeros,
    aten.new_ones.default: new_ones,
    aten.arange.default: arange, aten.arange.start: arange, aten.arange.start_step: arange,
}


def _remat_ops():
    """remat_torch.dropout's ops (registered when it is imported)."""
    try:
        from . import dropout
    except Exception:          # an older torch without torch.library: no such ops
        return {}
    return {dropout.philox_uniform_op: philox_uniform}


OPS.update(_remat_ops())


def philox_state_nodes(graph):
    try:
        from . import dropout
    except Exception:
        return []
    return [n for n in graph.nodes if n.op == "call_function" and n.target == dropout.philox_state_op]


def random_nodes(graph):
    return [n for n in graph.nodes if n.op == "call_function" and n.target == aten.rand_like.default]


def random_offsets(graph):
    """{node: delta} for every rand_like, in graph order: the Philox offset the node
    draws from is offset + delta (4-word blocks used by the random ops before it)."""
    out, at = {}, 0
    for n in random_nodes(graph):
        out[n] = at
        at += (numel(n.meta["tensor_meta"].shape) + 3) // 4
    return out


# ---- whole functions ------------------------------------------------------------------

class Function:
    """What was written: the text, and how arguments and results map back to torch."""

    def __init__(self, text, arguments, results, values, operands=None, externs=(), folded=()):
        self.text = text
        self.folded = list(folded)    # names of the buffers computed in the graph
        self.externs = list(externs)  # [(fx node, reason)] written as rt.extern
        self.operands = operands or {}  # {rt SSA name: [operand SSA names]} of every op
        self.arguments = arguments    # [{"name", "kind", "type", "bytes"}]
        self.results = results        # [{"kind": "output"|"grad", "of": arg name, "type"}]
        self.values = values          # {fx node name: rt SSA name} for the JSON file


def write_function(graph, args, fn_name, num_outputs, mode="joint", header="", names=False,
                   torch_random=False, causal_buffers=False):
    """graph: the joint graph (mode "joint") or a forward graph (mode "forward": no
    tangents, the function carries rt.autodiff). args: trace.Arg per primals_*
    placeholder. names: every op's location carries its SSA name (partition_fn reads the
    saved set back by name). torch_random: see Writer. Returns a Function; an op without
    a mapping is an rt.extern (Function.externs), a node not even that can be is an
    ImportError_.
    Each remat::philox_state node becomes two i64 arguments %<node>.seed and
    %<node>.offset after the primals (the values that node returns at run time).
    causal_buffers: a buffer whose values are tril(ones, d) is computed in the graph
    (rt.iota compares) instead of taken as an argument (Function.folded names it)."""
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    primals = [n for n in placeholders if "tangents" not in n.target]
    tangents = [n for n in placeholders if "tangents" in n.target]
    if len(primals) != len(args):
        raise ImportError_(f"{len(primals)} primal placeholders for {len(args)} arguments")
    w = Writer(graph, names=names, torch_random=torch_random)
    sig, arguments = [], []

    def add_arg(name, ty, attrs, kind, loc_name, nbytes):
        v = Val(w.fresh(name), ty[0], ty[1])
        attr = f" {{{attrs}}}" if attrs else ""
        sig.append(f'%{v.name}: {v.type}{attr} loc("{loc_name}")')
        arguments.append({"name": v.name, "kind": kind, "type": v.type, "bytes": nbytes})
        return v

    ranges = indexing.index_ranges(graph)
    folded = []
    for node, a in zip(primals, args):
        shape, elem = tuple(a.value.shape), elem_of(a.value.dtype, node)
        d = causal_diagonal(a.value) if causal_buffers and a.kind == "buffer" else None
        if d is not None:  # a causal mask: its values are its shape's (docs/importer.md)
            w.set_node(node)
            w.loc = f'loc("{a.name}")'
            w.env[node] = _band_keep(w, shape[0], shape[1], d, False)
            folded.append(a.name)
            continue
        # buffers apart: persistent like parameters, but without a gradient (remat-run
        # --check-fd leaves them out of the arguments its gradients belong to)
        attrs = {"param": "rt.param", "buffer": "rt.buffer"}.get(a.kind, "")
        r = a.range or ranges.get(node)
        if r and elem in ("i8", "i32", "i64"):  # the values remat-run --seed draws
            attrs = ", ".join(filter(None, [attrs, f"rt.range = array<i64: {r[0]}, {r[1]}>"]))
        w.env[node] = add_arg(a.name, (shape, elem), attrs, a.kind, a.name,
                              numel(shape) * ELEM_BYTES[elem])
    states = philox_state_nodes(graph)
    for node in states:
        w.env[node] = tuple(add_arg(f"{node.name}.{part}", (None, "i64"), "", part,
                                    f"{node.name}.{part}", 8) for part in ("seed", "offset"))
    if random_nodes(graph) and not torch_random:
        w.seed = add_arg("seed", (None, "i64"), "", "seed", "seed", 8)
        w.offset = add_arg("offset", (None, "i64"), "", "offset", "offset", 8)
    for node in tangents:
        shape, elem = meta(node)
        w.env[node] = add_arg(node.target, (shape, elem), "rt.tangent", "tangent", node.target,
                              numel(shape) * ELEM_BYTES[elem])

    out_node = next(n for n in graph.nodes if n.op == "output")
    for node in graph.nodes:
        if node.op == "call_function" and node in w.env:
            continue                  # a philox_state: arguments
        if node.op == "call_function":
            try:
                w.run_node(node)
            except Exception as e:
                if not isinstance(e, ImportError_):   # a bug: say at which node
                    e.fx_node = node
                raise
        elif node.op == "get_attr":
            w.set_node(node)
            w.env[node] = extern.constant(w, node, _attr(graph.owning_module, node.target))
        elif node.op not in ("placeholder", "output"):
            raise ImportError_(f"fx node kind '{node.op}' ({node.target}) has no rt mapping", node)

    outs = list(out_node.args[0]) if isinstance(out_node.args[0], (list, tuple)) else [out_node.args[0]]
    w.set_node(out_node)
    rets, results = [], []
    for k, o in enumerate(outs):
        if k < num_outputs:
            kind, of = "output", None
        else:
            if mode == "forward":
                break
            kind, of = "grad", args[k - num_outputs].name
            if o is None:
                continue
        if not isinstance(o, fx.Node):
            raise ImportError_(f"result #{k} is not a tensor of the graph", out_node)
        v = w.env[o]
        if isinstance(v, tuple) or v.is_scalar:
            raise ImportError_(f"result #{k} is not a tensor", o)
        rets.append(v)
        results.append({"kind": kind, "of": of, "type": v.type})

    live = w.live_ops([v.name for v in rets])
    body = [op.text for op in live]
    attrs = (f"rt.num_outputs = {num_outputs} : i64" if mode == "joint" else "rt.autodiff")
    lines = [header] if header else []
    lines.append(f"func.func @{fn_name}(" + ",\n    ".join(sig) + ")")
    lines.append("    -> (" + ", ".join(v.type for v in rets) + f") attributes {{{attrs}}} {{")
    lines += ["  " + t for t in body]
    lines.append("  return " + ", ".join("%" + v.name for v in rets) + " : " +
                 ", ".join(v.type for v in rets) + f" {w.loc}")
    lines.append("}")
    values = {}
    for node, v in w.env.items():
        if isinstance(v, Val):
            values[node.name] = v.name
    return Function("\n".join(lines) + "\n", arguments, results, values,
                    {op.result: op.operands for op in live}, w.externs, folded)


def _attr(module, target):
    """The object a get_attr node reads (a dotted path from the graph's module)."""
    obj = module
    for part in target.split("."):
        obj = getattr(obj, part, None)
    return obj
