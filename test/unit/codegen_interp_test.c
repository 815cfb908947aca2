/* codegen_interp_test: the compiled kernels (host target, LLVM ORC JIT) against the
 * reference interpreter (lib/runtime), element for element. A generated module holds,
 * for every element type, kernels with every binary, unary and compare op, select, every
 * conversion to every other type, scalars of every scalar type mixed into binary ops,
 * structural ops and Philox, plus reductions in a host function. Inputs mix special
 * values (0, -0, inf, NaN, subnormals, MIN/MAX, -1) with pseudo-random ones. Results must
 * be bit-identical, except that two NaNs of any payload are equal (NaN payloads are not
 * part of the contract). Driven by codegen_interp_test.test. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "half.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"
#include "runtime/interp.h"

#define N 97 /* odd: no vector width divides it */

static const char *elems[] = {"f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64"};
static const char *scalars[] = {"f32", "f64", "i64", "i32", "i1"};
/* The elementwise ops come from the op table (dialect-c/rt_ops.def), so a new op is
 * tested here without editing this file: binary, unary (those of rule ANY on integers
 * too) and compares. */
static const char *binary[RT_OP_COUNT], *unary_float[RT_OP_COUNT], *unary_int[RT_OP_COUNT];
static const char *compares[RT_OP_COUNT];
static size_t nbinary, nunary_float, nunary_int, ncompares;

static void collect_ops(void) {
  for (int i = 1; i < RT_OP_COUNT; i++) {
    rt_op_id id = (rt_op_id)i;
    const char *name = rt_op_name(id) + 3; /* without "rt." */
    rt_type_rule rule = rt_op_rule(id);
    if (rt_op_kind_of(id) == RT_KIND_COMPARE)
      compares[ncompares++] = name;
    else if (rt_op_kind_of(id) != RT_KIND_ELEMENTWISE)
      continue;
    else if (rt_op_arity(id) == 2)
      binary[nbinary++] = name;
    else if (rt_op_arity(id) == 1 && (rule == RT_RULE_ANY || rule == RT_RULE_FLOAT)) {
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
    put(t, "  return ");
    for (size_t k = 0; k < nu; k++)
      put(t, "%s%%r%zu", k ? ", " : "", k);
    put(t, " : ");
    for (size_t k = 0; k < nu; k++)
      put(t, "%stensor<%dx%s>", k ? ", " : "", N, e);
    put(t, "\n}\n");
    /* conversions to every type, and a select */
    put(t, "func.func private @conv_%s(%%a: tensor<%dx%s>, %%c: tensor<%dxi1>, %%b: tensor<%dx%s>) -> (",
        e, N, e, N, N, e);
    for (size_t k = 0; k < 8; k++)
      put(t, "tensor<%dx%s>, ", N, elems[k]);
    put(t, "tensor<%dx%s>) attributes {rt.kernel} {\n", N, e);
    for (size_t k = 0; k < 8; k++)
      put(t, "  %%r%zu = \"rt.convert\"(%%a) : (tensor<%dx%s>) -> tensor<%dx%s>\n", k, N, e, N,
          elems[k]);
    put(t, "  %%s = \"rt.select\"(%%c, %%a, %%b) : (tensor<%dxi1>, tensor<%dx%s>, tensor<%dx%s>) -> tensor<%dx%s>\n",
        N, N, e, N, e, N, e);
    put(t, "  return %%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7, %%s : ");
    for (size_t k = 0; k < 8; k++)
      put(t, "tensor<%dx%s>, ", N, elems[k]);
    put(t, "tensor<%dx%s>\n}\n", N, e);
    /* scalars of every type in add, mul, div, max and lt */
    for (size_t s = 0; s < sizeof scalars / sizeof *scalars; s++) {
      const char *st = scalars[s];
      put(t, "func.func private @scal_%s_%s(%%a: tensor<%dx%s>, %%s: %s) -> (tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dxi1>) attributes {rt.kernel} {\n",
          e, st, N, e, st, N, e, N, e, N, e, N, e, N);
      put(t, "  %%r0 = \"rt.add\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dx%s>\n", N, e, st, N, e);
      put(t, "  %%r1 = \"rt.mul\"(%%s, %%a) : (%s, tensor<%dx%s>) -> tensor<%dx%s>\n", st, N, e, N, e);
      put(t, "  %%r2 = \"rt.div\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dx%s>\n", N, e, st, N, e);
      put(t, "  %%r3 = \"rt.max\"(%%s, %%a) : (%s, tensor<%dx%s>) -> tensor<%dx%s>\n", st, N, e, N, e);
      put(t, "  %%r4 = \"rt.lt\"(%%a, %%s) : (tensor<%dx%s>, %s) -> tensor<%dxi1>\n", N, e, st, N);
      put(t, "  return %%r0, %%r1, %%r2, %%r3, %%r4 : tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dx%s>, tensor<%dxi1>\n}\n",
          N, e, N, e, N, e, N, e, N);
    }
    /* structural ops, full and iota on a [4, 6] space */
    put(t, "func.func private @struct_%s(%%a: tensor<6xf32>, %%b: tensor<6x4x%s>, %%c: tensor<9x13x%s>, %%d: tensor<2x6x%s>, %%e: tensor<24x%s>) -> (tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6xf32>) attributes {rt.kernel} {\n",
        e, e, e, e, e, e, e, e, e, e, e);
    put(t, "  %%x = \"rt.convert\"(%%a) : (tensor<6xf32>) -> tensor<6x%s>\n", e);
    put(t, "  %%r0 = \"rt.broadcast\"(%%x) {dims = array<i64: 1>} : (tensor<6x%s>) -> tensor<4x6x%s>\n", e, e);
    put(t, "  %%r1 = \"rt.transpose\"(%%b) {perm = array<i64: 1, 0>} : (tensor<6x4x%s>) -> tensor<4x6x%s>\n", e, e);
    put(t, "  %%r2 = \"rt.slice\"(%%c) {start = array<i64: 1, 0>, limit = array<i64: 9, 12>, stride = array<i64: 2, 2>} : (tensor<9x13x%s>) -> tensor<4x6x%s>\n", e, e);
    put(t, "  %%r3 = \"rt.concat\"(%%d, %%d) {dim = 0 : i64} : (tensor<2x6x%s>, tensor<2x6x%s>) -> tensor<4x6x%s>\n", e, e, e);
    put(t, "  %%r4 = \"rt.reshape\"(%%e) : (tensor<24x%s>) -> tensor<4x6x%s>\n", e, e);
    put(t, "  %%r5 = \"rt.iota\"() {dim = 1 : i64} : () -> tensor<4x6x%s>\n", e);
    put(t, "  %%r6 = \"rt.full\"() {value = 2.5 : f64} : () -> tensor<4x6xf32>\n");
    put(t, "  return %%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6 : tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6x%s>, tensor<4x6xf32>\n}\n",
        e, e, e, e, e, e);
    put(t, "func.func @host_%s(%%x: tensor<3x5x7x%s>) -> (tensor<5x%s>, tensor<3x7x%s>, tensor<%s>) {\n", e, e, e, e, e);
    put(t, "  %%s = \"rt.sum\"(%%x) {dims = array<i64: 2, 0>} : (tensor<3x5x7x%s>) -> tensor<5x%s>\n", e, e);
    put(t, "  %%m = \"rt.amax\"(%%x) {dims = array<i64: 1>} : (tensor<3x5x7x%s>) -> tensor<3x7x%s>\n", e, e);
    put(t, "  %%t = \"rt.sum\"(%%x) {dims = array<i64: 0, 1, 2>} : (tensor<3x5x7x%s>) -> tensor<%s>\n", e, e);
    put(t, "  return %%s, %%m, %%t : tensor<5x%s>, tensor<3x7x%s>, tensor<%s>\n}\n", e, e, e);
  }
  for (size_t i = 0; i < 3; i++)
    put(t, "func.func private @philox_%s(%%seed: i64, %%offset: i64) -> tensor<%dx%s> attributes {rt.kernel} {\n"
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

static void fill(rtr_buffer *b) {
  static const double fspecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, INFINITY,
                                    -INFINITY, NAN, 1e-40, -1e-45, 65504.0, 70000.0,
                                    3.0e38, 1e-7, 100.25, -7.0, 6.0e-8};
  static const int64_t ispecial[] = {0, 1, -1, 2, -2, 3, 7, -7, 127, -128, 255,
                                     INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 10, -10,
                                     31, 64, 5};
  for (int64_t i = 0; i < b->numel; i++) {
    uint64_t r = next();
    int pick = (int)(r % 40);
    if (rtr_elem_is_float(b->elem)) {
      double v = pick < 20 ? fspecial[pick]
                           : ((double)(int64_t)(next() % 2001) - 1000.0) / 64.0;
      rtr_buffer_set_f(b, i, v);
    } else {
      int64_t v = pick < 20 ? ispecial[pick] : (int64_t)(next() % 41) - 20;
      if (pick == 39)
        v = (int64_t)next();
      rtr_buffer_set_i(b, i, v);
    }
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
      printf("MISMATCH %s result #%d (%s) element %lld: interpreter %.9g, kernel %.9g\n", fn,
             k, rtr_buffer_type_str(want, tb, sizeof tb), (long long)i,
             rtr_buffer_get_f(want, i), rtr_buffer_get_f(got, i));
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
    fill(in[i]);
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
    void *args[64];
    rtr_buffer *got[32];
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

int main(void) {
  text t = {malloc(1 << 16), 0, 1 << 16};
  t.s[0] = 0;
  collect_ops();
  printf("unary float ops:");
  for (size_t k = 0; k < nunary_float; k++)
    printf(" %s", unary_float[k]);
  printf("\n");
  gen_module(&t);
  MlirContext ctx = mlirContextCreate();
  rematAttachDiagnosticPrinter(ctx, stdout, NULL);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx)))
    return 1;
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreate(t.s, t.len));
  if (mlirModuleIsNull(module) || mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(module))))
    return 1;
  MlirOperation top = mlirModuleGetOperation(module);
  remat_codegen_options opts = {REMAT_TARGET_HOST, 0, 3};
  remat_codegen *cg = remat_codegen_create(top, &opts);
  if (!cg)
    return 1;
  int nfn = remat_codegen_num_functions(cg);
  char err[256];
  remat_jit *jit = remat_jit_create(cg, err, sizeof err);
  if (!jit) {
    printf("jit: %s\n", err);
    return 1;
  }
  int bad = 0, kernels = 0, reductions = 0;
  for (int i = 0; i < nfn; i++) {
    const remat_cg_function *f = remat_codegen_function(cg, i);
    char packed[160];
    snprintf(packed, sizeof packed, "%s_packed", f->name);
    if (f->kind == REMAT_CG_KERNEL) {
      bad += check(top, jit, f->name, packed, -1, 0);
      kernels++;
    } else {
      /* <host>_r<N>: run the host function, compare its result N */
      char host[128];
      snprintf(host, sizeof host, "%s", f->name);
      int n = atoi(strrchr(host, '_') + 2);
      *strrchr(host, '_') = 0;
      bad += check(top, jit, host, packed, n, 1);
      reductions++;
    }
  }
  printf("kernels %d, reductions %d, mismatching elements %d\n", kernels, reductions, bad);
  remat_jit_destroy(jit);
  remat_codegen_destroy(cg);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  free(t.s);
  return bad != 0;
}
