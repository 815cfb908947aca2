/* Philox4x32-10 and remat's uniform_philox mapping. See philox.h. */
#include "philox.h"

#include <math.h>

#include "half.h"

void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  uint32_t k0 = key[0], k1 = key[1];

  for (int round = 0; round < PHILOX_ROUNDS; round++) {
    uint64_t product0 = (uint64_t)PHILOX_MULTIPLIER0 * c0;
    uint64_t product1 = (uint64_t)PHILOX_MULTIPLIER1 * c2;
    uint32_t hi0 = (uint32_t)(product0 >> 32), lo0 = (uint32_t)product0;
    uint32_t hi1 = (uint32_t)(product1 >> 32), lo1 = (uint32_t)product1;

    if (round > 0) {
      k0 += PHILOX_KEY_STEP0;
      k1 += PHILOX_KEY_STEP1;
    }
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

uint32_t philox_element_bits(uint64_t seed, uint64_t offset, uint64_t index) {
  uint64_t block = index / 4;
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  uint32_t ctr[4] = {
      (uint32_t)offset,
      (uint32_t)(offset >> 32),
      (uint32_t)block,
      (uint32_t)(block >> 32),
  };
  uint32_t words[4];

  philox4x32_10(ctr, key, words);
  return words[index % 4];
}

float philox_uniform_f32(uint32_t bits, double lo, double hi) {
  float u = philox_unit_f32(bits);
  float lo_f = (float)lo;
  float hi_f = (float)hi;
  float range = hi_f - lo_f;

  /* Explicit fma: a plain u * range + lo_f would round twice or once
	 * depending on the compiler and target. fmaf is exact-then-round on
	 * every conforming libm, with or without a hardware fma. */
  return fmaf(u, range, lo_f);
}

uint16_t philox_uniform_f16_bits(uint32_t bits, double lo, double hi) {
  uint16_t value = f32_to_f16_bits(philox_uniform_f32(bits, lo, hi));
  uint16_t hi_h = f32_to_f16_bits((float)hi);

  if (f16_bits_to_f32(value) == f16_bits_to_f32(hi_h))
    return f32_to_f16_bits((float)lo);
  return value;
}

uint16_t philox_uniform_bf16_bits(uint32_t bits, double lo, double hi) {
  uint16_t value = f32_to_bf16_bits(philox_uniform_f32(bits, lo, hi));
  uint16_t hi_b = f32_to_bf16_bits((float)hi);

  if (bf16_bits_to_f32(value) == bf16_bits_to_f32(hi_b))
    return f32_to_bf16_bits((float)lo);
  return value;
}
