#!/usr/bin/env python3
"""attention_inputs.py DIR SEED VARIANT...: inputs in remat-run's text format for the
arguments of attention_pair.py's variants (q, k, v [, mask] [, seed, offset], do), at
scales away from 1, to compare @VARIANT_unfused and @VARIANT_fused there: DIR/VARIANT.CASE
for each variant and case (one process: numpy's import costs more than the inputs):
  large      q, k in 8 [-1, 1) (scores up to hundreds: most exp terms underflow), v in
             2^100 [-1, 1), do in 2^20 [-1, 1)
  tiny       q, k in 2^-60 [-1, 1) (every score ~0), v in 2^-100 [-1, 1), do in 2^-20 [-1, 1)
  subnormal  v in 2^-140 [-1, 1) (f32 subnormals), the rest in [-1, 1)
  neginf     an additive mask with -inf at a third of the positions (never a whole row)
A keep/drop mask is random with a third of the positions masked (never a whole row)."""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_pair import VARIANTS  # noqa: E402


def write(out, variant, case, rng):
    N, Sq, Sk, D, Dv, opts = VARIANTS[variant]
    T = opts.get('T', 'f32')
    dt = np.float32 if T == 'f32' else np.float64

    def u(shape, scale):
        return (rng.uniform(-1, 1, shape) * scale).astype(dt)

    sc = {'large': (8.0, 2.0**100, 2.0**20), 'tiny': (2.0**-60, 2.0**-100, 2.0**-20),
          'subnormal': (1.0, 2.0**-140, 1.0), 'neginf': (1.0, 1.0, 1.0)}[case]
    args = [('q', u((N, Sq, D), sc[0])), ('k', u((N, Sk, D), sc[0])), ('v', u((N, Sk, Dv), sc[1]))]
    mask = opts.get('mask')
    if mask:
        shape = (N, Sq, Sk) if opts.get('batched_mask') else (Sq, Sk)
        hit = rng.uniform(0, 1, shape) < 1 / 3
        hit[..., 0] = False  # no row masked whole
        if mask == 'add':
            m = u(shape, 1.0)
            if case == 'neginf':
                m[hit] = -np.inf
            args.append(('mask', m))
        else:
            args.append(('mask', (~hit if mask == 'keep' else hit).astype(np.int64)))
    if 'keep' in opts:
        args += [('seed', np.int64(rng.integers(0, 2**62))), ('offset', np.int64(rng.integers(0, 2**20)))]
    args.append(('do', u((N, Sq, Dv), sc[2])))
    fmt = '%.9g' if T == 'f32' else '%.17g'
    for name, a in args:
        if a.ndim == 0:
            print('i64 %d' % a, file=out)
            continue
        elem = 'i1' if a.dtype == np.int64 else T
        ty = 'tensor<%sx%s>' % ('x'.join(str(d) for d in a.shape), elem)
        vals = ' '.join(('%d' % x) if elem == 'i1' else (fmt % x) for x in a.ravel())
        print(ty, vals, file=out)


CASES = ('large', 'tiny', 'subnormal', 'neginf')

if __name__ == '__main__':
    rng = np.random.default_rng(int(sys.argv[2]))
    for variant in sys.argv[3:]:
        for case in CASES:
            with open(os.path.join(sys.argv[1], variant + '.' + case), 'w') as f:
                write(f, variant, case, rng)
