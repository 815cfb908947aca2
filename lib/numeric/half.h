/* Conversions between f32 and the 16-bit float formats, on bit patterns.
 *
 * f16 is IEEE binary16 (1 sign, 5 exponent, 10 fraction bits); bf16 is the
 * upper half of an f32 (1 sign, 8 exponent, 7 fraction bits). Values of
 * either type travel as uint16_t bit patterns, so this code needs no
 * compiler support for _Float16 or __bf16.
 *
 * Conventions, shared by the Philox reference, the interpreter and the
 * codegen tests:
 * - f32 -> f16/bf16 rounds to nearest, ties to even, like a hardware
 *   conversion (cvt.rn.f16.f32, cvt.rn.bf16.f32, vcvtps2ph with imm 0).
 *   Overflow gives infinity with the sign kept; values below half the
 *   smallest subnormal give a signed zero; subnormal results are produced
 *   (no flush to zero).
 * - NaN stays NaN with its sign: the result is quiet (top fraction bit set)
 *   and keeps the top fraction bits of the payload.
 * - f16/bf16 -> f32 is exact (every f16 and bf16 value is an f32 value).
 * - Nothing here depends on the floating-point environment: the rounding
 *   is done on integers, always to nearest even.
 */
#ifndef REMAT_HALF_H
#define REMAT_HALF_H

#include <stdint.h>

uint16_t f32_to_f16_bits(float value);
float f16_bits_to_f32(uint16_t bits);

uint16_t f32_to_bf16_bits(float value);
float bf16_bits_to_f32(uint16_t bits);

/* The bit pattern of an f32 and back (memcpy, no aliasing tricks). */
uint32_t f32_bits(float value);
float f32_from_bits(uint32_t bits);

#endif
