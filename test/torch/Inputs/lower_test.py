"""remat_torch.lower (test/torch/lower.test): cheap_converts turns every
prims.convert_element_type into aten._to_copy, fuse_masks a dropout's draw and comparison
into philox_mask, fold_transposes a transpose of a transpose of a saved value into that
value, with the same results bit for bit; remat's partition of the zoo GPT runs
no prims conversion and no separate draw, and the rt function it cuts is the one it cut
before the conversions' rewrite."""
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "bench")]

import torch  # noqa: E402
import torch.fx as fx  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

from remat_torch import dropout, fx_passes, lower, training as T  # noqa: E402
from expectations import expect, failed  # noqa: E402

CONVERT = torch.ops.prims.convert_element_type.default


def ops(gm):
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]


def bits(t):
    """The bit patterns (NaN compares equal to itself)."""
    return t.contiguous().view({4: torch.int32, 2: torch.int16}[t.element_size()])


# x: f32, m: bool. a = convert(x, f32) (its own dtype) feeds sub; b = convert(m, f32)
# feeds mul; c = convert(x, f32) is returned itself; d = convert(x, f16).
g = fx.Graph()
x, m = g.placeholder("x"), g.placeholder("m")
a = g.call_function(CONVERT, (x, torch.float32))
s = g.call_function(torch.ops.aten.sub.Tensor, (x, a))
b = g.call_function(CONVERT, (m, torch.float32))
p = g.call_function(torch.ops.aten.mul.Tensor, (s, b))
c = g.call_function(CONVERT, (x, torch.float32))
d = g.call_function(CONVERT, (x, torch.float16))
g.output((p, c, d))
gm = fx.GraphModule(torch.nn.Module(), g)
xs = torch.tensor([[1.5, -0.0, float("inf"), 65520.0], [1e-8, float("nan"), -3.25, 7e4]]).t()
ms = torch.tensor([[True, False, True, True], [False, True, True, False]]).t()
ShapeProp(gm).propagate(xs, ms)
want = gm(xs, ms)
n = lower.cheap_converts(gm.graph)
gm.recompile()
got = gm(xs, ms)
print("rewritten:", n, "ops:", " ".join(ops(gm)))
expect(n == 4 and CONVERT not in [nd.target for nd in gm.graph.nodes],
       "every conversion rewritten")
expect(all(u.dtype == v.dtype and u.stride() == v.stride() and torch.equal(bits(u), bits(v))
           for u, v in zip(got, want)),
       "results bit-identical, same dtypes and strides (a transposed input)")
expect(got[1] is not xs and got[1].data_ptr() != xs.data_ptr(),
       "a conversion to the input's dtype is still a copy")

# fuse_masks: lt(philox_uniform(s, size), keep) becomes philox_mask(s, size, keep) unless
# the draw has another reader or a node of the pair is saved
g = fx.Graph()
st = g.placeholder("st")
pairs = []
for k in range(3):
    u = g.call_function(dropout.philox_uniform_op, (st, [4, 33]))
    pairs.append((u, g.call_function(torch.ops.aten.lt.Scalar, (u, 0.9 - 0.2 * k))))
other = g.call_function(torch.ops.aten.add.Tensor, (pairs[1][0], 1.0))   # a second reader
g.output([m for _, m in pairs] + [other])
gm = fx.GraphModule(torch.nn.Module(), g)
state = torch.tensor([3, 2**40 + 5])
want = gm(state)
n = lower.cheap_converts(gm.graph) + lower.fuse_masks(gm.graph, saved=[pairs[2][1]])
gm.recompile()
got = gm(state)
print("fused:", n, "ops:", " ".join(ops(gm)))
expect(n == 1 and all(torch.equal(u, v) for u, v in zip(got, want)),
       "one pair fused (not the one with another reader, not the saved one), same masks")

# fold_transposes: transpose(transpose(x, a, b), b, a) reads x itself where x is saved
g = fx.Graph()
x, y, z = g.placeholder("x"), g.placeholder("y"), g.placeholder("z")
T_ = torch.ops.aten.transpose.int
a = g.call_function(T_, (g.call_function(T_, (x, 0, 1)), 1, -3))    # same pair: folded
b = g.call_function(T_, (g.call_function(T_, (y, 0, 1)), 1, 2))     # another pair: kept
c = g.call_function(T_, (g.call_function(T_, (z, 0, 1)), 0, 1))     # z not saved: kept
outs = [g.call_function(torch.ops.aten.mul.Tensor, (v, 2.0)) for v in (a, b, c)]
g.output(outs)
gm = fx.GraphModule(torch.nn.Module(), g)
vals = [torch.arange(24.0).reshape(2, 3, 4) for _ in range(3)]
ShapeProp(gm).propagate(*vals)
want = gm(*vals)
n = lower.fold_transposes(gm.graph, saved=[x, y])
gm.graph.eliminate_dead_code()
gm.recompile()
got = gm(*vals)
print("folded:", n, "transposes left:", ops(gm).count(str(T_)))
expect(n == 1 and all(torch.equal(u, v) and u.stride() == v.stride() for u, v in zip(got, want)),
       "one pair folded (the same swap, of a saved value), same results")

from models import gpt  # noqa: E402
torch.manual_seed(0)
model, inputs = gpt.build(layers=1)
cap = T.Capture()
f = T.compile_model(model, "remat", capture=cap)
with dropout.philox_dropout(0):
    T.loss_of(f(*inputs)).backward()
left = [o for gm in (cap.fwd, cap.bwd) for o in ops(gm) if o == str(CONVERT)]
expect(not left, "remat's forward and backward of the zoo GPT run no prims.convert_element_type")
both = [ops(cap.fwd), ops(cap.bwd)]
expect(all(str(dropout.philox_mask_op) in o and str(dropout.philox_uniform_op) not in o
           for o in both), "remat's forward and backward of the zoo GPT draw masks with philox_mask")

# the rt function written from the joint graph is the same with and without the rewrite
from functorch.compile import aot_module, default_partition, make_boxed_func  # noqa: E402
from remat_torch import aot  # noqa: E402
joints = []


def capture(gm, ji):
    joints.append((copy.deepcopy(gm), ji))
    return default_partition(gm, ji)


nop = lambda gm, _: make_boxed_func(gm)  # noqa: E731
torch.manual_seed(0)
model, inputs = gpt.build(layers=1)
with dropout.philox_dropout(0):
    aot_module(model, nop, nop, partition_fn=capture, decompositions=aot.decompositions())(*inputs)
texts = []
for rewrite in (False, True):
    gm, ji = copy.deepcopy(joints[0][0]), joints[0][1]
    if rewrite:
        lower.cheap_converts(gm.graph)
    gm.graph.eliminate_dead_code()
    fx_passes.cse(gm.graph)
    texts.append(aot.to_rt(gm, ji).text)
expect(texts[0] == texts[1], "the zoo GPT's rt function is the same with the rewrite")
sys.exit(1 if failed else 0)
