/* Unit tests of the Philox reference (lib/numeric/philox.c) and of the f16/bf16
 * conversions (lib/numeric/half.c). Prints what it computed, for FileCheck
 * (philox.test), and exits non-zero if any internal check fails.
 *
 * Where a check needs an expected value it is either a published vector
 * (Random123's known answers), a value worked out by hand in the comment
 * next to it, or a value computed here by a route that does not use the code
 * under test (a direct philox4x32_10 call on a hand-built counter, the float
 * formula redone in integer arithmetic, midpoints between adjacent 16-bit
 * values). The hex words in philox.test that are not Random123's were also
 * computed, during development, with a separate Python implementation (exact
 * rationals, no floats; not kept); they pin the bits across compilers and
 * flags. philox_curand.test checks the generator against cuRAND. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "half.h"
#include "philox.h"

static int failures;

/* Prints the first few failures only: a broken rounding fails thousands of
 * sweep checks at once. */
static void expect_u32(const char *what, uint32_t got, uint32_t want) {
  if (got != want) {
    if (failures < 20)
      printf("FAIL %s: got %08" PRIx32 ", want %08" PRIx32 "\n", what, got, want);
    failures++;
  }
}

/* Round a value of at most 33 bits to 24 significant bits, ties to even:
 * returns the kept significand and sets *shift, so the value rounded is
 * kept * 2^shift (kept may reach 2^24). */
static uint64_t round_to_24_bits(uint64_t n, int *shift) {
  int length = 0;
  uint64_t kept, dropped, half;

  while ((n >> length) != 0)
    length++;
  *shift = length > 24 ? length - 24 : 0;
  if (*shift == 0)
    return n;
  kept = n >> *shift;
  dropped = n & ((UINT64_C(1) << *shift) - 1);
  half = UINT64_C(1) << (*shift - 1);
  if (dropped > half || (dropped == half && (kept & 1)))
    kept++;
  return kept;
}

/* --- Philox4x32-10 known answers (Random123 tests/kat_vectors) --- */

static void test_known_answers(void) {
  static const uint32_t vectors[3][10] = {
      {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x6627e8d5,
       0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
       0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
       0x94fdcceb, 0x5001e420, 0x24126ea1},
  };

  for (int v = 0; v < 3; v++) {
    const uint32_t *ctr = vectors[v], *key = vectors[v] + 4;
    const uint32_t *want = vectors[v] + 6;
    uint32_t out[4];

    philox4x32_10(ctr, key, out);
    printf("kat ctr=%08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " key=%08" PRIx32
           " %08" PRIx32 " -> %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
           ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1], out[0], out[1], out[2], out[3]);
    for (int w = 0; w < 4; w++)
      expect_u32("known answer", out[w], want[w]);

    /* out may alias ctr. */
    uint32_t inplace[4];
    memcpy(inplace, ctr, sizeof inplace);
    philox4x32_10(inplace, key, inplace);
    for (int w = 0; w < 4; w++)
      expect_u32("known answer in place", inplace[w], want[w]);
  }
}

/* --- The element mapping --- */

static void print_element(uint64_t seed, uint64_t offset, uint64_t index, uint32_t bits) {
  printf("element seed=%016" PRIx64 " offset=%016" PRIx64 " index=%" PRIx64 ": %08" PRIx32 "\n",
         seed, offset, index, bits);
}

static void test_mapping(void) {
  uint32_t words[4];

  /* seed 0, offset 0: key (0, 0), counter (0, 0, 0, 0) for elements
	 * 0..3, so they are the words of the first known answer. */
  static const uint32_t kat0[4] = {
      0x6627e8d5,
      0xe169c58d,
      0xbc57ac4c,
      0x9b00dbd8,
  };
  for (uint64_t i = 0; i < 4; i++) {
    uint32_t bits = philox_element_bits(0, 0, i);
    print_element(0, 0, i, bits);
    expect_u32("seed 0 offset 0 elements 0..3", bits, kat0[i]);
  }

  /* Elements 4..7: i / 4 = 1, so counter (0, 0, 1, 0). */
  {
    const uint32_t ctr[4] = {0, 0, 1, 0}, key[2] = {0, 0};
    philox4x32_10(ctr, key, words);
    for (uint64_t i = 4; i < 8; i++) {
      uint32_t bits = philox_element_bits(0, 0, i);
      print_element(0, 0, i, bits);
      expect_u32("seed 0 offset 0 elements 4..7", bits, words[i - 4]);
    }
  }

  /* High halves everywhere, each to a different counter word:
	 *   seed   = 0x0123456789abcdef -> key = (0x89abcdef, 0x01234567)
	 *   offset = 0x0000000500000003 -> ctr[0] = 3, ctr[1] = 5
	 *   index  = 4 * 0x100000002 + 3 = 0x40000000b
	 *            i / 4 = 0x100000002 -> ctr[2] = 2, ctr[3] = 1
	 *            i % 4 = 3           -> word 3 */
  {
    const uint32_t ctr[4] = {3, 5, 2, 1};
    const uint32_t key[2] = {0x89abcdef, 0x01234567};
    uint64_t seed = UINT64_C(0x0123456789abcdef);
    uint64_t offset = UINT64_C(0x0000000500000003);
    uint64_t index = UINT64_C(0x40000000b);
    uint32_t bits = philox_element_bits(seed, offset, index);

    philox4x32_10(ctr, key, words);
    print_element(seed, offset, index, bits);
    expect_u32("high halves", bits, words[3]);
  }

  /* The third known answer reached through the mapping:
	 *   key (0xa4093822, 0x299f31d0) -> seed   = 0x299f31d0a4093822
	 *   ctr[0..1] (0x243f6a88, 0x85a308d3)
	 *                                -> offset = 0x85a308d3243f6a88
	 *   ctr[2..3] (0x13198a2e, 0x03707344)
	 *                                -> i / 4  = 0x0370734413198a2e
	 *   index = 4 * 0x0370734413198a2e + w = 0x0dc1cd104c6628b8 + w */
  {
    static const uint32_t kat2[4] = {
        0xd16cfe09,
        0x94fdcceb,
        0x5001e420,
        0x24126ea1,
    };
    uint64_t seed = UINT64_C(0x299f31d0a4093822);
    uint64_t offset = UINT64_C(0x85a308d3243f6a88);
    uint64_t base = UINT64_C(0x0dc1cd104c6628b8);

    for (uint64_t w = 0; w < 4; w++) {
      uint32_t bits = philox_element_bits(seed, offset, base + w);
      print_element(seed, offset, base + w, bits);
      expect_u32("third known answer via mapping", bits, kat2[w]);
    }
  }
}

/* --- bits -> f32 --- */

/* u computed without floating-point arithmetic, step by step as the
 * formula says: xr = x rounded to 24 bits (the conversion to float); the sum
 * xr * 2^-32 + 2^-33 is exactly (2 xr + 1) * 2^-33, and its odd numerator
 * (at most 33 bits) rounds to 24 bits again. Both roundings matter: rounding
 * the exact (2x + 1) / 2^33 once differs near 1. Scaling a 24-bit integer by
 * a power of two is exact in f32, so the final conversion is exact. */
static float unit_by_integers(uint32_t x) {
  int shift;
  uint64_t xr = round_to_24_bits(x, &shift);
  uint64_t kept;
  float u;

  xr <<= shift;
  kept = round_to_24_bits(2 * xr + 1, &shift);
  u = (float)kept * 0x1p-33f;

  for (int s = 0; s < shift; s++)
    u *= 2.0f;
  return u == 1.0f ? 0.0f : u;
}

static void print_unit(uint32_t x) {
  float u = philox_unit_f32(x);

  printf("unit %08" PRIx32 ": %08" PRIx32 "\n", x, f32_bits(u));
  expect_u32("unit vs integer rounding", f32_bits(u), f32_bits(unit_by_integers(x)));
}

static void test_unit(void) {
  uint64_t checked = 0;

  /* x = 0: u = 2^-33 (bits 0x2f000000), the smallest value. */
  print_unit(0x00000000);
  /* x = 1: 2^-32 + 2^-33 = 3 * 2^-33, exact (0x2fc00000). */
  print_unit(0x00000001);
  /* x = 2^24 - 1: exact (float)x; (2^25 - 1) * 2^-33 needs 25 bits and
	 * lies halfway between 2^-8 - 2^-32 and 2^-8; ties to even: 2^-8
	 * (0x3b800000). Only the sum rounds. */
  print_unit(0x00ffffff);
  /* x = 2^31: 1/2 + 2^-33 rounds to 1/2 (0x3f000000). */
  print_unit(0x80000000);
  /* x = 0x12345678 = 305419896: (float)x = 305419904 (the f32 ulp is
	 * 32 there), so u = 0x1.234568p-4 (0x3d91a2b4). */
  print_unit(0x12345678);
  /* x = 2^32 - 129: (float)x = 2^32 - 256 (below the halfway point
	 * 2^32 - 128), u = 1 - 2^-24 + 2^-33 -> 1 - 2^-24 (0x3f7fffff), the
	 * largest u. */
  print_unit(0xffffff7f);
  /* x = 2^32 - 128: halfway between 2^32 - 256 (odd significand) and
	 * 2^32; ties to even gives 2^32, u rounds to 1, remapped to 0. */
  print_unit(0xffffff80);
  /* x = 2^32 - 1: (float)x = 2^32, u = 1 -> 0. */
  print_unit(0xffffffff);

  /* Every x below 2^20 and above 2^32 - 2^20 (where the rounding of
	 * both steps changes most often relative to the ulp), plus a stride
	 * through the middle. */
  for (uint32_t x = 0; x < (UINT32_C(1) << 20); x++, checked++) {
    expect_u32("unit low", f32_bits(philox_unit_f32(x)), f32_bits(unit_by_integers(x)));
    uint32_t top = UINT32_MAX - x;
    expect_u32("unit high", f32_bits(philox_unit_f32(top)), f32_bits(unit_by_integers(top)));
    checked++;
  }
  for (uint64_t x = 0; x <= UINT32_MAX; x += 65521, checked++)
    expect_u32("unit stride", f32_bits(philox_unit_f32((uint32_t)x)),
               f32_bits(unit_by_integers((uint32_t)x)));
  printf("unit: %" PRIu64 " values agree with integer rounding\n", checked);
}

static void print_uniform(uint32_t x, double lo, double hi) {
  printf("uniform %08" PRIx32 " [%g, %g): f32 %08" PRIx32 " f16 %04x bf16 %04x\n", x, lo, hi,
         f32_bits(philox_uniform_f32(x, lo, hi)), philox_uniform_f16_bits(x, lo, hi),
         philox_uniform_bf16_bits(x, lo, hi));
}

static void test_uniform(void) {
  /* x = 0 in [-1, 1): fma(2^-33, 2, -1) = -1 + 2^-32, which rounds to
	 * -1 (the f32 ulp just above -1 is 2^-24). */
  print_uniform(0x00000000, -1.0, 1.0);
  /* x = 2^31 in [0, 1): 1/2. */
  print_uniform(0x80000000, 0.0, 1.0);
  /* Largest u = 1 - 2^-24 in [0, 1): f32 0x3f7fffff; in f16 and bf16
	 * it rounds to 1.0 = hi, so it becomes lo = 0. */
  print_uniform(0xffffff7f, 0.0, 1.0);
  /* Same u in [-1, 1): fma(1 - 2^-24, 2, -1) = 1 - 2^-23 exactly
	 * (0x3f7ffffe); rounds to hi in f16 and bf16 -> lo = -1 (0xbc00,
	 * 0xbf80). */
  print_uniform(0xffffff7f, -1.0, 1.0);
  /* Same u in [1, 2): 2 - 2^-24 is halfway between 2 - 2^-23 and 2;
	 * ties to even gives 2 = hi in f32 (kept: the mapping remaps only the
	 * 16-bit results, see philox.h); f16/bf16 -> lo = 1. */
  print_uniform(0xffffff7f, 1.0, 2.0);
  /* hi not representable: hi = 0.1 rounds to f32 0x3dcccccd and then
	 * to f16 0x2e66 (0.0999755859375) / bf16 0x3dcd (0.10009765625).
	 * x = 0xfff00000: u = 1 - 2^-12, value 0x3dccc000 ~ 0.0999756; in f16
	 * that is 0x2e66 = rounded hi -> lo; in bf16 it rounds to 0x3dcd =
	 * rounded hi -> lo too. */
  print_uniform(0xfff00000, 0.0, 0.1);
  /* An ordinary value in [-2, 3): u = 0x1.234568p-4,
	 * fma(u, 5, -2) = -1.6444... (0xbfd27d28), f16 0xbe94, bf16 0xbfd2. */
  print_uniform(0x12345678, -2.0, 3.0);

  /* The fma matters: in [0.1, 0.7) with x = 0x2265b1f5 the fused
	 * result is 0x3e38f411 and a separately rounded product + lo would
	 * give 0x3e38f412. */
  {
    uint32_t x = 0x2265b1f5;
    float u = philox_unit_f32(x);
    float lo_f = (float)0.1, range = (float)0.7 - lo_f;
    volatile float product = u * range; /* force a rounding */
    float unfused = product + lo_f;
    float fused = philox_uniform_f32(x, 0.1, 0.7);

    printf("fma %08" PRIx32 " [0.1, 0.7): fused %08" PRIx32 " unfused %08" PRIx32 "\n", x,
           f32_bits(fused), f32_bits(unfused));
    expect_u32("fused", f32_bits(fused), 0x3e38f411);
    expect_u32("unfused", f32_bits(unfused), 0x3e38f412);
  }
}

/* Element i of fill(seed, offset, lo, hi) must be the element mapping's value. Returns
 * the number of elements compared. */
static size_t expect_fill(const float *values, size_t n, uint64_t seed, uint64_t offset, double lo,
                          double hi) {
  for (size_t i = 0; i < n; i++)
    expect_u32("fill vs element", f32_bits(values[i]),
               f32_bits(philox_uniform_f32(philox_element_bits(seed, offset, i), lo, hi)));
  return n;
}

/* below[i] must be (element i's value < threshold). Returns the number compared. */
static size_t expect_below(const bool *below, size_t n, uint64_t seed, uint64_t offset, double lo,
                           double hi, float threshold) {
  for (size_t i = 0; i < n; i++)
    expect_u32("below vs element", below[i],
               philox_uniform_f32(philox_element_bits(seed, offset, i), lo, hi) < threshold);
  return n;
}

static void test_fill(void) {
  enum { SMALL = 200, LARGE = 460001, GUARD = 4 };
  static float buffer[LARGE + 2 * GUARD];
  static bool mask[LARGE + GUARD];
  float values[37], *large = buffer + GUARD;
  static const uint64_t offsets[] = {0, UINT64_C(0xffffffffffffffff), UINT64_C(0xfffffffffffffffe),
                                     UINT64_C(0x00000000ffffffff)};
  static const double bounds[][2] = {{0.0, 1.0}, {-0.5, 0.25}};
  uint64_t seed = UINT64_C(0xdeadbeef00000007);
  uint64_t offset = UINT64_C(0x0000000100000002);
  size_t compared = 0, masked = 0;

  /* seed 42, offset 7, [-2, 3): golden bits from the Python
	 * reference, printed for philox.test. */
  philox_fill_f32(42, 7, -2.0, 3.0, values, 8, 1);
  printf("fill seed=42 offset=7 [-2, 3):");
  for (int i = 0; i < 8; i++)
    printf(" %08" PRIx32, f32_bits(values[i]));
  printf("\n");

  /* An odd length, high halves: fill agrees with the element
	 * mapping, element by element. */
  philox_fill_f32(seed, offset, -0.5, 0.25, values, 37, 1);
  expect_fill(values, 37, seed, offset, -0.5, 0.25);
  printf("fill: 37 values agree with the element mapping\n");

  /* Every length up to SMALL (the vectorised batches of 64 elements, the blocks after
	 * them, a last block cut short), offsets near 2^64 and with a high half, [0, 1) (no
	 * fma) and another range; nothing written past the end. */
  for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
      for (size_t n = 0; n <= SMALL; n++) {
        for (int g = 0; g < GUARD; g++)
          large[(int)n + g] = -7.0f;
        philox_fill_f32(seed, offsets[o], bounds[b][0], bounds[b][1], large, n, 1);
        compared += expect_fill(large, n, seed, offsets[o], bounds[b][0], bounds[b][1]);
        for (int g = 0; g < GUARD; g++)
          expect_u32("fill past the end", f32_bits(large[(int)n + g]), f32_bits(-7.0f));
        /* The mask against the value of element n / 2: that one is not below itself. */
        float threshold = n ? large[n / 2] : 0.5f;
        for (int g = 0; g < GUARD; g++)
          mask[n + (size_t)g] = true;
        philox_fill_below(seed, offsets[o], bounds[b][0], bounds[b][1], threshold, mask, n, 1);
        masked += expect_below(mask, n, seed, offsets[o], bounds[b][0], bounds[b][1], threshold);
        for (int g = 0; g < GUARD; g++)
          expect_u32("mask past the end", mask[n + (size_t)g], true);
      }
  printf("fill: lengths 0..%d, 4 offsets, 2 ranges: %zu values, %zu mask bytes agree\n", (int)SMALL,
         compared, masked);

  /* A large odd length split over 1, 2, 3, 7 threads and one per CPU: the same bits,
	 * those of the element mapping; the guards around the buffer untouched. */
  compared = masked = 0;
  for (int g = 0; g < GUARD; g++)
    buffer[g] = buffer[GUARD + LARGE + g] = -7.0f;
  static const int threads[] = {1, 2, 3, 7, 0};
  for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
    memset(large, 0, LARGE * sizeof *large);
    philox_fill_f32(seed, UINT64_C(0xffffffffffffffff), 0.0, 1.0, large, LARGE, threads[t]);
    compared += expect_fill(large, LARGE, seed, UINT64_C(0xffffffffffffffff), 0.0, 1.0);
    memset(mask, 0, LARGE);
    philox_fill_below(seed, UINT64_C(0xffffffffffffffff), 0.0, 1.0, 0.9f, mask, LARGE, threads[t]);
    masked += expect_below(mask, LARGE, seed, UINT64_C(0xffffffffffffffff), 0.0, 1.0, 0.9f);
  }
  for (int g = 0; g < GUARD; g++) {
    expect_u32("fill before the start", f32_bits(buffer[g]), f32_bits(-7.0f));
    expect_u32("fill past the end", f32_bits(buffer[GUARD + LARGE + g]), f32_bits(-7.0f));
  }
  printf("fill: %d values on 1, 2, 3, 7 and all threads: %zu values, %zu mask bytes agree\n",
         (int)LARGE, compared, masked);
}

/* --- f16 / bf16 conversions --- */

static void print_f16(float value) {
  uint16_t bits = f32_to_f16_bits(value);

  printf("f16 %08" PRIx32 " -> %04x -> %08" PRIx32 "\n", f32_bits(value), bits,
         f32_bits(f16_bits_to_f32(bits)));
}

static void print_bf16(float value) {
  uint16_t bits = f32_to_bf16_bits(value);

  printf("bf16 %08" PRIx32 " -> %04x -> %08" PRIx32 "\n", f32_bits(value), bits,
         f32_bits(bf16_bits_to_f32(bits)));
}

/* For every finite f16/bf16 pattern b, the f32 halfway point between b and
 * the next value up in magnitude must round to whichever of the two is even,
 * and one f32 ulp either side of it must round down / up. Every such
 * midpoint is an f32 (12 or 9 significant bits). Also: every pattern
 * converts to f32 and back unchanged (NaN: quieted). */
static void sweep_16(const char *name, uint16_t (*to16)(float), float (*from16)(uint16_t),
                     uint16_t infinity) {
  unsigned checked = 0;

  for (uint32_t b = 0; b <= 0xffff; b++) {
    uint16_t bits = (uint16_t)b, magnitude = bits & 0x7fff;
    float value = from16(bits);
    uint16_t back = to16(value);

    if (magnitude > infinity) { /* NaN */
      /* Still NaN, same sign. */
      if ((back & 0x7fff) <= infinity || (back & 0x8000) != (bits & 0x8000))
        expect_u32(name, back, bits);
      continue;
    }
    expect_u32(name, back, bits);
    checked++;
    if (magnitude >= infinity - 1)
      continue; /* no finite value above to pair */

    float next = from16((uint16_t)(bits + 1));
    /* next - value is one ulp, exact; half of it too (no
		 * underflow: the smallest half ulp is 2^-134 for bf16); the
		 * midpoint is an f32, so the sum is exact. value + next
		 * could overflow. */
    float mid = value + (next - value) / 2;
    uint16_t even = (bits & 1) ? (uint16_t)(bits + 1) : bits;
    uint32_t mid_bits = f32_bits(mid);

    expect_u32(name, to16(mid), even);
    expect_u32(name, to16(f32_from_bits(mid_bits - 1)), bits);
    expect_u32(name, to16(f32_from_bits(mid_bits + 1)), (uint16_t)(bits + 1));
    checked += 3;
  }
  printf("%s: %u conversions checked\n", name, checked);
}

static void test_half(void) {
  /* f16: 1 -> 0x3c00; 65504 is the largest finite (0x7bff); 65520 is
	 * halfway to 2^16 and rounds to even: infinity; 2^-14 is the smallest
	 * normal (0x0400); 2^-24 the smallest subnormal (0x0001); 2^-25 is
	 * halfway to 0: ties to even 0; 3 * 2^-25 is 1.5 ulp: 2 (0x0002);
	 * 2^-14 - 2^-25 is 1023.5 ulp: 1024 = smallest normal;
	 * 1 + 2^-11 is halfway: even 0x3c00; 1 + 3 * 2^-11: 0x3c02;
	 * f32 subnormal 2^-149 -> +0; -0 -> 0x8000; inf; NaN -> quiet. */
  print_f16(1.0f);
  print_f16(65504.0f);
  print_f16(65519.996f);
  print_f16(65520.0f);
  print_f16(0x1p-14f);
  print_f16(0x1p-24f);
  print_f16(0x1p-25f);
  print_f16(0x1.000002p-25f);
  print_f16(0x3p-25f);
  print_f16(0x1p-14f - 0x1p-25f);
  print_f16(1.0f + 0x1p-11f);
  print_f16(1.0f + 0x3p-11f);
  print_f16(-0x1p-149f);
  print_f16(-0.0f);
  print_f16(-1e10f);
  print_f16(f32_from_bits(0x7f800000));
  print_f16(f32_from_bits(0xff800001)); /* signalling NaN */
  print_f16(f32_from_bits(0x7fc00000));

  /* bf16: truncating 16 bits with ties to even. 1 + 2^-8 is halfway:
	 * 0x3f80; 1 + 3 * 2^-8: 0x3f82; the largest f32 rounds to infinity;
	 * the smallest f32 subnormal 2^-149 is below half a bf16 subnormal
	 * ulp (2^-133): 0; NaN stays NaN. */
  print_bf16(1.0f);
  print_bf16(1.0f + 0x1p-8f);
  print_bf16(1.0f + 0x3p-8f);
  print_bf16(0.1f);
  print_bf16(f32_from_bits(0x7f7fffff));
  print_bf16(f32_from_bits(0x00000001));
  print_bf16(f32_from_bits(0x00008000));
  print_bf16(f32_from_bits(0x00018000));
  print_bf16(f32_from_bits(0xff800001));

  sweep_16("f16", f32_to_f16_bits, f16_bits_to_f32, 0x7c00);
  sweep_16("bf16", f32_to_bf16_bits, bf16_bits_to_f32, 0x7f80);
}

int main(void) {
  test_known_answers();
  test_mapping();
  test_unit();
  test_uniform();
  test_fill();
  test_half();
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures != 0;
}
