"""remat-run's text format (docs/design.md, Runtime): per value a type as MLIR prints
it (`tensor<2x2xf32>`, `i64`) and its elements in row-major order; `#` comments."""
import re

import numpy as np

_TYPE = re.compile(r"^(tensor<([0-9x]*?)x?(f32|f16|bf16|f64|i1|i8|i32|i64)>|f32|f64|i64|i32|i1)$")
NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i1": np.bool_,
      "i8": np.int8, "i32": np.int32, "i64": np.int64}


def parse_type(tok):
    m = _TYPE.match(tok)
    if not m:
        return None
    if m.group(3) is None:
        return None, tok
    dims = m.group(2)
    shape = tuple(int(d) for d in dims.split("x") if d) if dims else ()
    return shape, m.group(3)


def _fmt(x, elem):
    if elem == "f64":
        return "%.17g" % float(x)
    if elem in ("f32", "f16", "bf16"):
        return "%.9g" % float(x)
    return str(int(x))


def type_str(shape, elem):
    if shape is None:
        return elem
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def write(path, values, comments=None):
    """values: list of (shape or None, elem, numpy array or Python number)."""
    with open(path, "w") as f:
        for k, (shape, elem, data) in enumerate(values):
            if comments:
                f.write(f"# {comments[k]}\n")
            f.write(type_str(shape, elem))
            flat = np.asarray(data).reshape(-1)
            row = shape[-1] if shape else 1
            for i, x in enumerate(flat):
                f.write("\n  " if row and i % row == 0 and len(flat) > row else " ")
                f.write(_fmt(x, elem))
            f.write("\n")


def read(path):
    """[(shape or None, elem, float64/int64 numpy array)] in file order."""
    out = []
    with open(path) as f:
        toks = []
        for line in f:
            toks.extend(line.split("#", 1)[0].split())
    cur = None
    for t in toks:
        ty = parse_type(t)
        if ty is not None:
            cur = [ty[0], ty[1], []]
            out.append(cur)
            continue
        if cur is None:
            raise ValueError(f"{path}: value '{t}' before any type")
        cur[2].append(float(t) if cur[1] in ("f32", "f16", "bf16", "f64") else int(t, 0))
    res = []
    for shape, elem, vals in out:
        dt = np.float64 if elem in ("f32", "f16", "bf16", "f64") else np.int64
        arr = np.array(vals, dtype=dt)
        res.append((shape, elem, arr.reshape(shape) if shape is not None else arr))
    return res


def compare(got, want, rtol, atol, names=None):
    """Elementwise |got - want| <= atol + rtol * |want| per value (NaN equal to NaN,
    infinities equal by sign). Returns (ok, lines)."""
    lines, ok = [], True
    if len(got) != len(want):
        return False, [f"{len(got)} values, expected {len(want)}"]
    for k, ((gs, ge, g), (ws, we, wv)) in enumerate(zip(got, want)):
        label = names[k] if names else f"#{k}"
        if gs != ws or ge != we:
            ok = False
            lines.append(f"{label}: type {type_str(gs, ge)}, expected {type_str(ws, we)}")
            continue
        g = np.asarray(g, dtype=np.float64)
        wv = np.asarray(wv, dtype=np.float64)
        both_nan = np.isnan(g) & np.isnan(wv)
        same = (g == wv) | both_nan
        err = np.where(same, 0.0, np.abs(g - wv))
        err = np.where(np.isnan(err), np.inf, err)
        bound = atol + rtol * np.abs(wv)
        bad = int(np.sum(err > bound))
        maxabs = float(err.max()) if err.size else 0.0
        used = float((err / bound).max()) if err.size else 0.0
        status = "ok" if bad == 0 else f"MISMATCH ({bad} of {err.size})"
        if bad:
            ok = False
        lines.append(f"{label}: {type_str(ws, we)} max abs err {maxabs:.3g}, "
                     f"{100 * used:.3g}% of the bound: {status}")
    return ok, lines
