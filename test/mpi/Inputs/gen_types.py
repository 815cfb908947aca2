#!/usr/bin/env python3
"""Writes a sharded and an unsharded module that exercise every collective on every
element type of rt for N ranks (test/mpi/types.test):

    gen_types.py N SHARDED UNSHARDED

@coll takes, per element type T, a shard p (tensor<1x8xT>, rt.param: a shard because it
is gathered, so --seed gives each rank its own values). The sharded function:
  all_gather of p along dim 0 and of p^T along dim 1 (whole results: P and P^T),
  all_reduce sum and max of p (whole),
  reduce_scatter of X = broadcast(p) + iota(dim 0) (tensor<Nx8xT>, rank s's row is
  p + s): sum along dim 0 and, transposed, max along dim 1 (rank s keeps row / column s).
The unsharded function computes the same from the whole P = [p_0; ...; p_N-1] with the
rank order written out: slices of P combined by rt.add / rt.max chains ((p0 + p1) + p2)
..., in f32 for f16/bf16 and rounded once, which is the collectives' documented
reduction (not rt.sum, whose order is a 256-lane tree). So remat-run --check-sharded must
find every value bit-exact."""
import sys

TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64"]


def t(shape, e):
    return "tensor<" + "x".join(map(str, shape)) + "x" + e + ">"


def body(e, n, sharded, lines, k):

    def op(name, args, ins, out, attrs=""):
        k[0] += 1
        v = f"%{e}_{k[0]}"
        a = f" {{{attrs}}}" if attrs else ""
        lines.append(f'  {v} = "rt.{name}"({", ".join(args)}){a} : ({", ".join(ins)}) -> {out}')
        return v

    g = f'group = "dp", group_size = {n} : i64'
    P, PT, row, col, RS0, RS1 = t([n, 8], e), t([8, n], e), t([1, 8], e), t([8, 1], e), \
        t([1, 8], e), t([8, 1], e)
    p = f"%p_{e}"
    if sharded:
        arg = f"{p}: {row} {{rt.param}}"
        g0 = op("wait", [op("all_gather", [p], [row], P, g + ", dim = 0 : i64")], [P], P)
        pt = op("transpose", [p], [row], col, "perm = array<i64: 1, 0>")
        g1 = op("wait", [op("all_gather", [pt], [col], PT, g + ", dim = 1 : i64")], [PT], PT)
        s = op("wait", [op("all_reduce", [p], [row], row, g + ', reduce = "sum"')], [row], row)
        m = op("wait", [op("all_reduce", [p], [row], row, g + ', reduce = "max"')], [row], row)
        b = op("broadcast", [p], [row], P, "dims = array<i64: 0, 1>")
        x = op("add", [b, op("iota", [], [], P, "dim = 0 : i64")], [P, P], P)
        r0 = op("wait", [op("reduce_scatter", [x], [P], RS0,
                            g + ', dim = 0 : i64, reduce = "sum"')], [RS0], RS0)
        xt = op("transpose", [x], [P], PT, "perm = array<i64: 1, 0>")
        r1 = op("wait", [op("reduce_scatter", [xt], [PT], RS1,
                            g + ', dim = 1 : i64, reduce = "max"')], [RS1], RS1)
        res = [(g0, P), (g1, PT), (s, row), (m, row), (r0, RS0), (r1, RS1)]
    else:
        # Rank order written out with elementwise ops: ((x0 op x1) op x2) ..., in the
        # collectives' domain (f32 for f16/bf16, rounded once at the end).
        arg = f"{p}: {P} {{rt.param}}"
        half = e in ("f16", "bf16")

        def chain(parts, shape, red):
            ty_e, ty_a = t(shape, e), t(shape, "f32" if half and red == "add" else e)
            if half and red == "add":
                parts = [op("convert", [x], [ty_e], ty_a) for x in parts]
            acc = parts[0]
            for x in parts[1:]:
                acc = op(red, [acc, x], [ty_a, ty_a], ty_a)
            return op("convert", [acc], [ty_a], ty_e) if half and red == "add" else acc

        rows = [op("slice", [p], [P], row, f"start = array<i64: {r}, 0>, limit = "
                   f"array<i64: {r + 1}, 8>, stride = array<i64: 1, 1>") for r in range(n)]
        g1 = op("transpose", [p], [P], PT, "perm = array<i64: 1, 0>")
        s = chain(rows, [1, 8], "add")
        m = chain(rows, [1, 8], "max")
        io = op("iota", [], [], P, "dim = 0 : i64")
        z = [op("add", [op("broadcast", [x], [row], P, "dims = array<i64: 0, 1>"), io],
                [P, P], P) for x in rows]
        r0 = chain(z, [n, 8], "add")
        r1 = op("transpose", [chain(z, [n, 8], "max")], [P], PT, "perm = array<i64: 1, 0>")
        res = [(p, P), (g1, PT), (s, row), (m, row), (r0, P), (r1, PT)]
    return arg, res


def func(n, sharded):
    lines, args, res = [], [], []
    for e in TYPES:
        a, r = body(e, n, sharded, lines, [0])
        args.append(a)
        res += r
    rets = ", ".join(v for v, _ in res)
    rtys = ", ".join(ty for _, ty in res)
    return ([f"func.func @coll({', '.join(args)})", f"    -> ({rtys})",
             f"    attributes {{rt.num_outputs = {len(res)} : i64}} {{"] + lines +
            [f"  return {rets} : {rtys}", "}"])


def main():
    n, sharded, unsharded = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    for path, sh in ((sharded, True), (unsharded, False)):
        with open(path, "w") as f:
            f.write("\n".join(func(n, sh)) + "\n")


if __name__ == "__main__":
    main()
