"""partition_fn's keywords, checked before any work (docs/importer.md, "Options").

Every option of --remat-mincut in snake case, the options of --remat-checkpoint (as the
dict or option text of `checkpoint`), and partition_fn's own (`fallback`, `stats`,
`sink`). A wrong type is a TypeError, a value out of range a ValueError, each one line
naming the option; an unknown name is a TypeError listing the valid ones. Values that
only remat's option parser knows (ban and save-ops entries) are checked by building the
passes (binding.check_passes) before the graph is touched."""
import math
import numbers
import os

# kind: "bool", "real>=0", "int>=0", "int>=1", "int>=-1", "names" (a string or a list of
# strings: op and kind names), "file" (a path; "-": the report to stats/stderr), or a
# tuple of the allowed strings
MINCUT = {
    "scalar_factor": "real>=0",
    "params_free": "bool",
    "ban": "names",
    "ban_random": "bool",
    "reduction_ratio": "int>=0",
    "objective": ("bytes", "peak"),
    "peak_budget": "int>=0",
    "peak_search": ("auto", "exact", "heuristic", "enumerate"),
    "report": "file",
    "dot": "file",
    "timeline": "file",
    "dump_network": "file",
}
CHECKPOINT = {
    "ac": "ac",
    "fsdp": ("recompute", "save", "off"),
    "save_ops": "names",
    "always_save": "names",
    "save_every": "int>=1",
    "memory_budget": "int>=-1",
    "budget_greedy": "bool",
    "budget_dump": "file",
    "report": "file",
}
OWN = ("checkpoint", "fallback", "stats", "sink")
FALLBACKS = ("error", "torch", "default")
INT64_MAX = 2**63 - 1
TORCH_REDUCTION_RATIO = 4


def _what(value):
    return f"{value!r} ({type(value).__name__})"


def check_value(option, kind, value):
    """Raises TypeError/ValueError unless `value` is of `kind` (the table above)."""
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError(f"partition_fn: {option} must be True or False, got {_what(value)}")
    elif kind == "real>=0" or kind == "ac" and not isinstance(value, str):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"partition_fn: {option} must be a number"
                            f"{' or auto/none' if kind == 'ac' else ''}, got {_what(value)}")
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"partition_fn: {option} must be a finite number >= 0, got {value!r}")
    elif kind == "ac":
        if value not in ("auto", "none"):
            raise ValueError(f"partition_fn: {option} must be 'auto', 'none' or a number of "
                             f"GiB, got {value!r}")
    elif isinstance(kind, str) and kind.startswith("int>="):
        lo = int(kind[5:])
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"partition_fn: {option} must be an int, got {_what(value)}")
        if not lo <= value <= INT64_MAX:
            raise ValueError(f"partition_fn: {option} must be an int in [{lo}, 2^63), "
                             f"got {value!r}")
    elif kind == "names":
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
            raise TypeError(f"partition_fn: {option} must be a string or a list of strings, "
                            f"got {_what(value)}")
        if not items or any(not x.strip() or '"' in x for x in items):
            raise ValueError(f"partition_fn: {option} needs op or kind names, got {value!r}")
    elif kind == "file":
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"partition_fn: {option} must be a path (str), got {_what(value)}")
        if '"' in os.fspath(value) or "\n" in os.fspath(value):
            raise ValueError(f"partition_fn: {option}: a path with a quote or a newline, "
                             f"{os.fspath(value)!r}")
    else:
        if not isinstance(value, str):
            raise TypeError(f"partition_fn: {option} must be one of {', '.join(kind)}, "
                            f"got {_what(value)}")
        if value not in kind:
            raise ValueError(f"partition_fn: {option} must be one of {', '.join(kind)}, "
                             f"got {value!r}")


def _plain(value):
    return os.fspath(value) if isinstance(value, os.PathLike) else value


def passes(checkpoint, fallback, stats, sink, mincut):
    """The checked options as binding's pass list [(argument, {option: value} or text)]."""
    unknown = sorted(set(mincut) - set(MINCUT))
    if unknown:
        raise TypeError(f"partition_fn: unknown option{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(unknown)}; it takes {', '.join(MINCUT)} "
                        f"(--remat-mincut), {', '.join(OWN)}")
    for name, value in mincut.items():
        check_value(name, MINCUT[name], value)
    check_value("fallback", FALLBACKS, fallback)
    check_value("sink", "bool", sink)
    if stats is not None and not isinstance(stats, dict):
        raise TypeError(f"partition_fn: stats must be a dict (or None), got {_what(stats)}")
    out = []
    if checkpoint not in (None, False, ""):
        if checkpoint is True:
            checkpoint = {}
        if isinstance(checkpoint, dict):
            bad = sorted(k for k in checkpoint if k not in CHECKPOINT)
            if bad:
                raise TypeError(f"partition_fn: unknown checkpoint option"
                                f"{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad))}; "
                                f"--remat-checkpoint takes {', '.join(CHECKPOINT)}")
            for name, value in checkpoint.items():
                check_value(f"checkpoint {name}", CHECKPOINT[name], value)
            checkpoint = {k: _plain(v) for k, v in checkpoint.items()}
        elif not isinstance(checkpoint, str):
            raise TypeError("partition_fn: checkpoint must be None, True, a dict of "
                            "--remat-checkpoint options or their text ('ac=auto'), got "
                            f"{_what(checkpoint)}")
        out.append(("remat-checkpoint", checkpoint))
    # torch's min-cut recomputes a reduction that shrinks its input at most 4x: so does
    # partition_fn unless told otherwise (docs/importer.md, "Options")
    mincut = {"reduction_ratio": TORCH_REDUCTION_RATIO, **mincut}
    out.append(("remat-mincut", {k: _plain(v) for k, v in mincut.items()}))
    return out
