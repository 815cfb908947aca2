"""The model zoo of remat's PyTorch importer (tools/remat-import-torch).

Each model is a module with `build(layers=1, **sizes)` returning `(module, inputs)`:
a torch.nn.Module in training mode and the example inputs it is traced with (their
shapes fix the graph; `requires_grad` says which inputs get gradients). Defaults are
small enough for the test suite; pass larger sizes for benchmarks, e.g.
`remat-import-torch gpt --layers 8 --set d=256 --set seq=128`.

Models are built under a fixed torch seed by the importer, so parameters are
reproducible. Dropout is plain `nn.Dropout`: the importer traces it as
`rand_like(x) < keep` (docs/importer.md).
"""
import importlib

NAMES = ["mlp", "gpt", "llama", "bert", "vit", "gpt_lm", "classifier"]


def get(name):
    """The zoo module `name` (it has `build(layers, **sizes)` and `DEFAULTS`)."""
    if name not in NAMES:
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")
