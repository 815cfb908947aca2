"""remat_torch's Philox draws against remat-run's rt.uniform_philox (test/torch/philox_rt.test).

    philox_check.py SEED OFFSET LO HI SHAPE RT_OUTPUTS

SEED and OFFSET as remat-run read them (i64, so an offset near 2^64 is negative), SHAPE
like 3x7, RT_OUTPUTS the --outputs file of `remat-run philox_u.mlir --reference`. Compares,
bit for bit, the rt values with
- binding.philox_uniform (libremat.so's rematPhiloxUniformF32) on 1, 2 and all threads;
- in [0, 1): torch.ops.remat.philox_uniform (what philox_dropout's dropout draws) and the
  numpy reference (tools/remat_torch/philox.py);
- the masks value < threshold of binding.philox_below (rematPhiloxUniformBelow) and, in
  [0, 1), of torch.ops.remat.philox_mask, against the rt values compared in f32.
Prints one line per comparison; exits 1 on any difference."""
import sys

import numpy as np
import torch

from remat_torch import binding, dropout, philox, textio

seed, offset = int(sys.argv[1]), int(sys.argv[2])
lo, hi = float(sys.argv[3]), float(sys.argv[4])
shape = tuple(int(d) for d in sys.argv[5].split("x"))
want = np.asarray(textio.read(sys.argv[6])[0][2], np.float32).reshape(shape).view(np.uint32)
bad = 0


def same(what, got):
    global bad
    got = np.asarray(got, np.float32).reshape(shape).view(np.uint32)
    ok = np.array_equal(got, want)
    n = int((got != want).sum())
    print(f"{sys.argv[5]} offset {offset & (2**64 - 1):#x} [{lo:g}, {hi:g}) {what}: "
          + ("bit-identical to rt.uniform_philox" if ok else f"{n} values differ"))
    bad += not ok


for threads in (1, 2, 0):
    t = torch.full(shape, -7.0)
    binding.philox_uniform(seed, offset, t.data_ptr(), t.numel(), lo, hi, threads)
    same(f"C, {threads or 'all'} threads", t.numpy())
if (lo, hi) == (0.0, 1.0):
    same("torch op", torch.ops.remat.philox_uniform(torch.tensor([seed, offset]), list(shape)))
    same("numpy", philox.uniform(seed & (2**64 - 1), offset & (2**64 - 1), shape))

# masks: value < threshold, compared in f32 as torch's lt compares an f32 tensor with a
# number: 0.9 (not an f32), and the value of the middle element (not below itself)
rt = want.view(np.float32)
for threshold in (0.9, float(rt.reshape(-1)[rt.size // 2])):
    expected = rt < np.float32(threshold)
    for threads in (1, 2, 0):
        m = torch.ones(shape, dtype=torch.bool)
        binding.philox_below(seed, offset, threshold, m.data_ptr(), m.numel(), lo, hi, threads)
        ok = np.array_equal(m.numpy(), expected)
        print(f"{sys.argv[5]} mask < {threshold:.9g} C, {threads or 'all'} threads: "
              + ("rt.uniform_philox < threshold" if ok else "differs"))
        bad += not ok
    if (lo, hi) == (0.0, 1.0):
        st = torch.tensor([seed, offset])
        m = torch.ops.remat.philox_mask(st, list(shape), threshold)
        ok = np.array_equal(m.numpy(), expected) and torch.equal(
            m, torch.ops.remat.philox_uniform(st, list(shape)) < threshold)
        print(f"{sys.argv[5]} mask < {threshold:.9g} torch op: "
              + ("rt.uniform_philox < threshold, philox_uniform < threshold" if ok else "differs"))
        bad += not ok
sys.exit(1 if bad else 0)
