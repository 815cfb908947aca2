/* Cross-check of the Philox reference (lib/numeric/philox.c) against cuRAND's host
 * generator, an independent implementation that runs on the CPU (no GPU
 * needed, only libcurand from the CUDA toolkit).
 *
 * cuRAND's host PHILOX4_32_10 generator with offset 0 writes, at output
 * position p,
 *     Philox4x32-10(ctr = (p / 262144, 0, (p % 262144) / 4, 0),
 *                   key = (lo32(seed), hi32(seed)))[p % 4]
 * (docs/design.md, "Philox"), and curandGenerateUniform turns the word x at p into
 * (float)x * 2^-32 + 2^-33 with no 1 -> 0 remap. So:
 * - every raw word is philox4x32_10 on that counter;
 * - for offset k < 2^32 and element i < 262144, remat's element
 *   (seed, offset k, index i) is cuRAND's word at p = 262144 k + i, because
 *   the counters coincide: (k, 0, i / 4, 0);
 * - each uniform float is philox_unit_f32 of the raw word, except that
 *   cuRAND keeps 1.0f where remat remaps it to 0;
 * - so philox_fill_f32 (seed, offset k) in [0, 1) is cuRAND's floats from 262144 k on.
 * Prints a summary for FileCheck (philox_curand.test); exits non-zero on any
 * mismatch or cuRAND error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <curand.h>

#include "half.h"
#include "philox.h"

enum {
  BLOCK_WORDS = 262144,           /* cuRAND's host stride between ctr[0] values */
  WORDS = 3 * BLOCK_WORDS + 1000, /* reaches ctr[0] = 3 */
  FILL = BLOCK_WORDS - 3,         /* philox_fill_f32's length: not a multiple of 4 */
};

static int failures;

static int curand_ok(curandStatus_t status, const char *call) {
  if (status == CURAND_STATUS_SUCCESS)
    return 1;
  printf("FAIL %s: curandStatus_t %d\n", call, (int)status);
  failures++;
  return 0;
}

static void mismatch(const char *what, uint64_t seed, size_t p, uint32_t got, uint32_t want) {
  if (failures < 20)
    printf("FAIL %s seed=%016" PRIx64 " p=%zu: got %08" PRIx32 ", want %08" PRIx32 "\n", what, seed,
           p, got, want);
  failures++;
}

/* Fill raw[] and uniform[] from two fresh host generators with this seed. */
static int generate(uint64_t seed, uint32_t *raw, float *uniform) {
  curandGenerator_t gen;

  if (!curand_ok(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                 "curandCreateGeneratorHost"))
    return 0;
  if (!curand_ok(curandSetPseudoRandomGeneratorSeed(gen, seed),
                 "curandSetPseudoRandomGeneratorSeed") ||
      !curand_ok(curandGenerate(gen, raw, WORDS), "curandGenerate") ||
      !curand_ok(curandDestroyGenerator(gen), "curandDestroyGenerator"))
    return 0;

  if (!curand_ok(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                 "curandCreateGeneratorHost"))
    return 0;
  if (!curand_ok(curandSetPseudoRandomGeneratorSeed(gen, seed),
                 "curandSetPseudoRandomGeneratorSeed") ||
      !curand_ok(curandGenerateUniform(gen, uniform, WORDS), "curandGenerateUniform") ||
      !curand_ok(curandDestroyGenerator(gen), "curandDestroyGenerator"))
    return 0;
  return 1;
}

static void check_seed(uint64_t seed, uint32_t *raw, float *uniform, float *fill) {
  const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  size_t elements = 0, filled = 0;
  int ones = 0;

  if (!generate(seed, raw, uniform))
    return;

  for (size_t p = 0; p < WORDS; p += 4) {
    const uint32_t ctr[4] = {
        (uint32_t)(p / BLOCK_WORDS),
        0,
        (uint32_t)(p % BLOCK_WORDS / 4),
        0,
    };
    uint32_t words[4];

    philox4x32_10(ctr, key, words);
    for (size_t w = 0; w < 4 && p + w < WORDS; w++)
      if (raw[p + w] != words[w])
        mismatch("raw word", seed, p + w, raw[p + w], words[w]);
  }

  /* remat's mapping at offsets 0..3 against the same words. */
  for (uint64_t offset = 0; offset < 4; offset++)
    for (uint64_t i = 0; i < 4096; i++) {
      size_t p = (size_t)(offset * BLOCK_WORDS + i);
      uint32_t bits = philox_element_bits(seed, offset, i);

      if (p < WORDS && raw[p] != bits)
        mismatch("element", seed, p, bits, raw[p]);
      elements++;
    }

  for (size_t p = 0; p < WORDS; p++) {
    float mine = philox_unit_f32(raw[p]);

    if (uniform[p] == 1.0f) {
      ones++;
      if (mine != 0.0f)
        mismatch("uniform 1 -> 0", seed, p, f32_bits(mine), 0);
    } else if (f32_bits(mine) != f32_bits(uniform[p]))
      mismatch("uniform", seed, p, f32_bits(mine), f32_bits(uniform[p]));
  }

  /* The bulk fill (threaded, vectorised) at offsets 0..2 over a length that is not a
	 * multiple of 4, against cuRAND's floats at 262144 k + i (1 -> 0). */
  for (uint64_t offset = 0; offset < 3; offset++) {
    philox_fill_f32(seed, offset, 0.0, 1.0, fill, FILL, 0);
    for (size_t i = 0; i < FILL; i++) {
      float want = uniform[offset * BLOCK_WORDS + i];

      if (want == 1.0f)
        want = 0.0f;
      if (f32_bits(fill[i]) != f32_bits(want))
        mismatch("fill", seed, offset * BLOCK_WORDS + i, f32_bits(fill[i]), f32_bits(want));
      filled++;
    }
  }

  printf("seed %016" PRIx64 ": %d raw words, %zu elements, %d uniform "
         "floats (%d equal to 1), %zu filled floats agree; first words %08" PRIx32 " %08" PRIx32
         " %08" PRIx32 " %08" PRIx32 "\n",
         seed, WORDS, elements, WORDS, ones, filled, raw[0], raw[1], raw[2], raw[3]);
}

int main(void) {
  static const uint64_t seeds[] = {
      0,
      42,
      UINT64_C(0x0123456789abcdef), /* both key words */
      UINT64_C(0xffffffff00000000), /* high half only */
      UINT64_C(0xffffffffffffffff),
  };
  uint32_t *raw = malloc(WORDS * sizeof *raw);
  float *uniform = malloc(WORDS * sizeof *uniform);
  float *fill = malloc(FILL * sizeof *fill);

  if (!raw || !uniform || !fill) {
    printf("FAIL out of memory\n");
    return 1;
  }
  for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++)
    check_seed(seeds[s], raw, uniform, fill);
  free(raw);
  free(fill);
  free(uniform);
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures != 0;
}
