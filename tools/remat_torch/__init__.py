"""remat inside PyTorch and remat-import-torch.

Public names: `partition_fn` (a partition_fn for torch 1.13's aot_function / aot_module,
tools/remat_torch/aot.py), `philox_random(seed=0)`, also named `philox_dropout` (dropout,
stochastic depth's bernoulli_, rand_like and rand drawing remat's Philox, dropout.py),
`decompositions()` (the decompositions partition_fn's emitter expects),
`RematPartitionError`, and `binding` (the ctypes binding of the C API). They load on first
use, so `remat_torch.binding` works without torch.

The importer's modules: tracing (trace), the rt writer and its op table (emit), torch's
partition (partition), the equivalence check (check, philox, textio) and forward-only
reference values (expected). See docs/importer.md."""

_LAZY = {"partition_fn": "aot", "decompositions": "aot", "RematPartitionError": "aot",
         "philox_dropout": "dropout", "philox_random": "dropout"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'remat_torch' has no attribute {name!r}")


__all__ = ["partition_fn", "philox_random", "philox_dropout", "decompositions",
           "RematPartitionError"]
