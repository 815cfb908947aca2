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


# Unit roundoff u = 2^-p of the 16-bit float types (p: significand bits, the implicit one
# included): bf16 has p = 8, f16 p = 11.
UNIT_ROUNDOFF = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}
# The low-precision bound is LOW_ULPS * u * (|want| + max |want| of the value): see
# low_precision_bound.
LOW_ULPS = 8


def low_precision_bound(want, elem):
    """The bound for one bf16 or f16 value (docs/importer.md, "bf16 and f16"):
    8 u (|want| + max|want|), u the type's unit roundoff. The element-wise term is the
    final rounding of each side to the type (u |x| each) with room for the rounding of
    the operands it was computed from; the term in the value's largest magnitude covers
    the sums inside matmuls and reductions, whose rounding error scales with the
    magnitude of the summed terms, not of the (possibly cancelling) result: rt sums in
    f32 and rounds once, torch 1.13's bf16 CPU kernels round partial sums to bf16."""
    m = float(np.abs(want).max()) if want.size else 0.0
    return LOW_ULPS * UNIT_ROUNDOFF[elem] * (np.abs(want) + m)


def tolerance_text(elems, rtol, atol):
    """How the check states its bound: the f32/f64 rule, plus the 16-bit rule when a
    value of such a type is compared."""
    text = f"{atol:g} + {rtol:g} |torch|"
    low = sorted(e for e in set(elems) if e in UNIT_ROUNDOFF)
    if low:
        text += (f" (f32, f64); {LOW_ULPS} u (|torch| + max|torch|) for " +
                 ", ".join(f"{e} (u = 2^{int(np.log2(UNIT_ROUNDOFF[e]))})" for e in low))
    return text


def compare(got, want, rtol, atol, names=None, low_precision=True):
    """Elementwise |got - want| <= atol + rtol * |want| per value (NaN equal to NaN,
    infinities equal by sign); bf16 and f16 values: low_precision_bound (unless
    low_precision is False: then the atol/rtol rule for every value). Returns (ok, lines)."""
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
        finite = np.where(np.isfinite(wv), wv, 0.0)
        bound = (low_precision_bound(finite, we) if low_precision and we in UNIT_ROUNDOFF
                 else atol + rtol * np.abs(wv))
        bound = np.where(bound > 0, bound, atol)
        bad = int(np.sum(err > bound))
        maxabs = float(err.max()) if err.size else 0.0
        used = float((err / bound).max()) if err.size else 0.0
        status = "ok" if bad == 0 else f"MISMATCH ({bad} of {err.size})"
        if bad:
            ok = False
        lines.append(f"{label}: {type_str(ws, we)} max abs err {maxabs:.3g}, "
                     f"{100 * used:.3g}% of the bound: {status}")
    return ok, lines
