#!/usr/bin/env python3
"""Writes a joint forward+backward function of about N ops (a long chain) for the
--remat-mincut benchmark.

Each layer i of the forward is one of
  residual:  x' = x + tanh(x * c)                     (3 ops; backward reads 1 - tanh^2)
  dropout:   x' = x * convert(philox(seed, off + i) < 0.5) * 2   (every --dropout-every)
  matmul:    x' = x W, W an rt.param (banned)          (every --matmul-every)
and the backward walks the layers in reverse with the chain rule, so every forward value
is a candidate and the backward reads one value per layer. Usage:

  bench/gen_chain.py 100000 > /tmp/chain.mlir
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ops", type=int, help="approximate number of ops in the function")
    ap.add_argument("--shape", default="64x512")
    ap.add_argument("--dropout-every", type=int, default=8)
    ap.add_argument("--matmul-every", type=int, default=16)
    a = ap.parse_args()

    rows, cols = (int(d) for d in a.shape.split("x"))
    T = f"tensor<{rows}x{cols}xf32>"
    M = f"tensor<{rows}x{cols}xi1>"
    W = f"tensor<{cols}x{cols}xf32>"
    out = []
    emit = out.append
    fwd_ops_per = {"residual": 3 + 5, "dropout": 6 + 2, "matmul": 1 + 2}
    kinds = []
    total = 6  # constants
    i = 0
    while total < a.ops:
        if a.matmul_every and i % a.matmul_every == a.matmul_every - 1:
            k = "matmul"
        elif a.dropout_every and i % a.dropout_every == a.dropout_every - 1:
            k = "dropout"
        else:
            k = "residual"
        kinds.append(k)
        total += fwd_ops_per[k]
        i += 1

    emit(f"func.func @chain(%x0: {T}, %w: {W} {{rt.param}}, %seed: i64, %off: i64,")
    emit(f"                 %g: {T} {{rt.tangent}}) -> ({T}, {T})")
    emit("    attributes {rt.num_outputs = 1 : i64} {")
    emit("  %c = arith.constant 5.000000e-01 : f32")
    emit("  %one = arith.constant 1.000000e+00 : f32")
    emit("  %two = arith.constant 2.000000e+00 : f32")
    emit("  %half = arith.constant 5.000000e-01 : f32")
    emit("  %step = arith.constant 1 : i64")
    emit(f'  %wt = "rt.transpose"(%w) {{perm = array<i64: 1, 0>}} : ({W}) -> {W}')
    last_off = "%off"  # each dropout layer uses the next Philox offset
    for i, k in enumerate(kinds):
        x, y = f"%x{i}", f"%x{i + 1}"
        if k == "residual":
            emit(f'  %a{i} = "rt.mul"({x}, %c) : ({T}, f32) -> {T}')
            emit(f'  %t{i} = "rt.tanh"(%a{i}) : ({T}) -> {T}')
            emit(f'  {y} = "rt.add"({x}, %t{i}) : ({T}, {T}) -> {T}')
        elif k == "dropout":
            emit(f"  %o{i} = arith.addi {last_off}, %step : i64")
            last_off = f"%o{i}"
            emit(f'  %r{i} = "rt.uniform_philox"(%seed, %o{i}) {{lo = 0.0 : f64, hi = 1.0 : f64}} '
                 f": (i64, i64) -> {T}")
            emit(f'  %m{i} = "rt.lt"(%r{i}, %half) : ({T}, f32) -> {M}')
            emit(f'  %mf{i} = "rt.convert"(%m{i}) : ({M}) -> {T}')
            emit(f'  %d{i} = "rt.mul"({x}, %mf{i}) : ({T}, {T}) -> {T}')
            emit(f'  {y} = "rt.mul"(%d{i}, %two) : ({T}, f32) -> {T}')
        else:
            emit(f'  {y} = "rt.matmul"({x}, %w) : ({T}, {W}) -> {T}')
    n = len(kinds)
    emit(f"  %gx{n} = \"rt.mul\"(%g, %one) : ({T}, f32) -> {T}")
    for i in reversed(range(n)):
        k = kinds[i]
        g, gp = f"%gx{i + 1}", f"%gx{i}"
        if k == "residual":
            emit(f'  %tt{i} = "rt.mul"(%t{i}, %t{i}) : ({T}, {T}) -> {T}')
            emit(f'  %om{i} = "rt.sub"(%one, %tt{i}) : (f32, {T}) -> {T}')
            emit(f'  %ga{i} = "rt.mul"({g}, %om{i}) : ({T}, {T}) -> {T}')
            emit(f'  %gc{i} = "rt.mul"(%ga{i}, %c) : ({T}, f32) -> {T}')
            emit(f'  {gp} = "rt.add"({g}, %gc{i}) : ({T}, {T}) -> {T}')
        elif k == "dropout":
            emit(f'  %gd{i} = "rt.mul"({g}, %two) : ({T}, f32) -> {T}')
            emit(f'  {gp} = "rt.mul"(%gd{i}, %mf{i}) : ({T}, {T}) -> {T}')
        else:
            emit(f'  {gp} = "rt.matmul"({g}, %wt) : ({T}, {W}) -> {T}')
    emit(f"  return %x{n}, %gx0 : {T}, {T}")
    emit("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
