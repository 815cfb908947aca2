/* f32 <-> f16/bf16 on bit patterns, round to nearest even. See half.h. */
#include "half.h"

#include <string.h>

uint32_t f32_bits(float value) {
  uint32_t bits;

  memcpy(&bits, &value, sizeof bits);
  return bits;
}

float f32_from_bits(uint32_t bits) {
  float value;

  memcpy(&value, &bits, sizeof value);
  return value;
}

/* Shift `magnitude` right by `shift` (1..31) bits, rounding to nearest
 * even on the bits shifted out. */
static uint32_t shift_right_round_even(uint32_t magnitude, unsigned shift) {
  uint32_t kept = magnitude >> shift;
  uint32_t dropped = magnitude & ((UINT32_C(1) << shift) - 1);
  uint32_t half = UINT32_C(1) << (shift - 1);

  if (dropped > half || (dropped == half && (kept & 1)))
    kept++;
  return kept;
}

uint16_t f32_to_f16_bits(float value) {
  uint32_t bits = f32_bits(value);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t exponent = (bits >> 23) & 0xff; /* f32 biased exponent */
  uint32_t fraction = bits & 0x7fffff;
  int f16_exponent;

  if (exponent == 0xff) {
    if (fraction == 0)
      return sign | 0x7c00;
    /* Quiet NaN, keeping the top 9 payload bits. */
    return (uint16_t)(sign | 0x7e00 | (fraction >> 13));
  }

  /* Rebias: f32 bias 127, f16 bias 15. */
  f16_exponent = (int)exponent - 127 + 15;
  if (f16_exponent >= 31)
    return sign | 0x7c00;

  if (f16_exponent >= 1) {
    /* Normal f16: drop 13 fraction bits. A carry out of the
		 * fraction moves into the exponent, which is exactly the
		 * next binade (and 0x7c00, infinity, past the largest). */
    uint32_t rounded = shift_right_round_even(((uint32_t)f16_exponent << 23) | fraction, 13);
    return (uint16_t)(sign | rounded);
  }

  /* Subnormal f16 or zero. A normal f32 is (2^23 + fraction) *
	 * 2^(exponent - 150) and an f16 subnormal is m * 2^-24, so
	 * m = (2^23 + fraction) >> (126 - exponent), rounded. Shifts above 24
	 * leave less than half of 2^-24: zero. f32 subnormals land there too.
	 * A rounded m of 1024 is the smallest normal, encoded the same way. */
  {
    unsigned shift = 126 - exponent; /* >= 14 here */

    if (exponent == 0 || shift > 24)
      return sign;
    return (uint16_t)(sign | shift_right_round_even(UINT32_C(0x800000) | fraction, shift));
  }
}

float f16_bits_to_f32(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t fraction = bits & 0x3ff;

  if (exponent == 0x1f)
    return f32_from_bits(sign | 0x7f800000 | (fraction << 13));
  if (exponent == 0) {
    /* Zero or subnormal: fraction * 2^-24, exact in f32. */
    float magnitude = (float)fraction * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  return f32_from_bits(sign | ((exponent + 127 - 15) << 23) | (fraction << 13));
}

uint16_t f32_to_bf16_bits(float value) {
  uint32_t bits = f32_bits(value);

  if ((bits & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((bits >> 16) | 0x40); /* quiet NaN */
  /* Same exponent range as f32, so rounding the low 16 bits away is
	 * the whole job; a carry runs into the exponent and, past the
	 * largest finite value, into infinity, as it should. */
  return (uint16_t)shift_right_round_even(bits, 16);
}

float bf16_bits_to_f32(uint16_t bits) { return f32_from_bits((uint32_t)bits << 16); }
