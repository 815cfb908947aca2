/* codegen_interp_test: the sweep of the compiled kernels (host target, LLVM ORC JIT, at
 * -O0 and -O3) against the reference interpreter (lib/runtime), element for element. A
 * generated module holds, for every element type, kernels with every binary, unary and
 * compare op of the op table, select, every conversion to every other type, scalars of
 * every scalar type mixed into binary ops, every binary op with constant operands on
 * either side (the pow exponents 0.5, 2, -1, 3, special values), every unary op of
 * rt.full constants (values whose math function LLVM could fold in double precision),
 * structural ops and Philox, plus reductions in host functions: small ones, and rows of
 * 1 to 4096 elements of a large dynamic range. Inputs: the special values of each type
 * (0, -0, inf, NaN, the smallest and largest subnormal, the smallest normal, the largest
 * finite value, MIN/MAX, -1, values where glibc's powf differs from x*x, sqrtf, 1/x),
 * every pair of them for binary ops, then a dense sample of every binade (every exponent
 * field, both signs, several mantissas). Results must be bit-identical, except that two
 * NaNs of any payload and sign are equal (NaN payloads are not part of the contract:
 * docs/design.md, "Exactness"). A new op of the table is swept without editing this file.
 * Driven by codegen_interp_test.test; with --module FILE it writes the module instead
 * (test/ops/table-ptx.test). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "codegen_test.h"
#include "half.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"
#include "interp.h"
#include "io.h"

#define N 4099 /* odd: no vector width divides it */

static const char *elems[] = {"f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64"};
static const char *scalars[] = {"f32", "f64", "i64", "i32", "i1"};
/* The elementwise ops come from the op table (dialect-c/rt_ops.def), so a new op is
 * tested here without editing this file: binary, unary (those of rule ANY on integers
 * too) and compares. */
static const char *binary[RT_OP_COUNT], *unary_float[RT_OP_COUNT], *unary_int[RT_OP_COUNT];
static const char *compares[RT_OP_COUNT];
static size_t nbinary, nunary_float, nunary_int, ncompares;
static bool float_only[RT_OP_COUNT]; /* by name index of binary[] and compares[] */

static void collect_ops(void) {
  for (int i = 1; i < RT_OP_COUNT; i++) {
    rt_op_id id = (rt_op_id)i;
    const char *name = rt_op_name(id) + 3; /* without "rt." */
    rt_type_rule rule = rt_op_rule(id);
    if (rt_op_kind_of(id) == RT_KIND_COMPARE)
      compares[ncompares++] = name;
    else if (rt_op_kind_of(id) != RT_KIND_ELEMENTWISE)
      continue;
    else if (rt_op_arity(id) == 2) {
      float_only[nbinary] = rule == RT_RULE_FLOAT;
      binary[nbinary++] = name;
    } else if (rt_op_arity(id) == 1 && (rule == RT_RULE_ANY || rule == RT_RULE_FLOAT)) {
      unary_float[nunary_float++] = name;
      if (rule == RT_RULE_ANY)
        unary_int[nunary_int++] = name;
    }
  }
}

static bool is_float(const char *e) { return e[0] == 'f' || e[0] == 'b'; }

/* ---- the module ------------------------------------------------------------------- */

typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if ((size_t)n < t->cap - t->len) {
      t->len += (size_t)n;
      return;
    }
    t->cap = 2 * t->cap + (size_t)n + 1;
    t->s = realloc(t->s, t->cap);
  }
}

/* The constants of the sweep: the exponents LLVM would rewrite pow for (2, 0.5, -1, 3),
 * a power-of-two base, special values, and f32 values whose exp, log1p, cos and log
 * computed in double and rounded differ from glibc's f32 functions (a fold in double
 * precision shows there). */
static const double fconsts[] = {
    2.0,  0.5,   -1.0,   3.0,           -0.5,         0.0,           -0.0,
    1.0,  8.0,   0.1,    INFINITY,      -INFINITY,    NAN,           1e-40,
    3e38, 88.72, -103.9, 0x1.02c6d4p-3, 0x1.00246p-3, 0x1.029ba2p-3, 0x1.00e722p-3};
#define NFCONST (sizeof fconsts / sizeof *fconsts)
static const int64_t iconsts[] = {2, 0, 1, -1, 3, 7, -128, 127, 64, INT64_MAX, INT64_MIN};
#define NICONST (sizeof iconsts / sizeof *iconsts)
/* Reduced rows: 1 to 4096 elements (one lane, a warp, a block of 256 and past it). */
static const int row_lengths[] = {1, 3, 32, 255, 256, 257, 1000, 4096};
#define ROWS 4

/* "return %r0, ..., %r<n-1> : tensor<NxE>, ..." and the function's closing brace. */
static void put_return_r(text *t, size_t n, const char *e) {
  put(t, "  return ");
  for (size_t k = 0; k < n; k++)
    put(t, "%s%%r%zu", k ? ", " : "", k);
  put(t, " : ");
  for (size_t k = 0; k < n; k++)
    put(t, "%stensor<%dx%s>", k ? ", " : "", N, e);
  put(t, "\n}\n");
}

/* arith.constant %<name><k> of constant k of the list for element type E, in the scalar
 * type the ops of E take (floats by bit pattern: inf and NaN are exact). */
static const char *put_constant(text *t, const char *e, const char *name, size_t k) {
  if (!is_float(e)) {
    put(t, "  %%%s%zu = arith.constant %lld : i64\n", name, k, (long long)iconsts[k]);
    return "i64";
  }
  if (!strcmp(e, "f64")) {
    uint64_t b;
    memcpy(&b, &fconsts[k], sizeof b);
    put(t, "  %%%s%zu = arith.constant 0x%016llX : f64\n", name, k, (unsigned long long)b);
    return "f64";
  }
  float f = (float)fconsts[k];
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  put(t, "  %%%s%zu = arith.constant 0x%08X : f32\n", name, k, (unsigned)b);
  return "f32";
}

/* For element type E: each binary op and compare with a constant on either side
 * (@cb_OP_E), each unary float op of rt.full constants (@cu_OP_E), and sums and maxima
 * of long rows (@rows_E_L). */
static void gen_constant_kernels(text *t, const char *e) {
  bool fl = is_float(e);
  size_t nc = fl ? NFCONST : NICONST;
  for (size_t o = 0; o < nbinary + ncompares; o++) {
    bool cmp = o >= nbinary;
    const char *op = cmp ? compares[o - nbinary] : binary[o];
    if (!cmp && float_only[o] && !fl)
      continue;
    const char *re = cmp ? "i1" : e;
    put(t, "func.func private @cb_%s_%s(%%a: tensor<%dx%s>) -> (", op, e, N, e);
    for (size_t k = 0; k < 2 * nc; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, re);
    put(t, ") attributes {rt.kernel} {\n");
    for (size_t k = 0; k < nc; k++) {
      const char *st = put_constant(t, e, "c", k);
      put(t, "  %%r%zu = \"rt.%s\"(%%a, %%c%zu) : (tensor<%dx%s>, %s) -> tensor<%dx%s>\n", k, op, k,
          N, e, st, N, re);
      put(t, "  %%s%zu = \"rt.%s\"(%%c%zu, %%a) : (%s, tensor<%dx%s>) -> tensor<%dx%s>\n", k, op, k,
          st, N, e, N, re);
    }
    put(t, "  return ");
    for (size_t k = 0; k < 2 * nc; k++)
      put(t, "%s%%%c%zu", k ? ", " : "", k < nc ? 'r' : 's', k % nc);
    put(t, " : ");
    for (size_t k = 0; k < 2 * nc; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, re);
    put(t, "\n}\n");
  }
  for (size_t o = 0; fl && o < nunary_float; o++) {
    put(t, "func.func private @cu_%s_%s(%%a: tensor<%dx%s>) -> (", unary_float[o], e, N, e);
    for (size_t k = 0; k < nc; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, e);
    put(t, ") attributes {rt.kernel} {\n");
    for (size_t k = 0; k < nc; k++) {
      uint64_t b;
      memcpy(&b, &fconsts[k], sizeof b);
      put(t, "  %%f%zu = \"rt.full\"() {value = 0x%016llX : f64} : () -> tensor<%dx%s>\n", k,
          (unsigned long long)b, N, e);
      put(t, "  %%r%zu = \"rt.%s\"(%%f%zu) : (tensor<%dx%s>) -> tensor<%dx%s>\n", k, unary_float[o],
          k, N, e, N, e);
    }
    put_return_r(t, nc, e);
  }
  for (size_t i = 0; i < sizeof row_lengths / sizeof *row_lengths; i++) {
    int L = row_lengths[i];
    put(t, "func.func @rows_%s_%d(%%x: tensor<%dx%dx%s>) -> (tensor<%dx%s>, tensor<%dx%s>) {\n", e,
        L, ROWS, L, e, ROWS, e, ROWS, e);
    put(t, "  %%s = \"rt.sum\"(%%x) {dims = array<i64: 1>} : (tensor<%dx%dx%s>) -> tensor<%dx%s>\n",
        ROWS, L, e, ROWS, e);
    put(t,
        "  %%m = \"rt.amax\"(%%x) {dims = array<i64: 1>} : (tensor<%dx%dx%s>) -> tensor<%dx%s>\n",
        ROWS, L, e, ROWS, e);
    put(t, "  return %%s, %%m : tensor<%dx%s>, tensor<%dx%s>\n}\n", ROWS, e, ROWS, e);
  }
}

/* One kernel per element type and op group; results all tensor<Nx..>. */
static void gen_module(text *t) {
  for (size_t i = 0; i < sizeof elems / sizeof *elems; i++) {
    const char *e = elems[i];
    /* binary ops, then compares, on two tensors */
    put(t, "func.func private @bin_%s(%%a: tensor<%dx%s>, %%b: tensor<%dx%s>) -> (", e, N, e, N, e);
    size_t nb = nbinary, nbc = nbinary + ncompares;
    for (size_t k = 0; k < nbc; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, k < nb ? e : "i1");
    put(t, ") attributes {rt.kernel} {\n");
    for (size_t k = 0; k < nb; k++)
      put(t, "  %%r%zu = \"rt.%s\"(%%a, %%b) : (tensor<%dx%s>, tensor<%dx%s>) -> tensor<%dx%s>\n",
          k, binary[k], N, e, N, e, N, e);
    for (size_t k = 0; k < ncompares; k++)
      put(t, "  %%c%zu = \"rt.%s\"(%%a, %%b) : (tensor<%dx%s>, tensor<%dx%s>) -> tensor<%dxi1>\n",
          k, compares[k], N, e, N, e, N);
    put(t, "  return ");
    for (size_t k = 0; k < nbc; k++)
      put(t, "%s%%%c%zu", k ? ", " : "", k < nb ? 'r' : 'c', k < nb ? k : k - nb);
    put(t, " : ");
    for (size_t k = 0; k < nbc; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, k < nb ? e : "i1");
    put(t, "\n}\n");
    /* unary ops (neg/abs on integers too) */
    size_t nu = is_float(e) ? nunary_float : nunary_int;
    put(t, "func.func private @un_%s(%%a: tensor<%dx%s>) -> (", e, N, e);
    for (size_t k = 0; k < nu; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, e);
    put(t, ") attributes {rt.kernel} {\n");
    for (size_t k = 0; k < nu; k++)
      put(t, "  %%r%zu = \"rt.%s\"(%%a) : (tensor<%dx%s>) -> tensor<%dx%s>\n", k,
          is_float(e) ? unary_float[k] : unary_int[k], N, e, N, e);
    put_return_r(t, nu, e);
    /* conversions to every type, and a select */
    put(t,
        "func.func private @conv_%s(%%a: tensor<%dx%s>, %%c: tensor<%dxi1>, %%b: tensor<%dx%s>) -> (",
        e, N, e, N, N, e);
    for (size_t k = 0; k < 8; k++)
      put(t, "tensor<%dx%s>, ", N, elems[k]);
    put(t, "tensor<%dx%s>) attributes {rt.kernel} {\n", N, e);
    for (size_t k = 0; k < 8; k++)
      put(t, "  %%r%zu = \"rt.convert\"(%%a) : (tensor<%dx%s>) -> tensor<%dx%s>\n", k, N, e, N,
          elems[k]);
    put(t,
        "  %%s = \"rt.select\"(%%c, %%a, %%b) : (tensor<%dxi1>, tensor<%dx%s>, tensor<%dx%s>) -> tensor<%dx%s>\n",
        N, N, e, N, e, N, e);
    put(t, "  return %%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7, %%s : ");
    for (size_t k = 0; k < 8; k++)
      put(t, "tensor<%dx%s>, ", N, elems[k]);
    put(t, "tensor<%dx%s>\n}\n", N, e);
    /* scalars of every type in add, mul, div, max and lt */
    for (size_t s = 0; s < sizeof scalars / sizeof *scalars; s++) {
      const char *st = scalars[s];
      put(t,
          "func.func private @scal_%s_%s(%%a: tensor<%dx%s>, %%s: %s) -> (tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dxi1>) attributes {rt.kernel} {\n",
          e, st, N, e, st, N, e, N, e, N, e, N, e, N);
      put(t, "  %%r0 = \"rt.add\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dx%s>\n", N, e, st, N,
          e);
      put(t, "  %%r1 = \"rt.mul\"(%%s, %%a) : (%s, tensor<%dx%s>) -> tensor<%dx%s>\n", st, N, e, N,
          e);
      put(t, "  %%r2 = \"rt.div\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dx%s>\n", N, e, st, N,
          e);
      put(t, "  %%r3 = \"rt.max\"(%%s, %%a) : (%s, tensor<%dx%s>) -> tensor<%dx%s>\n", st, N, e, N,
          e);
      put(t, "  %%r4 = \"rt.lt\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dxi1>\n", N, e, st, N);
      put(t,
          "  return %%r0, %%r1, %%r2, %%r3, %%r4 : tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dxi1>\n}\n",
          N, e, N, e, N, e, N, e, N);
    }
    /* structural ops, full and iota on a [4, 6] space */
    put(t,
        "func.func private @struct_%s(%%a: tensor<6xf32>, %%b: tensor<6x4x%s>, %%c: tensor<9x13x%s>, %%d: tensor<2x6x%s>, %%e: tensor<24x%s>) -> (tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6xf32>) attributes {rt.kernel} {\n",
        e, e, e, e, e, e, e, e, e, e, e);
    put(t, "  %%x = \"rt.convert\"(%%a) : (tensor<6xf32>) -> tensor<6x%s>\n", e);
    put(t,
        "  %%r0 = \"rt.broadcast\"(%%x) {dims = array<i64: 1>} : (tensor<6x%s>) -> tensor<4x6x%s>\n",
        e, e);
    put(t,
        "  %%r1 = \"rt.transpose\"(%%b) {perm = array<i64: 1, 0>} : (tensor<6x4x%s>) -> tensor<4x6x%s>\n",
        e, e);
    put(t,
        "  %%r2 = \"rt.slice\"(%%c) {start = array<i64: 1, 0>, limit = array<i64: 9, 12>, stride = array<i64: 2, 2>} : (tensor<9x13x%s>) -> tensor<4x6x%s>\n",
        e, e);
    put(t,
        "  %%r3 = \"rt.concat\"(%%d, %%d) {dim = 0 : i64} : (tensor<2x6x%s>, tensor<2x6x%s>) -> tensor<4x6x%s>\n",
        e, e, e);
    put(t, "  %%r4 = \"rt.reshape\"(%%e) : (tensor<24x%s>) -> tensor<4x6x%s>\n", e, e);
    put(t, "  %%r5 = \"rt.iota\"() {dim = 1 : i64} : () -> tensor<4x6x%s>\n", e);
    put(t, "  %%r6 = \"rt.full\"() {value = 2.5 : f64} : () -> tensor<4x6xf32>\n");
    put(t,
        "  return %%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6 : tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6xf32>\n}\n",
        e, e, e, e, e, e);
    put(t,
        "func.func @host_%s(%%x: tensor<3x5x7x%s>) -> (tensor<5x%s>, tensor<3x7x%s>, tensor<%s>) {\n",
        e, e, e, e, e);
    put(t,
        "  %%s = \"rt.sum\"(%%x) {dims = array<i64: 2, 0>} : (tensor<3x5x7x%s>) -> tensor<5x%s>\n",
        e, e);
    put(t,
        "  %%m = \"rt.amax\"(%%x) {dims = array<i64: 1>} : (tensor<3x5x7x%s>) -> tensor<3x7x%s>\n",
        e, e);
    put(t,
        "  %%t = \"rt.sum\"(%%x) {dims = array<i64: 0, 1, 2>} : (tensor<3x5x7x%s>) -> tensor<%s>\n",
        e, e);
    put(t, "  return %%s, %%m, %%t : tensor<5x%s>, tensor<3x7x%s>, tensor<%s>\n}\n", e, e, e);
  }
  for (size_t i = 0; i < sizeof elems / sizeof *elems; i++)
    gen_constant_kernels(t, elems[i]);
  for (size_t i = 0; i < 3; i++)
    put(t,
        "func.func private @philox_%s(%%seed: i64, %%offset: i64) -> tensor<%dx%s> attributes {rt.kernel} {\n"
        "  %%u = \"rt.uniform_philox\"(%%seed, %%offset) {lo = -3.0 : f64, hi = 0.7 : f64} : (i64, i64) -> tensor<%dx%s>\n"
        "  return %%u : tensor<%dx%s>\n}\n",
        elems[i], N, elems[i], N, elems[i], N, elems[i]);
}

/* ---- inputs ----------------------------------------------------------------------- */

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

static int exponent_fields(rtr_elem e) { return e == RTR_F64 ? 2047 : e == RTR_F16 ? 31 : 255; }

/* Special values of each float type: NFSPECIAL fixed ones, then the type's extremes. */
static const double fspecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, INFINITY, -INFINITY,
                                  NAN, 1e-40, -1e-45, 65504.0, 70000.0, 3.0e38, 1e-7, 100.25, -7.0,
                                  6.0e-8,
                                  /* glibc's powf(x, 2) != x*x, powf(x, .5) != sqrtf(x),
                                   * powf(x, -1) != 1/x, powf(x, 3) != x*x*x */
                                  0x1.4p-73, 0x1.a748p-136, 0x1.00a868p-128, 0x1.5f0712p-48};
#define NFSPECIAL (sizeof fspecial / sizeof *fspecial)
#define NSPECIAL (NFSPECIAL + 6)
static double special_value(rtr_elem e, size_t k) {
  int top = exponent_fields(e) - 1;
  switch (k - NFSPECIAL) {
  case 0: return rtr_float_from_fields(e, 0, 0, 1);       /* smallest subnormal */
  case 1: return rtr_float_from_fields(e, 1, 0, ~0ull);   /* largest subnormal */
  case 2: return rtr_float_from_fields(e, 0, 1, 0);       /* smallest normal */
  case 3: return rtr_float_from_fields(e, 0, top, ~0ull); /* largest finite */
  case 4: return rtr_float_from_fields(e, 1, top, ~0ull);
  case 5: return rtr_float_from_fields(e, 0, top, 0);
  default: return fspecial[k];
  }
}
static const int64_t ispecial[] = {0,         1,   -1,   2,   -2,        3,         7,
                                   -7,        127, -128, 255, INT32_MAX, INT32_MIN, INT64_MAX,
                                   INT64_MIN, 10,  -10,  31,  64,        5};
#define NISPECIAL (sizeof ispecial / sizeof *ispecial)

/* Inputs of kernels. Operand ROLE 0 and 1 of a binary op first take every pair of special
 * values (role 0 the row, role 1 the column), then every binade of the type is sampled:
 * element i has exponent field i mod (fields), sign and mantissa drawn. Integers: every
 * pair of special values, then the full 64-bit range and small values. */
static void fill(rtr_buffer *b, int role) {
  bool fl = rtr_elem_is_float(b->elem);
  int64_t ns = fl ? (int64_t)NSPECIAL : (int64_t)NISPECIAL;
  for (int64_t i = 0; i < b->numel; i++) {
    uint64_t r = next();
    if (i < ns * ns && role < 2) {
      int64_t k = role == 0 ? i / ns : i % ns;
      if (fl)
        rtr_buffer_set_f(b, i, special_value(b->elem, (size_t)k));
      else
        rtr_buffer_set_i(b, i, ispecial[k]);
    } else if (fl) {
      int fields = exponent_fields(b->elem);
      int expo = role == 0 ? (int)(i % fields) : (int)(r % (uint64_t)fields);
      rtr_buffer_set_f(b, i, rtr_float_from_fields(b->elem, (int)(r >> 63), expo, next()));
    } else {
      rtr_buffer_set_i(b, i, r & 1 ? (int64_t)next() : (int64_t)(next() % 41) - 20);
    }
  }
}

/* Rows to reduce: magnitudes from 2^-40 to 2^40 (sums that cancel and absorb), both
 * signs, one -0; integers over their whole range. */
static void fill_rows(rtr_buffer *b) {
  for (int64_t i = 0; i < b->numel; i++) {
    uint64_t r = next();
    if (rtr_elem_is_float(b->elem))
      rtr_buffer_set_f(b, i,
                       i == 1 ? -0.0
                              : ldexp((r >> 63) ? -1.0 : 1.0, (int)(r % 81) - 40) *
                                    (1.0 + (double)(next() >> 12) * 0x1p-52));
    else
      rtr_buffer_set_i(b, i, (int64_t)next());
  }
}

static bool is_nan_elem(const rtr_buffer *b, int64_t i) {
  return rtr_elem_is_float(b->elem) && isnan(rtr_buffer_get_f(b, i));
}

/* Bit-identical, or NaN on both sides. Prints the first few mismatches. */
static int compare(const char *fn, int k, const rtr_buffer *want, const rtr_buffer *got) {
  size_t es = rtr_elem_size(want->elem);
  int bad = 0;
  for (int64_t i = 0; i < want->numel; i++) {
    const unsigned char *w = (const unsigned char *)want->data + (size_t)i * es,
                        *g = (const unsigned char *)got->data + (size_t)i * es;
    if (!memcmp(w, g, es) || (is_nan_elem(want, i) && is_nan_elem(got, i)))
      continue;
    if (bad++ < 3) {
      char tb[64];
      printf("MISMATCH %s result #%d (%s) element %lld: interpreter %.9g, kernel %.9g\n", fn, k,
             rtr_buffer_type_str(want, tb, sizeof tb), (long long)i, rtr_buffer_get_f(want, i),
             rtr_buffer_get_f(got, i));
    }
  }
  return bad;
}

/* Runs one function through the interpreter and through `jitname` (packed ABI). */
static int check(MlirOperation module, remat_jit *jit, const char *fn, const char *jitname,
                 int first_out, int nout_jit) {
  MlirOperation f = rtr_interp_lookup(module, fn);
  MlirType fty = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  int ni = (int)mlirFunctionTypeGetNumInputs(fty);
  rtr_buffer *in[8];
  for (int i = 0; i < ni; i++) {
    in[i] = rtr_interp_buffer_for_type(mlirFunctionTypeGetInput(fty, i), false);
    if (!strncmp(fn, "rows_", 5))
      fill_rows(in[i]);
    else
      fill(in[i], i);
  }
  rtr_buffer **want;
  int nw;
  if (rtr_interp_run(module, f, NULL, in, ni, &want, &nw)) {
    printf("interpreter failed on %s\n", fn);
    exit(1);
  }
  remat_packed_fn call = (remat_packed_fn)(uintptr_t)remat_jit_lookup(jit, jitname);
  if (!call) {
    printf("no %s in the JIT\n", jitname);
    exit(1);
  }
  int bad = 0;
  if (first_out < 0) { /* a kernel: all inputs, all results */
    void *args[128];
    rtr_buffer *got[96];
    for (int i = 0; i < ni; i++)
      args[i] = in[i]->data;
    for (int k = 0; k < nw; k++) {
      if (!(got[k] = rtr_buffer_clone(want[k]))) {
        printf("%s: out of memory\n", fn);
        exit(1);
      }
      memset(got[k]->data, 0xA5, rtr_elem_size(got[k]->elem) * (size_t)got[k]->numel);
      args[ni + k] = got[k]->data;
    }
    int64_t n = want[0]->numel;
    call(args, 0, n / 3); /* split ranges, as the runtime would */
    call(args, n / 3, n);
    for (int k = 0; k < nw; k++) {
      bad += compare(fn, k, want[k], got[k]);
      rtr_buffer_free(got[k]);
    }
  } else { /* a reduction: (input 0, result first_out) */
    rtr_buffer *got = rtr_buffer_clone(want[first_out]);
    if (!got) {
      printf("%s: out of memory\n", jitname);
      exit(1);
    }
    memset(got->data, 0xA5, rtr_elem_size(got->elem) * (size_t)got->numel);
    void *args[2] = {in[0]->data, got->data};
    call(args, 0, got->numel);
    bad += compare(jitname, first_out, want[first_out], got);
    rtr_buffer_free(got);
  }
  (void)nout_jit;
  rtr_buffers_free(want, nw);
  for (int i = 0; i < ni; i++)
    rtr_buffer_free(in[i]);
  return bad;
}

/* codegen_interp_test: the sweep; codegen_interp_test --module FILE: only writes the
 * module to FILE (test/ops/table-ptx.test lowers its kernels to PTX). */
static int level(MlirOperation top, remat_codegen *cg, remat_jit *jit, int opt) {
  state = 0x9E3779B97F4A7C15ull; /* the same inputs at each level */
  int nbad = 0, kernels = 0, reductions = 0;
  for (int i = 0, nfn = remat_codegen_num_functions(cg); i < nfn; i++) {
    const remat_cg_function *f = remat_codegen_function(cg, i);
    char packed[160];
    snprintf(packed, sizeof packed, "%s_packed", f->name);
    if (f->kind == REMAT_CG_KERNEL) {
      nbad += check(top, jit, f->name, packed, -1, 0);
      kernels++;
    } else {
      /* <host>_r<N>: run the host function, compare its result N */
      char host[128];
      snprintf(host, sizeof host, "%s", f->name);
      int n = atoi(strrchr(host, '_') + 2);
      *strrchr(host, '_') = 0;
      nbad += check(top, jit, host, packed, n, 1);
      reductions++;
    }
  }
  printf("-O%d: kernels %d, reductions %d, mismatching elements %d\n", opt, kernels, reductions,
         nbad);
  return nbad;
}

int main(int argc, char **argv) {
  text t = {malloc(1 << 16), 0, 1 << 16};
  t.s[0] = 0;
  collect_ops();
  bool module_only = argc == 3 && !strcmp(argv[1], "--module");
  if (!module_only) {
    printf("binary ops:");
    for (size_t k = 0; k < nbinary; k++)
      printf(" %s", binary[k]);
    printf("\nunary float ops:");
    for (size_t k = 0; k < nunary_float; k++)
      printf(" %s", unary_float[k]);
    printf("\ncompares:");
    for (size_t k = 0; k < ncompares; k++)
      printf(" %s", compares[k]);
    printf("\n");
  }
  gen_module(&t);
  int rc = module_only ? codegen_test_write(argv[2], t.s, t.len)
                       : codegen_test_levels(t.s, t.len, level);
  free(t.s);
  return rc;
}
