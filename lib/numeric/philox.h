/* Philox4x32-10 and remat's mapping from (seed, offset, element) to bits and
 * to uniform floats: the reference that the interpreter, the codegen and the
 * tests agree with bit for bit. See docs/design.md ("Runtime", "Philox").
 *
 * Generator: Philox4x32-10 of Salmon et al. (SC'11) exactly as in Random123:
 * multipliers 0xD2511F53, 0xCD9E8D57, key increments 0x9E3779B9, 0xBB67AE85,
 * ten rounds, the first with the key as given.
 *
 * Element mapping (nvFuser's uniform_philox), for the row-major linear index
 * i of an element of the result tensor:
 *     key     = (lo32(seed), hi32(seed))
 *     counter = (lo32(offset), hi32(offset), lo32(i / 4), hi32(i / 4))
 *     bits    = philox4x32_10(counter, key)[i % 4]
 * The offset counts 4-word blocks; elements 4k..4k+3 share one Philox call.
 *
 * Uniform f32 in [lo, hi), all arithmetic in f32, round to nearest even:
 *     u = (float)bits * 2^-32 + 2^-33     (cuRAND's formula; the product
 *                                          is exact, only the sum rounds)
 *     u = (u == 1.0f) ? 0.0f : u          (bits >= 0xFFFFFF80 round to 1)
 *     lo_f = (float)lo, hi_f = (float)hi
 *     value = fmaf(u, hi_f - lo_f, lo_f)  (one explicit fused multiply-add;
 *                                          hi_f - lo_f rounds in f32)
 * u is in [2^-33, 1 - 2^-24] or exactly 0. The f32 value can still equal hi_f
 * when the fma rounds up to it (lo = 1, hi = 2, u = 1 - 2^-24 gives 2);
 * The mapping remaps only the 16-bit results, so the f32 one is left as is.
 *
 * f16 / bf16: the f32 value above, rounded to nearest even (half.h); a result
 * that compares equal to hi_f rounded the same way becomes lo_f rounded the
 * same way (PyTorch's `value == to ? from : value`, compared as numbers, so
 * -0 equals +0).
 *
 * No dependency on the floating-point environment beyond the default rounding
 * mode (round to nearest), and none on FLT_EVAL_METHOD: every step is stored
 * to a float, which drops any excess precision (C11 5.2.4.2.2, 6.3.1.8).
 */
#ifndef REMAT_PHILOX_H
#define REMAT_PHILOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The generator's constants (philox.c and philox_fill.c both run the rounds). */
enum { PHILOX_ROUNDS = 10 };
static const uint32_t PHILOX_MULTIPLIER0 = 0xD2511F53;
static const uint32_t PHILOX_MULTIPLIER1 = 0xCD9E8D57;
static const uint32_t PHILOX_KEY_STEP0 = 0x9E3779B9; /* golden ratio */
static const uint32_t PHILOX_KEY_STEP1 = 0xBB67AE85; /* sqrt(3) - 1 */

/* Random123 Philox4x32-10: out = Philox(ctr, key). out may alias ctr. */
void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* The 32 random bits of element `index` (the mapping above). */
uint32_t philox_element_bits(uint64_t seed, uint64_t offset, uint64_t index);

/* bits -> u in [0, 1): the float formula with the 1 -> 0 remap. Inline, so that
 * philox_fill.c's loops over it vectorise. */
static inline float philox_unit_f32(uint32_t bits) {
  /* Each step is stored to a float so that no excess precision survives
   * (FLT_EVAL_METHOD may be nonzero, e.g. x87).
   *
   * (float)bits rounds to 24 bits; scaling by 2^-32 is exact, so the sum is the only
   * other rounding. A compiler allowed to contract (-ffp-contract=fast) may turn the
   * two lines into fmaf(x, 0x1p-32f, 0x1p-33f) (gcc and clang both do, across the
   * statements, with an fma-capable -march): that gives the same bits, because an fma
   * differs from multiply-then-add only when the product is inexact. Checked for all
   * 2^32 inputs, contracted and not. */
  float x = (float)bits;
  float scaled = x * 0x1p-32f;
  float u = scaled + 0x1p-33f;

  return u == 1.0f ? 0.0f : u;
}

/* bits -> uniform value in [lo, hi) (see above for the rounding caveat). */
float philox_uniform_f32(uint32_t bits, double lo, double hi);
uint16_t philox_uniform_f16_bits(uint32_t bits, double lo, double hi);
uint16_t philox_uniform_bf16_bits(uint32_t bits, double lo, double hi);

/* out[i] = philox_uniform_f32(philox_element_bits(seed, offset, i), lo, hi)
 * for i in [0, n): the rt.uniform_philox result as a flat f32 buffer (philox_fill.c:
 * vectorised, and split over up to THREADS threads when n is large; THREADS <= 0: one
 * per online CPU). The bits do not depend on THREADS. */
void philox_fill_f32(uint64_t seed, uint64_t offset, double lo, double hi, float *out, size_t n,
                     int threads);

/* below[i] = value i < threshold, compared in f32, for the values philox_fill_f32 would
 * write: rt.uniform_philox then rt.lt against an f32 constant (a dropout mask), in one
 * pass over memory, with the same threads. */
void philox_fill_below(uint64_t seed, uint64_t offset, double lo, double hi, float threshold,
                       bool *below, size_t n, int threads);

#endif
