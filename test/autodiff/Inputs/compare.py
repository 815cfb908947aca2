#!/usr/bin/env python3
"""Compares two remat-run --outputs files value by value.

usage: compare.py A B [--rtol R] [--atol A]
Every element must satisfy |a - b| <= atol + rtol * |b| (NaNs must match); types and
shapes must be equal. Prints one line per value (max abs error, max relative error, max
distance in f32 ulps) and exits 1 on a mismatch."""
import math
import struct
import sys


def read(path):
    """Values of an outputs file: [(type, [floats])], '#' comments and blank space free."""
    toks = []
    for line in open(path):
        toks += line.split('#')[0].split()
    vals = []
    for t in toks:
        if t.startswith('tensor<') or t in ('i1', 'i32', 'i64', 'f32', 'f64', 'f16', 'bf16'):
            vals.append((t, []))
        else:
            vals[-1][1].append(float(t))
    return vals


def ulp_f32(a, b):
    def key(x):
        i = struct.unpack('<i', struct.pack('<f', x))[0]
        return i if i >= 0 else -(i & 0x7fffffff)
    return abs(key(a) - key(b))


def main():
    args = sys.argv[1:]
    rtol, atol = 1e-5, 1e-6
    if '--rtol' in args:
        i = args.index('--rtol'); rtol = float(args[i + 1]); del args[i:i + 2]
    if '--atol' in args:
        i = args.index('--atol'); atol = float(args[i + 1]); del args[i:i + 2]
    a, b = read(args[0]), read(args[1])
    if len(a) != len(b):
        print('different number of values: %d and %d' % (len(a), len(b)))
        return 1
    bad = 0
    for k, ((ta, va), (tb, vb)) in enumerate(zip(a, b)):
        if ta != tb or len(va) != len(vb):
            print('value #%d: %s against %s' % (k, ta, tb))
            bad += 1
            continue
        mabs = mrel = mulp = 0
        fails = 0
        for x, y in zip(va, vb):
            if math.isnan(x) or math.isnan(y):
                fails += math.isnan(x) != math.isnan(y)
                continue
            e = abs(x - y)
            mabs = max(mabs, e)
            if y != 0:
                mrel = max(mrel, e / abs(y))
            if 'f32' in ta:
                mulp = max(mulp, ulp_f32(x, y))
            fails += not (e <= atol + rtol * abs(y))
        print('value #%d %s: max abs %.3g, max rel %.3g, max ulp %d: %s' %
              (k, ta, mabs, mrel, mulp, 'MISMATCH' if fails else 'ok'))
        bad += fails > 0
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
