"""Training loops under AOT autograd with a chosen partitioner, for the training-equivalence
tests (test/torch) and the bench (bench/torch_train.py).

Setups:
- "remat":   aot_module with remat_torch.partition_fn (options through `options`);
- "mincut":  aot_module with torch's min_cut_rematerialization_partition;
- "default": aot_module with torch's default_partition;
- "eager":   the module itself, under `decomposed()`: every op the compiled setups
             decompose (remat_torch.decompositions()) is decomposed the same way at
             dispatch, so eager runs the same ATen kernels as the compiled graphs;
- "eager-native": the module itself, torch's own kernels (layer_norm, addmm, ...).
All compiled setups trace with the same decompositions. Dropout draws remat's Philox
under philox_dropout(seed) in every setup.
"""
import copy
import functools
import time

import torch
from functorch.compile import (aot_module, default_partition, make_boxed_func,
                               min_cut_rematerialization_partition)
from torch.utils._python_dispatch import TorchDispatchMode

from . import aot, dropout

SETUPS = ("remat", "mincut", "default", "eager", "eager-native")


def _silu_backward(grad, x):
    """torch's infinitely_differentiable_silu_backward (FunctionsManual.cpp)."""
    sigmoid = torch.sigmoid(x)
    return grad * (sigmoid * (1 + x * (1 - sigmoid)))


class decomposed(TorchDispatchMode):
    """Eager torch with remat_torch.decompositions() applied at dispatch (forward and
    backward), so its kernels are the compiled graphs' kernels."""

    def __init__(self):
        super().__init__()
        self.table = aot.decompositions()
        # autograd's SiLU formula depends on grad mode: AOT autograd traces the backward
        # with grad mode on and records infinitely_differentiable_silu_backward (sigmoid by
        # torch.sigmoid), eager backward runs with it off and calls silu_backward (whose
        # decomposition computes 1 / (1 + exp(-x)), other last bits); use the traced one.
        self.table[torch.ops.aten.silu_backward.default] = _silu_backward

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        f = self.table.get(func)
        if f is not None:
            with self:    # the decomposition's own ops are decomposed too, as make_fx does
                r = f(*args, **kwargs)
            if r is not NotImplemented:
                return r
        return func(*args, **kwargs)


def _nop(gm, _):
    return make_boxed_func(gm)


class Capture:
    """A compiler that keeps the forward GraphModule and counts the saved tensors' bytes
    at run time (the forward's outputs after the model's own): all of them, and the
    memory the activations keep alive (the bytes of each storage a saved tensor holds,
    once, other than the forward's inputs': a saved parameter or input, or a view of one,
    costs no memory of its own, and two views of one buffer cost it once)."""

    def __init__(self):
        self.fwd = None
        self.bwd = None
        self.num_outputs = None
        self.saved_bytes = []       # per forward call
        self.activation_bytes = []  # per forward call

    def fw(self, gm, _):
        self.fwd = gm
        out = next(n for n in gm.graph.nodes if n.op == "output")
        k = self.num_outputs

        def run(args):
            ins = {a.storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
            res = gm(*args)
            if k is not None:
                saved = [t for t in res[k:] if isinstance(t, torch.Tensor)]
                self.saved_bytes.append(sum(t.numel() * t.element_size() for t in saved))
                held = {t.storage().data_ptr(): t.storage().nbytes() for t in saved}
                self.activation_bytes.append(sum(n for p, n in held.items() if p not in ins))
            return res
        run._boxed_call = True
        del out
        return run

    def bw(self, gm, _):
        self.bwd = gm
        return make_boxed_func(gm)


def compile_model(model, setup, options=None, capture=None, stats=None, num_outputs=1):
    """model compiled for `setup` (or returned as is for the eager ones)."""
    if setup.startswith("eager"):
        return model
    if setup == "remat":
        part = functools.partial(aot.partition_fn, stats=stats, **(options or {}))
    elif setup == "mincut":
        part = min_cut_rematerialization_partition
    elif setup == "default":
        part = default_partition
    else:
        raise ValueError(setup)
    if stats is not None and setup != "remat":
        inner = part

        def part(gm, inputs):
            t0 = time.perf_counter()
            r = inner(gm, inputs)
            stats["seconds"] = time.perf_counter() - t0
            return r
    if capture is not None:
        capture.num_outputs = num_outputs
        return aot_module(model, fw_compiler=capture.fw, bw_compiler=capture.bw,
                          partition_fn=part, decompositions=aot.decompositions())
    return aot_module(model, fw_compiler=_nop, bw_compiler=_nop, partition_fn=part,
                      decompositions=aot.decompositions())


def loss_of(out):
    out = out[0] if isinstance(out, (tuple, list)) else out
    return (out.float() ** 2).mean()


def train(model, inputs, setup, steps=10, optimizer="sgd", seed=0, options=None,
          lr=0.05, stats=None, loss=None, capture=None):
    """Trains a deep copy of `model` for `steps` steps; returns (losses, parameters).
    loss: the loss of the model's output (default loss_of); capture: a Capture."""
    loss_fn = loss or loss_of
    model = copy.deepcopy(model)
    inputs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    f = compile_model(model, setup, options, stats=stats, capture=capture)
    params = [p for p in model.parameters()]
    opt = (torch.optim.AdamW(params, lr=lr) if optimizer == "adamw"
           else torch.optim.SGD(params, lr=lr))
    losses = []
    with dropout.philox_dropout(seed):
        for _ in range(steps):
            opt.zero_grad(set_to_none=True)
            if setup == "eager":
                with decomposed():
                    value = loss_fn(f(*inputs))
                    value.backward()
            else:
                value = loss_fn(f(*inputs))
                value.backward()
            opt.step()
            losses.append(value.detach().clone())
    return torch.stack(losses), [p.detach().clone() for p in model.parameters()]


def max_diff(a, b):
    """Largest |a - b| over two lists of tensors (0.0 when bit-identical)."""
    return max(float((x.double() - y.double()).abs().max()) for x, y in zip(a, b))


def bit_identical(a, b):
    return all(torch.equal(x, y) for x, y in zip(a, b))
