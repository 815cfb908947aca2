"""rt.conv and its gradients run by remat-run (PATH) against torch's CPU convolution
(within a few f32 ulps of the largest term) and against a plain loop in the order
docs/design.md ("Convolution") fixes (bit for bit), in 1, 2 and 3 spatial dims with
stride, padding, dilation and groups, f32 and f64, on normal values and on values
spanning 1e-30..1e30 with subnormals. One line per op and case; exit 1 on a failure."""
import itertools
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

CASES = [  # x shape, w shape, stride, padding, dilation, groups
    ((2, 4, 5, 6), (6, 2, 3, 2), (2, 1), (1, 1), (1, 2), 2),
    ((1, 3, 7), (4, 3, 3), (2,), (1,), (1,), 1),
    ((2, 2, 3, 4, 3), (2, 1, 2, 2, 2), (1, 1, 2), (1, 0, 1), (1, 1, 1), 2),
    ((3, 8, 6, 6), (8, 1, 3, 3), (1, 1), (1, 1), (1, 1), 8),
    ((2, 5, 4, 4), (7, 5, 1, 1), (1, 1), (0, 0), (1, 1), 1),
    ((1, 17, 3, 3), (19, 17, 3, 3), (1, 1), (1, 1), (1, 1), 1),  # more than 16 columns
]


def ty(shape, el):
    return "tensor<" + "x".join(map(str, shape)) + "x" + el + ">"


def text(a, el):
    return ty(a.shape, el) + " " + " ".join(repr(float(v)) for v in a.ravel())


def run(op, a, b, out_shape, attrs, el, work):
    mod = (f"func.func @f(%a: {ty(a.shape, el)}, %b: {ty(b.shape, el)}) -> {ty(out_shape, el)} {{\n"
           f'  %y = "{op}"(%a, %b) {{{attrs}}} : ({ty(a.shape, el)}, {ty(b.shape, el)}) -> '
           f"{ty(out_shape, el)}\n  return %y : {ty(out_shape, el)}\n}}\n")
    with open(work + "/m.mlir", "w") as f:
        f.write(mod)
    with open(work + "/in.txt", "w") as f:
        f.write(text(a, el) + "\n" + text(b, el) + "\n")
    subprocess.run(["remat-run", work + "/m.mlir", "--fn", "f", "--inputs", work + "/in.txt",
                    "--outputs", work + "/out.txt", "--print=none"], check=True)
    vals = open(work + "/out.txt").read().split()[1:]
    return np.array([float(v) for v in vals], dtype=a.dtype).reshape(out_shape)


def geometry(xs, ws, st, pd, dl):
    out = [(xs[2 + k] + 2 * pd[k] - dl[k] * (ws[2 + k] - 1) - 1) // st[k] + 1
           for k in range(len(st))]
    return out


def loops(kind, a, b, xs, ws, ys, st, pd, dl, g):
    """The order of docs/design.md, one element at a time, in the accumulation type."""
    T = a.dtype.type
    n = len(st)
    C, O = xs[1], ws[0]
    Cg, Og = C // g, O // g
    ks = list(itertools.product(*[range(k) for k in ws[2:]]))
    outs = list(itertools.product(*[range(o) for o in ys[2:]]))

    def src(p, q):  # input position read by output p at kernel position q, or None
        i = tuple(p[d] * st[d] - pd[d] + q[d] * dl[d] for d in range(n))
        return i if all(0 <= i[d] < xs[2 + d] for d in range(n)) else None

    if kind == "conv":
        x, w = a, b
        y = np.zeros(ys, dtype=a.dtype)
        for bb, o, p in itertools.product(range(xs[0]), range(O), outs):
            acc = T(0)
            for c in range(Cg):
                for q in ks:
                    i = src(p, q)
                    v = x[(bb, (o // Og) * Cg + c) + i] if i else T(0)
                    acc = T(acc + T(v * w[(o, c) + q]))
            y[(bb, o) + p] = acc
        return y
    if kind == "grad_input":
        dy, w = a, b
        dx = np.zeros(xs, dtype=a.dtype)
        ins = list(itertools.product(*[range(s) for s in xs[2:]]))
        for bb, ci, i in itertools.product(range(xs[0]), range(C), ins):
            gr, c = divmod(ci, Cg)
            acc = T(0)
            for q in ks:
                t = [i[d] + pd[d] - q[d] * dl[d] for d in range(n)]
                if not all(t[d] >= 0 and t[d] % st[d] == 0 and t[d] // st[d] < ys[2 + d]
                           for d in range(n)):
                    continue  # no output position reads i at q: no term
                p = tuple(t[d] // st[d] for d in range(n))
                part = T(0)
                for o in range(gr * Og, (gr + 1) * Og):
                    part = T(part + T(dy[(bb, o) + p] * w[(o, c) + q]))
                acc = T(acc + part)
            dx[(bb, ci) + i] = acc
        return dx
    x, dy = a, b
    dw = np.zeros(ws, dtype=a.dtype)
    for o, c, q in itertools.product(range(O), range(Cg), ks):
        acc = T(0)
        for bb in range(xs[0]):
            for p in outs:
                i = src(p, q)
                v = x[(bb, (o // Og) * Cg + c) + i] if i else T(0)
                acc = T(acc + T(v * dy[(bb, o) + p]))
        dw[(o, c) + q] = acc
    return dw


def main():
    rng = np.random.default_rng(0)
    bad = 0
    work = tempfile.mkdtemp()
    with np.errstate(all="ignore"):
        for (dt, el), values in itertools.product([(np.float32, "f32"), (np.float64, "f64")],
                                                  ["normal", "wide"]):
            for xs, ws, st, pd, dl, g in CASES:
                ys = (xs[0], ws[0], *geometry(xs, ws, st, pd, dl))
                draw = (lambda s: rng.standard_normal(s)) if values == "normal" else \
                    (lambda s: rng.choice([-1, 1], s) * 10.0 ** rng.uniform(-30, 30, s) *
                     (rng.random(s) < 0.9))
                x, w, gy = (draw(s).astype(dt) for s in (xs, ws, ys))
                if values == "wide" and dt == np.float32:
                    x.flat[0] = np.float32(1e-40)  # a subnormal
                attrs = (f"stride = array<i64: {', '.join(map(str, st))}>, "
                         f"padding = array<i64: {', '.join(map(str, pd))}>, "
                         f"dilation = array<i64: {', '.join(map(str, dl))}>, groups = {g} : i64")
                conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[len(st)]
                tx = torch.tensor(x, requires_grad=True)
                tw = torch.tensor(w, requires_grad=True)
                ty_ = conv(tx, tw, None, st, pd, dl, g)
                ty_.backward(torch.tensor(gy))
                for kind, op, a, b, shape, want in [
                        ("conv", "rt.conv", x, w, ys, ty_.detach().numpy()),
                        ("grad_input", "rt.conv_grad_input", gy, w, xs, tx.grad.numpy()),
                        ("grad_weight", "rt.conv_grad_weight", x, gy, ws, tw.grad.numpy())]:
                    got = run(op, a, b, shape, attrs, el, work)
                    ref = loops(kind, a, b, xs, ws, ys, st, pd, dl, g)
                    exact = np.array_equal(got.view(np.uint8), ref.view(np.uint8))
                    scale = float(np.abs(want).max()) or 1.0
                    err = float(np.abs(got.astype(np.float64) - want).max()) / scale
                    tol = 64 * np.finfo(dt).eps
                    ok = exact and (values == "wide" or err <= tol)
                    bad += not ok
                    print(f"{el} {values} x{list(xs)} w{list(ws)} {kind}: "
                          f"{'bit-exact' if exact else 'DIFFERENT'} against the loops, "
                          f"{err:.1e} of max |torch|{'' if values == 'normal' else ' (not bounded)'}: "
                          f"{'ok' if ok else 'FAILED'}")
    print(f"conv_torch: {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
