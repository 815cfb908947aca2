#!/usr/bin/env python3
"""Writes an FSDP MLP in rt IR, sharded and unsharded, as joint forward+backward functions.

    gen_fsdp.py --ranks N [--dims 32,64,64,32] [--batch 8] [--name mlp]
                [--layout blocks|interleaved] --sharded FILE --unsharded FILE

The model: h0 = x; for each layer l, h(l+1) = tanh(bf16(h l) @ bf16(W l)) in f32, the
matmul in bf16 (the casts of mixed precision); the output is h(L). The backward is the
exact gradient for an output cotangent g: dy = g (1 - h^2), dW = bf16(h)^T dy,
dh = dy W^T, with the bf16 casts where the forward had them.

Sharded (FSDP, ZeRO-3): each rank holds rows [r D/N, (r+1) D/N) of every W l (an
rt.param shard); the forward casts its shard to bf16, all-gathers it (group "dp",
group_size N, dim 0) and waits; the backward reduce-scatters (sum) the f32 weight
gradient so each rank keeps its rows. The input x and the cotangent are replicated.

Unsharded (the same model data-parallel without sharding, as DDP): whole W l
(rt.param), no gather, and the weight gradient all-reduced (sum) over the N replicas.
With replicated inputs both compute the same numbers, bit for bit, when reductions run
in rank order (remat-run's deterministic reduction): that is what
`remat-run --check-sharded` checks.

--layout interleaved writes a sharded module that is wrong on purpose: it treats the
gathered weight as if rank r held rows r, r+N, r+2N... (reshape, transpose, reshape
after the gather, and the inverse before the reduce-scatter). It is a consistent FSDP
program under that convention, but not the layout the unsharded reference (and the
check) uses, so the check must fail on it.

Gradients are returned in argument order (dx, then dW 0..L-1), the order
remat-run --check-fd and --check-sharded associate gradients with arguments.
"""
import argparse


def ty(shape, elem):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + elem + ">"


class Writer:
    def __init__(self):
        self.lines = []
        self.n = 0

    def op(self, name, operands, in_types, out_type, attrs=""):
        self.n += 1
        v = f"%v{self.n}"
        a = f" {{{attrs}}}" if attrs else ""
        self.lines.append(f"  {v} = \"rt.{name}\"({', '.join(operands)}){a} : "
                          f"({', '.join(in_types)}) -> {out_type}")
        return v


def gen(ranks, dims, batch, name, sharded, layout):
    L = len(dims) - 1
    n = ranks
    for d in dims[:-1]:
        if d % n:
            raise SystemExit(f"gen_fsdp.py: layer input width {d} is not divisible by {n}")
    w = Writer()
    f32, bf16 = "f32", "bf16"
    group = f'group = "dp", group_size = {n} : i64'
    args = [f"%x: {ty([batch, dims[0]], f32)}"]
    wshape = []
    for l in range(L):
        full = [dims[l], dims[l + 1]]
        shape = [dims[l] // n, dims[l + 1]] if sharded else full
        wshape.append(shape)
        args.append(f"%w{l}: {ty(shape, f32)} {{rt.param}}")
    args.append(f"%g: {ty([batch, dims[L]], f32)} {{rt.tangent}}")
    results = [ty([batch, dims[L]], f32), ty([batch, dims[0]], f32)] + \
        [ty(s, f32) for s in wshape]

    def interleave(v, rows, cols, inverse):
        # rows in blocks of rows/n per rank <-> rows r, r+n, ... per rank
        a, b = (n, rows // n) if not inverse else (rows // n, n)
        t = w.op("reshape", [v], [ty([rows, cols], bf16 if not inverse else f32)],
                 ty([a, b, cols], bf16 if not inverse else f32))
        t = w.op("transpose", [t], [ty([a, b, cols], bf16 if not inverse else f32)],
                 ty([b, a, cols], bf16 if not inverse else f32), "perm = array<i64: 1, 0, 2>")
        return w.op("reshape", [t], [ty([b, a, cols], bf16 if not inverse else f32)],
                    ty([rows, cols], bf16 if not inverse else f32))

    # forward
    h, hb, ww = ["%x"], [], []
    for l in range(L):
        din, dout = dims[l], dims[l + 1]
        wc = w.op("convert", [f"%w{l}"], [ty(wshape[l], f32)], ty(wshape[l], bf16))
        if sharded:
            g = w.op("all_gather", [wc], [ty(wshape[l], bf16)], ty([din, dout], bf16),
                     f"{group}, dim = 0 : i64")
            full = w.op("wait", [g], [ty([din, dout], bf16)], ty([din, dout], bf16))
            if layout == "interleaved":
                full = interleave(full, din, dout, False)
        else:
            full = wc
        ww.append(full)
        x = w.op("convert", [h[l]], [ty([batch, din], f32)], ty([batch, din], bf16))
        hb.append(x)
        y = w.op("matmul", [x, full], [ty([batch, din], bf16), ty([din, dout], bf16)],
                 ty([batch, dout], bf16))
        yf = w.op("convert", [y], [ty([batch, dout], bf16)], ty([batch, dout], f32))
        h.append(w.op("tanh", [yf], [ty([batch, dout], f32)], ty([batch, dout], f32)))
    # backward
    gl = "%g"
    dws = [None] * L
    for l in reversed(range(L)):
        din, dout = dims[l], dims[l + 1]
        t = ty([batch, dout], f32)
        u = w.op("mul", [gl, h[l + 1]], [t, t], t)
        v = w.op("mul", [u, h[l + 1]], [t, t], t)
        dyf = w.op("sub", [gl, v], [t, t], t)
        dy = w.op("convert", [dyf], [t], ty([batch, dout], bf16))
        hbt = w.op("transpose", [hb[l]], [ty([batch, din], bf16)], ty([din, batch], bf16),
                   "perm = array<i64: 1, 0>")
        dwb = w.op("matmul", [hbt, dy], [ty([din, batch], bf16), ty([batch, dout], bf16)],
                   ty([din, dout], bf16))
        dwf = w.op("convert", [dwb], [ty([din, dout], bf16)], ty([din, dout], f32))
        if sharded:
            if layout == "interleaved":
                dwf = interleave(dwf, din, dout, True)
            rs = w.op("reduce_scatter", [dwf], [ty([din, dout], f32)], ty(wshape[l], f32),
                      f'{group}, dim = 0 : i64, reduce = "sum"')
        else:
            rs = w.op("all_reduce", [dwf], [ty([din, dout], f32)], ty([din, dout], f32),
                      f'{group}, reduce = "sum"')
        dws[l] = w.op("wait", [rs], [ty(wshape[l], f32)], ty(wshape[l], f32))
        wt = w.op("transpose", [ww[l]], [ty([din, dout], bf16)], ty([dout, din], bf16),
                  "perm = array<i64: 1, 0>")
        dhb = w.op("matmul", [dy, wt], [ty([batch, dout], bf16), ty([dout, din], bf16)],
                   ty([batch, din], bf16))
        gl = w.op("convert", [dhb], [ty([batch, din], bf16)], ty([batch, din], f32))
    rets = [h[L], gl] + dws
    kind = ("sharded over %d ranks (FSDP%s)" % (n, ", interleaved rows: WRONG on purpose"
                                               if layout == "interleaved" else "")
            if sharded else "unsharded, gradients all-reduced over %d replicas (DDP)" % n)
    head = [
        f"// Generated by examples/fsdp/gen_fsdp.py --ranks {n} "
        f"--dims {','.join(map(str, dims))} --batch {batch} --name {name}"
        + (f" --layout {layout}" if layout != "blocks" else "") + "; do not edit.",
        f"// A {L}-layer tanh MLP with bf16 matmuls, {kind}.",
        f"func.func @{name}({', '.join(args)})",
        f"    -> ({', '.join(results)}) attributes {{rt.num_outputs = 1 : i64}} {{",
    ]
    tail = [f"  return {', '.join(rets)} : {', '.join(results)}", "}", ""]
    return "\n".join(head + w.lines + tail)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--dims", default="32,64,64,32")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--name", default="mlp")
    p.add_argument("--layout", choices=["blocks", "interleaved"], default="blocks")
    p.add_argument("--sharded")
    p.add_argument("--unsharded")
    a = p.parse_args()
    dims = [int(d) for d in a.dims.split(",")]
    if len(dims) < 2 or a.ranks < 1:
        raise SystemExit("gen_fsdp.py: need --ranks >= 1 and at least two --dims")
    if a.sharded:
        with open(a.sharded, "w") as f:
            f.write(gen(a.ranks, dims, a.batch, a.name, True, a.layout))
    if a.unsharded:
        with open(a.unsharded, "w") as f:
            f.write(gen(a.ranks, dims, a.batch, a.name, False, "blocks"))


if __name__ == "__main__":
    main()
