"""Dropout whose mask a backward can recompute: remat's Philox in torch.

Two ops in the `remat` namespace (torch.library):
- `remat::philox_state(int blocks) -> Tensor`: the (seed, offset) pair the next draw uses,
  as an int64 tensor [2]; it advances the offset of the active `philox_dropout` by
  `blocks` (4-word Philox blocks, docs/design.md "Philox"). It is the only op with a side
  effect, and it runs in the forward alone: a partition saves its 16 bytes.
- `remat::philox_uniform(Tensor state, int[] size) -> Tensor`: float32 values in [0, 1),
  a pure function of (seed, offset, element index): the numbers rt.uniform_philox draws,
  drawn in C by libremat.so (binding.philox_uniform; tools/remat_torch/philox.py is
  their numpy reference), so a backward that runs it again draws the forward's bits.

- `remat::philox_mask(Tensor state, int[] size, float keep) -> Tensor`: bool,
  `philox_uniform(state, size) < keep` in one pass. Dropout does not call it: remat's
  partition_fn writes it into the graphs it returns in place of that pair
  (lower.fuse_masks), where the pair's float draw is used by the comparison alone.

`philox_random(seed=0)` (also under its first name, `philox_dropout`) replaces F.dropout
(nn.Dropout calls it) by `x * (philox_uniform(philox_state(b), x.shape) < keep) / keep`,
keep = 1 - p: the same arithmetic as the importer's dropout, in eager torch and while
aot_module traces (the ops become fx nodes that tools/remat_torch/emit.py writes as rt
arguments %<node>.seed, %<node>.offset and rt.uniform_philox). The other draws of masks
go through Philox too: `Tensor.bernoulli_` (torchvision's stochastic_depth, timm's
drop_path: `empty(...).bernoulli_(p)`), `torch.bernoulli`, `torch.rand_like` and
`torch.rand` (floating-point, without an explicit generator). Calls advance the offset in
call order, so an eager run and a compiled run of the same steps draw the same masks.
"""
import contextlib
import math
import os
import sys
import threading

import torch
import torch.nn.functional as F

from . import binding

_lib = torch.library.Library("remat", "DEF")
_lib.define("philox_state(int blocks) -> Tensor")
_lib.define("philox_uniform(Tensor state, int[] size) -> Tensor")
_lib.define("philox_mask(Tensor state, int[] size, float keep) -> Tensor")


class _State(threading.local):
    def __init__(self):
        self.stack = []      # [seed, offset] of each active philox_dropout, innermost last


_state = _State()


def _compiling():
    """True while AOT autograd compiles: it runs the function once eagerly (for its
    outputs' shapes) and traces it twice (make_fx, then make_fx of an fx.Interpreter
    run with functionalization); each runs the state op for real. Those draws must not
    move the offset, or the compiled steps would draw other masks than the same eager
    steps. The compiled forward runs from CompiledFunction.forward, outside these."""
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_name in _AOT_COMPILE and f.f_code.co_filename.endswith(_AOT_FILE):
            return True
        f = f.f_back
    return False


_AOT_FILE = os.path.join("functorch", "_src", "aot_autograd.py")
_AOT_COMPILE = ("aot_dispatch_autograd", "aot_dispatch_base", "create_aot_dispatcher_function")


def _philox_state(blocks):
    if not _state.stack:
        raise RuntimeError("remat::philox_state outside remat_torch.philox_dropout()")
    cur = _state.stack[-1]
    out = torch.tensor([cur[0], cur[1]], dtype=torch.int64)
    if not _compiling():
        cur[1] += int(blocks)
    return out


def _philox_state_meta(blocks):
    return torch.empty(2, dtype=torch.int64, device="meta")


def _philox_uniform(state, size):
    """Drawn by libremat.so (rematPhiloxUniformF32) straight into the new tensor, on
    torch's intra-op threads; tools/remat_torch/philox.py is the numpy reference the
    tests compare it with."""
    seed, offset = state.tolist()
    out = torch.empty(list(size), dtype=torch.float32)
    binding.philox_uniform(seed, offset, out.data_ptr(), out.numel(),
                           threads=torch.get_num_threads())
    return out


def _philox_uniform_meta(state, size):
    return torch.empty(list(size), dtype=torch.float32, device="meta")


def _philox_mask(state, size, keep):
    """philox_uniform(state, size) < keep (compared in f32, as torch compares), drawn and
    compared in one pass (rematPhiloxUniformBelow)."""
    seed, offset = state.tolist()
    out = torch.empty(list(size), dtype=torch.bool)
    binding.philox_below(seed, offset, keep, out.data_ptr(), out.numel(),
                         threads=torch.get_num_threads())
    return out


def _philox_mask_meta(state, size, keep):
    return torch.empty(list(size), dtype=torch.bool, device="meta")


_lib.impl("philox_state", _philox_state, "CompositeExplicitAutograd")
_lib.impl("philox_uniform", _philox_uniform, "CPU")
_lib.impl("philox_uniform", _philox_uniform_meta, "Meta")
_lib.impl("philox_mask", _philox_mask, "CPU")
_lib.impl("philox_mask", _philox_mask_meta, "Meta")

philox_state_op = torch.ops.remat.philox_state.default
philox_uniform_op = torch.ops.remat.philox_uniform.default
philox_mask_op = torch.ops.remat.philox_mask.default


def _register_random():
    """torch's CSE (fx_graph_cse, run by its min-cut partitioner and by partition_fn)
    merges equal calls unless their op is in its list of random ops: two
    philox_state(32) calls are two draws, so the op goes on that list."""
    from functorch._src import compile_utils
    packet = torch.ops.remat.philox_state
    if packet not in compile_utils.rand_ops:
        compile_utils.rand_ops.append(packet)


_register_random()


def _uniform(shape):
    """Philox numbers in [0, 1) (float32) of `shape`, drawn at the active state."""
    shape = [int(d) for d in shape]
    blocks = (math.prod(shape) + 3) // 4
    return torch.ops.remat.philox_uniform(torch.ops.remat.philox_state(blocks), shape)


def bernoulli_(self, p=0.5, *, generator=None):
    """Tensor.bernoulli_: self = (u < p) in self's type, u from Philox."""
    if generator is not None:
        return _TORCH["bernoulli_"](self, p, generator=generator)
    return self.copy_(_uniform(self.shape) < p)


def bernoulli(input, p=None, *, generator=None, out=None):
    """torch.bernoulli: 1 where u < input (or < p), in input's type."""
    if generator is not None or out is not None:
        return _TORCH["bernoulli"](input, *([] if p is None else [p]), generator=generator,
                                   out=out)
    return (_uniform(input.shape) < (input if p is None else p)).to(input.dtype)


def rand_like(input, *, dtype=None, requires_grad=False, **kw):
    """torch.rand_like of a floating-point type: Philox numbers in [0, 1)."""
    dtype = dtype or input.dtype
    if not dtype.is_floating_point or any(kw.get(k) is not None for k in ("layout", "device")):
        return _TORCH["rand_like"](input, dtype=dtype, requires_grad=requires_grad, **kw)
    return _uniform(input.shape).to(dtype).requires_grad_(requires_grad)


def rand(*size, generator=None, dtype=None, requires_grad=False, **kw):
    """torch.rand(size) of a floating-point type without a generator: Philox numbers."""
    shape = size[0] if len(size) == 1 and isinstance(size[0], (list, tuple, torch.Size)) else size
    dt = dtype or torch.get_default_dtype()
    if generator is not None or not dt.is_floating_point or kw.get("out") is not None or \
            kw.get("device") not in (None, "cpu", torch.device("cpu")):
        return _TORCH["rand"](*size, generator=generator, dtype=dtype,
                              requires_grad=requires_grad, **kw)
    return _uniform(shape).to(dt).requires_grad_(requires_grad)


# what philox_random replaces: (owner, attribute, replacement)
_PATCHES = ((F, "dropout", None), (torch.Tensor, "bernoulli_", bernoulli_),
            (torch, "bernoulli", bernoulli), (torch, "rand_like", rand_like),
            (torch, "rand", rand))
_TORCH = {name: getattr(owner, name) for owner, name, _ in _PATCHES}


def dropout(input, p=0.5, training=True, inplace=False):
    """F.dropout drawing remat's Philox (inplace is not honoured: the result is new)."""
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0.0
    keep = 1.0 - p
    blocks = (input.numel() + 3) // 4
    st = torch.ops.remat.philox_state(blocks)
    u = torch.ops.remat.philox_uniform(st, list(input.shape))
    mask = u < keep
    return input * mask / keep


@contextlib.contextmanager
def philox_random(seed=0, offset=0):
    """Under this context F.dropout (nn.Dropout), Tensor.bernoulli_ (stochastic depth),
    torch.bernoulli, torch.rand_like and torch.rand draw remat's Philox from (seed,
    offset), the offset advancing by each draw's blocks, so a backward recomputes their
    masks; on exit they are torch's again. The offset reached is readable as `state()`
    inside the context."""
    _state.stack.append([int(seed), int(offset)])
    saved = [getattr(owner, name) for owner, name, _ in _PATCHES]
    for owner, name, fn in _PATCHES:
        setattr(owner, name, fn or dropout)
    try:
        yield
    finally:
        for (owner, name, _), fn in zip(_PATCHES, saved):
            setattr(owner, name, fn)
        _state.stack.pop()


philox_dropout = philox_random   # its first name, when it covered dropout alone


def state():
    """(seed, offset) of the innermost active philox_dropout."""
    if not _state.stack:
        raise RuntimeError("no active remat_torch.philox_dropout()")
    return tuple(_state.stack[-1])
