/* codegen_host_test: JIT-compiles host-target kernels (lib/codegen, LLVM ORC) and checks
 * them against the C references: rt.uniform_philox against lib/numeric/philox.c bit for bit
 * (f32/f16/bf16, seeds and offsets with high 32 bits set, split [begin, end) ranges), the
 * dropout forward and backward kernels (the backward's recomputed mask equals the
 * forward's), f16/bf16 conversions against lib/numeric/half.c (all 65536 f16 patterns, a million
 * f32 patterns), broadcast/transpose/slice/concat/iota/reshape indexing, integer
 * division, and rt.sum / rt.amax reductions. Driven by test/unit/codegen_host_test.test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "codegen_test.h"
#include "half.h"
#include "mlir-c/IR.h"
#include "philox.h"
#include "remat-c/Remat.h"

#define N 1000

static const char *source =
    "func.func private @uni_f32(%seed: i64, %offset: i64) -> tensor<1000xf32> attributes {rt.kernel} {\n"
    "  %u = \"rt.uniform_philox\"(%seed, %offset) {lo = -1.5 : f64, hi = 2.5 : f64} : (i64, i64) -> tensor<1000xf32>\n"
    "  return %u : tensor<1000xf32>\n"
    "}\n"
    "func.func private @uni_unit(%seed: i64, %offset: i64) -> tensor<10x100xf32> attributes {rt.kernel} {\n"
    "  %u = \"rt.uniform_philox\"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<10x100xf32>\n"
    "  return %u : tensor<10x100xf32>\n"
    "}\n"
    "func.func private @uni_f16(%seed: i64, %offset: i64) -> (tensor<1000xf16>, tensor<1000xbf16>) attributes {rt.kernel} {\n"
    "  %u = \"rt.uniform_philox\"(%seed, %offset) {lo = 1.0 : f64, hi = 2.0 : f64} : (i64, i64) -> tensor<1000xf16>\n"
    "  %v = \"rt.uniform_philox\"(%seed, %offset) {lo = 1.0 : f64, hi = 2.0 : f64} : (i64, i64) -> tensor<1000xbf16>\n"
    "  return %u, %v : tensor<1000xf16>, tensor<1000xbf16>\n"
    "}\n"
    /* dropout, as --remat-mincut --remat-fuse leave it: the backward recomputes the mask */
    "func.func private @drop_fwd(%a: tensor<1000xf32>, %seed: i64, %offset: i64) -> tensor<1000xf32> attributes {rt.kernel} {\n"
    "  %half = arith.constant 5.000000e-01 : f32\n"
    "  %two = arith.constant 2.000000e+00 : f32\n"
    "  %t0 = \"rt.uniform_philox\"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<1000xf32>\n"
    "  %t1 = \"rt.lt\"(%t0, %half) : (tensor<1000xf32>, f32) -> tensor<1000xi1>\n"
    "  %t2 = \"rt.convert\"(%t1) : (tensor<1000xi1>) -> tensor<1000xf32>\n"
    "  %t3 = \"rt.mul\"(%a, %t2) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  %t4 = \"rt.mul\"(%t3, %two) : (tensor<1000xf32>, f32) -> tensor<1000xf32>\n"
    "  %t5 = \"rt.mul\"(%a, %t4) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  return %t5 : tensor<1000xf32>\n"
    "}\n"
    "func.func private @drop_bwd(%a: tensor<1000xf32>, %seed: i64, %offset: i64, %g: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xi1>) attributes {rt.kernel} {\n"
    "  %half = arith.constant 5.000000e-01 : f32\n"
    "  %two = arith.constant 2.000000e+00 : f32\n"
    "  %t0 = \"rt.uniform_philox\"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<1000xf32>\n"
    "  %t1 = \"rt.lt\"(%t0, %half) : (tensor<1000xf32>, f32) -> tensor<1000xi1>\n"
    "  %t2 = \"rt.convert\"(%t1) : (tensor<1000xi1>) -> tensor<1000xf32>\n"
    "  %t3 = \"rt.mul\"(%a, %t2) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  %t4 = \"rt.mul\"(%t3, %two) : (tensor<1000xf32>, f32) -> tensor<1000xf32>\n"
    "  %t33 = \"rt.mul\"(%t4, %g) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  %t34 = \"rt.mul\"(%a, %g) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  %t35 = \"rt.mul\"(%t34, %two) : (tensor<1000xf32>, f32) -> tensor<1000xf32>\n"
    "  %t36 = \"rt.mul\"(%t2, %t35) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  %t39 = \"rt.add\"(%t33, %t36) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>\n"
    "  return %t39, %t1 : tensor<1000xf32>, tensor<1000xi1>\n"
    "}\n"
    "func.func private @narrow(%x: tensor<1048576xf32>) -> (tensor<1048576xf16>, tensor<1048576xbf16>) attributes {rt.kernel} {\n"
    "  %h = \"rt.convert\"(%x) : (tensor<1048576xf32>) -> tensor<1048576xf16>\n"
    "  %b = \"rt.convert\"(%x) : (tensor<1048576xf32>) -> tensor<1048576xbf16>\n"
    "  return %h, %b : tensor<1048576xf16>, tensor<1048576xbf16>\n"
    "}\n"
    "func.func private @widen(%h: tensor<65536xf16>, %b: tensor<65536xbf16>) -> (tensor<65536xf32>, tensor<65536xf32>) attributes {rt.kernel} {\n"
    "  %x = \"rt.convert\"(%h) : (tensor<65536xf16>) -> tensor<65536xf32>\n"
    "  %y = \"rt.convert\"(%b) : (tensor<65536xbf16>) -> tensor<65536xf32>\n"
    "  return %x, %y : tensor<65536xf32>, tensor<65536xf32>\n"
    "}\n"
    /* f16 arithmetic rounds after every op: (a + b) * c in f16 */
    "func.func private @half_math(%a: tensor<4xf16>, %b: tensor<4xf16>, %c: f32) -> tensor<4xf16> attributes {rt.kernel} {\n"
    "  %s = \"rt.add\"(%a, %b) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>\n"
    "  %p = \"rt.mul\"(%s, %c) : (tensor<4xf16>, f32) -> tensor<4xf16>\n"
    "  return %p : tensor<4xf16>\n"
    "}\n"
    /* out[i][j] = b[j] + t[j][i] + 100 * iota_i */
    "func.func private @bcast_transpose(%b: tensor<3xf32>, %t: tensor<3x2xf32>) -> tensor<2x3xf32> attributes {rt.kernel} {\n"
    "  %x = \"rt.broadcast\"(%b) {dims = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>\n"
    "  %y = \"rt.transpose\"(%t) {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>\n"
    "  %i = \"rt.iota\"() {dim = 0 : i64} : () -> tensor<2x3xf32>\n"
    "  %h = arith.constant 1.000000e+02 : f32\n"
    "  %z = \"rt.mul\"(%i, %h) : (tensor<2x3xf32>, f32) -> tensor<2x3xf32>\n"
    "  %s = \"rt.add\"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %r = \"rt.add\"(%s, %z) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  return %r : tensor<2x3xf32>\n"
    "}\n"
    /* concat(slice(a)[rows 1,3; cols 0,2,4], reshape(c)) along dim 0 -> 4x3 i32 */
    "func.func private @slice_concat(%a: tensor<4x5xi32>, %c: tensor<6xi32>) -> tensor<4x3xi32> attributes {rt.kernel} {\n"
    "  %s = \"rt.slice\"(%a) {start = array<i64: 1, 0>, limit = array<i64: 4, 5>, stride = array<i64: 2, 2>} : (tensor<4x5xi32>) -> tensor<2x3xi32>\n"
    "  %r = \"rt.reshape\"(%c) : (tensor<6xi32>) -> tensor<2x3xi32>\n"
    "  %k = \"rt.concat\"(%s, %r) {dim = 0 : i64} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>\n"
    "  return %k : tensor<4x3xi32>\n"
    "}\n"
    "func.func private @int_ops(%a: tensor<6xi64>, %b: tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi64>, tensor<6xi8>) attributes {rt.kernel} {\n"
    "  %d = \"rt.div\"(%a, %b) : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>\n"
    "  %p = \"rt.pow\"(%a, %b) : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>\n"
    "  %n = \"rt.convert\"(%a) : (tensor<6xi64>) -> tensor<6xi8>\n"
    "  return %d, %p, %n : tensor<6xi64>, tensor<6xi64>, tensor<6xi8>\n"
    "}\n"
    "func.func @host(%x: tensor<3x4xf32>, %h: tensor<2x3xf16>) -> (tensor<3xf32>, tensor<4xf32>, tensor<f16>) {\n"
    "  %s = \"rt.sum\"(%x) {dims = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3xf32>\n"
    "  %m = \"rt.amax\"(%x) {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>\n"
    "  %t = \"rt.sum\"(%h) {dims = array<i64: 1, 0>} : (tensor<2x3xf16>) -> tensor<f16>\n"
    "  return %s, %m, %t : tensor<3xf32>, tensor<4xf32>, tensor<f16>\n"
    "}\n";

static int failures;

static void check(bool ok, const char *what) {
  printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

static const uint64_t seeds[][2] = {{0, 0},
                                    {42, 7},
                                    {0x123456789abcdef0ull, 0xfedcba9876543210ull},
                                    {0xffffffffull << 32, 1ull << 32}};

static void test_philox(remat_jit *jit) {
  static float out[N], unit[N];
  static uint16_t h[N], b[N];
  bool ok = true, ok_unit = true, ok_half = true;
  for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
    uint64_t seed = seeds[s][0], offset = seeds[s][1];
    /* two ranges, as a runtime splitting the work would call it */
    codegen_test_packed(jit, "uni_f32")((void *[]){&seed, &offset, out}, 0, 377);
    codegen_test_packed(jit, "uni_f32")((void *[]){&seed, &offset, out}, 377, N);
    codegen_test_packed(jit, "uni_unit")((void *[]){&seed, &offset, unit}, 0, N);
    codegen_test_packed(jit, "uni_f16")((void *[]){&seed, &offset, h, b}, 0, N);
    for (uint64_t i = 0; i < N; i++) {
      uint32_t bits = philox_element_bits(seed, offset, i);
      ok &= f32_bits(out[i]) == f32_bits(philox_uniform_f32(bits, -1.5, 2.5));
      ok_unit &= f32_bits(unit[i]) == f32_bits(philox_uniform_f32(bits, 0.0, 1.0));
      ok_half &= h[i] == philox_uniform_f16_bits(bits, 1.0, 2.0) &&
                 b[i] == philox_uniform_bf16_bits(bits, 1.0, 2.0);
    }
  }
  check(ok, "uniform_philox f32 [-1.5, 2.5) equals lib/philox.c");
  check(ok_unit, "uniform_philox f32 [0, 1) equals lib/philox.c");
  check(ok_half, "uniform_philox f16/bf16 [1, 2) equals lib/philox.c");
}

static void test_dropout(remat_jit *jit) {
  static float a[N], g[N], y[N], da[N];
  static uint8_t mask[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)(i % 17) * 0.25f - 2.0f;
    g[i] = (float)(i % 5) + 0.5f;
  }
  bool fwd_ok = true, bwd_ok = true, mask_ok = true;
  int kept = 0;
  for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
    uint64_t seed = seeds[s][0], offset = seeds[s][1];
    /* the forward through its direct (unpacked) ABI */
    void (*fwd)(const float *, int64_t, int64_t, float *, int64_t, int64_t) =
        (void (*)(const float *, int64_t, int64_t, float *, int64_t, int64_t))(
            uintptr_t)remat_jit_lookup(jit, "drop_fwd");
    fwd(a, (int64_t)seed, (int64_t)offset, y, 0, N);
    codegen_test_packed(jit, "drop_bwd")((void *[]){a, &seed, &offset, g, da, mask}, 0, N);
    for (uint64_t i = 0; i < N; i++) {
      bool keep = philox_uniform_f32(philox_element_bits(seed, offset, i), 0, 1) < 0.5f;
      float m = keep ? 1.0f : 0.0f;
      float t4 = a[i] * m * 2.0f;
      fwd_ok &= f32_bits(y[i]) == f32_bits(a[i] * t4);
      bwd_ok &= f32_bits(da[i]) == f32_bits(t4 * g[i] + m * ((a[i] * g[i]) * 2.0f));
      mask_ok &= mask[i] == (uint8_t)keep && (y[i] != 0) == (keep && a[i] != 0);
      kept += keep;
    }
  }
  check(fwd_ok, "dropout forward equals the reference");
  check(bwd_ok, "dropout backward equals the reference");
  check(mask_ok, "backward's recomputed mask equals the forward's");
  check(kept > 4 * N * 4 / 10 && kept < 4 * N * 6 / 10, "about half the elements kept");
}

static void test_half(remat_jit *jit) {
  enum { M = 1048576 };
  float *x = malloc(sizeof(float) * M), *wh = malloc(sizeof(float) * 65536),
        *wb = malloc(sizeof(float) * 65536);
  uint16_t *h = malloc(2 * M), *b = malloc(2 * M), *all = malloc(2 * 65536);
  /* special values first, then pseudo-random bit patterns over every exponent */
  static const uint32_t special[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                     0x7fc00001, 0xffa00000, 0x477ff000, 0x477fefff,
                                     0x477ff001, 0x33000000, 0x33000001, 0x387fc000,
                                     0x3f800000, 0x3f801000, 0x3f803000, 0x00000001};
  uint64_t state = 88172645463325252ull;
  for (int i = 0; i < M; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x[i] = f32_from_bits(i < 16 ? special[i] : (uint32_t)state);
  }
  codegen_test_packed(jit, "narrow")((void *[]){x, h, b}, 0, M);
  bool nh = true, nb = true;
  for (int i = 0; i < M; i++) {
    nh &= h[i] == f32_to_f16_bits(x[i]);
    nb &= b[i] == f32_to_bf16_bits(x[i]);
  }
  check(nh, "f32 -> f16 (2^20 patterns) equals lib/half.c");
  check(nb, "f32 -> bf16 (2^20 patterns) equals lib/half.c");
  for (int i = 0; i < 65536; i++)
    all[i] = (uint16_t)i;
  codegen_test_packed(jit, "widen")((void *[]){all, all, wh, wb}, 0, 65536);
  bool wh_ok = true, wb_ok = true;
  for (int i = 0; i < 65536; i++) {
    wh_ok &= f32_bits(wh[i]) == f32_bits(f16_bits_to_f32((uint16_t)i));
    wb_ok &= f32_bits(wb[i]) == f32_bits(bf16_bits_to_f32((uint16_t)i));
  }
  check(wh_ok, "f16 -> f32 (all 65536 patterns) equals lib/half.c");
  check(wb_ok, "bf16 -> f32 (all 65536 patterns) equals lib/half.c");

  uint16_t ha[4], hb[4], hr[4];
  float c = 3.0f;
  bool hm = true;
  for (int i = 0; i < 4; i++) {
    ha[i] = f32_to_f16_bits(1.0f + (float)i * 0.0009765625f); /* 1 + i ulp */
    hb[i] = f32_to_f16_bits(0.00048828125f);                  /* half an ulp of 1 */
  }
  codegen_test_packed(jit, "half_math")((void *[]){ha, hb, &c, hr}, 0, 4);
  for (int i = 0; i < 4; i++) {
    uint16_t s = f32_to_f16_bits(f16_bits_to_f32(ha[i]) + f16_bits_to_f32(hb[i]));
    hm &= hr[i] == f32_to_f16_bits(f16_bits_to_f32(s) * 3.0f);
  }
  check(hm, "f16 add then mul rounds after each op");
  free(x), free(wh), free(wb), free(h), free(b), free(all);
}

static void test_indexing(remat_jit *jit) {
  float bv[3] = {1, 2, 3}, t[6] = {10, 20, 30, 40, 50, 60}, out[6];
  codegen_test_packed(jit, "bcast_transpose")((void *[]){bv, t, out}, 0, 6);
  printf("bcast_transpose:");
  for (int i = 0; i < 6; i++)
    printf(" %g", out[i]);
  printf("\n");
  int32_t a[20], c[6], k[12];
  for (int i = 0; i < 20; i++)
    a[i] = i;
  for (int i = 0; i < 6; i++)
    c[i] = 100 + i;
  codegen_test_packed(jit, "slice_concat")((void *[]){a, c, k}, 0, 12);
  printf("slice_concat:");
  for (int i = 0; i < 12; i++)
    printf(" %d", k[i]);
  printf("\n");
  int64_t x[6] = {7, -7, 5, INT64_MIN, 2, -1}, y[6] = {2, 2, 0, -1, 10, -3}, d[6], p[6];
  int8_t n[6];
  codegen_test_packed(jit, "int_ops")((void *[]){x, y, d, p, n}, 0, 6);
  printf("int div:");
  for (int i = 0; i < 6; i++)
    printf(" %lld", (long long)d[i]);
  printf("\nint pow:");
  for (int i = 0; i < 6; i++)
    printf(" %lld", (long long)p[i]);
  printf("\ni64 -> i8:");
  for (int i = 0; i < 6; i++)
    printf(" %d", n[i]);
  printf("\n");
}

static void test_reductions(remat_jit *jit) {
  float x[12], s[3], m[4];
  for (int i = 0; i < 12; i++)
    x[i] = (float)((i * 7) % 12) - 5.5f;
  x[5] = NAN;
  codegen_test_packed(jit, "host_r0")((void *[]){x, s}, 0, 3);
  codegen_test_packed(jit, "host_r1")((void *[]){x, m}, 0, 4);
  printf("sum dims=[1]: %g %g %g\n", s[0], s[1], s[2]);
  printf("amax dims=[0]: %g %g %g %g\n", m[0], m[1], m[2], m[3]);
  uint16_t h[6], r;
  float want = -0.0f;
  for (int i = 0; i < 6; i++) {
    h[i] = f32_to_f16_bits(1000.0f + (float)i * 0.3f);
    want += f16_bits_to_f32(h[i]); /* f32 accumulation in row-major order */
  }
  codegen_test_packed(jit, "host_r2")((void *[]){h, &r}, 0, 1);
  check(r == f32_to_f16_bits(want), "f16 sum accumulates in f32 and rounds once");
}

int main(void) {
  MlirContext ctx;
  MlirModule module = codegen_test_parse(&ctx, source, strlen(source), NULL);
  if (mlirModuleIsNull(module))
    return 1;
  remat_codegen_options opts = {.target = REMAT_TARGET_HOST, .sm = 0, .opt_level = 3};
  remat_codegen *cg = remat_codegen_create(mlirModuleGetOperation(module), &opts);
  if (!cg)
    return 1;
  char *manifest = remat_codegen_manifest(cg);
  fputs(manifest, stdout);
  free(manifest);
  remat_jit *jit = codegen_test_jit(cg);
  if (!jit)
    return 1;
  test_philox(jit);
  test_dropout(jit);
  test_half(jit);
  test_indexing(jit);
  test_reductions(jit);
  remat_jit_destroy(jit);
  remat_codegen_destroy(cg);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  printf("failures: %d\n", failures);
  return failures != 0;
}
