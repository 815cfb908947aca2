#!/usr/bin/env python3
"""attention_compare.py C GOT WANT [C GOT WANT ...]: compares remat-run output files value
by value with a bound relative to each value's scale (docs/design.md, "Attention"):
|got - want| <= C (|want| + S) + 64 t, S the largest finite |want| of the value, t the
smallest subnormal of its type; NaN equals NaN, infinities equal by sign. Prints one line
per value, then 'GOT: ok' or 'GOT: FAILED' per pair, and the totals; exits 1 on a
mismatch. One process
for many pairs: numpy's import costs more than a comparison."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..',
                                'tools'))
from remat_torch import textio  # noqa: E402

TINY = {'f32': 2.0**-149, 'f64': 2.0**-1074}


def compare(got_path, want_path, c):
    got, want = textio.read(got_path), textio.read(want_path)
    ok = len(got) == len(want)
    for k, ((_, ge, g), (_, we, w)) in enumerate(zip(got, want)):
        g, w = np.asarray(g, np.float64), np.asarray(w, np.float64)
        fin = np.isfinite(w)
        s = float(np.abs(w[fin]).max()) if fin.any() else 0.0
        same = (g == w) | (np.isnan(g) & np.isnan(w))
        err = np.where(same, 0.0, np.abs(g - w))
        err = np.where(np.isnan(err), np.inf, err)
        bound = c * (np.abs(np.where(fin, w, 0.0)) + s) + 64 * TINY.get(we, 0.0)
        bad = int(np.sum(err > bound))
        ok &= bad == 0 and ge == we
        print('#%d: %s scale %.3g, max err %.3g (%.3g of the bound): %s' %
              (k, we, s, float(err.max()) if err.size else 0.0,
               float((err / bound).max()) if err.size else 0.0, 'ok' if bad == 0 else
               'MISMATCH (%d of %d)' % (bad, err.size)))
    print('%s: %s' % (os.path.basename(got_path), 'ok' if ok else 'FAILED'))
    return ok


def main(args):
    if not args or len(args) % 3:
        print('usage: attention_compare.py C GOT WANT [C GOT WANT ...]', file=sys.stderr)
        return 2
    failed = 0
    for i in range(0, len(args), 3):
        failed += not compare(args[i + 1], args[i + 2], float(args[i]))
    print('attention_compare: %d pairs, %d failed' % (len(args) // 3, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
