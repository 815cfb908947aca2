/* codegen_conv_test: the conv functions of the codegen (`<fn>_c<N>`, lib/codegen/
 * codegen_conv.c) JIT-compiled for the host at -O0 and -O3, against the reference
 * (lib/runtime/conv.c through the interpreter), bit for bit (two NaNs are equal: payloads
 * are not part of the contract). The same function lowered for nvptx64 is the CUDA
 * backend's kernel; this is what checks its order of operations without a GPU.
 *
 * Geometries: 1, 2 and 3 spatial dims, strides (one larger than the kernel's span, so
 * the input gradient has positions no output reads), padding (an input with no elements
 * and only padding too), dilation, groups (depthwise included), f32, f64, f16 and bf16;
 * each of rt.conv, rt.conv_grad_input and rt.conv_grad_weight. Inputs: signed values over
 * a wide range of binades (sums that cancel and absorb, so an order other than the
 * reference's changes bits), then the same with one element in 12 a special value (inf,
 * -inf, NaN, -0, the smallest and largest subnormal, the largest finite value and its
 * negation). Results are split over two (begin, end) ranges, as the runtime would call
 * them. Driven by codegen_conv_test.test; with --module FILE it writes the module instead
 * (test/ops/conv-ptx.test lowers it to PTX). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "codegen_test.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"
#include "interp.h"
#include "io.h"

typedef struct geom {
  const char *name, *elem;
  int n;
  int64_t batch, c, o, groups, in[3], k[3], stride[3], pad[3], dil[3];
} geom;

static const geom geoms[] = {
    {"d1", "f32", 1, 2, 3, 4, 1, {9}, {3}, {2}, {1}, {2}},
    {"d2_groups", "f32", 2, 2, 4, 6, 2, {5, 6}, {3, 2}, {2, 1}, {1, 0}, {1, 2}},
    {"d3_depthwise", "f32", 3, 1, 2, 2, 2, {4, 3, 5}, {2, 2, 3}, {1, 2, 1}, {1, 0, 2}, {1, 1, 2}},
    {"long_sums", "f32", 1, 3, 16, 2, 1, {20}, {5}, {3}, {4}, {1}},
    {"holes", "f32", 1, 1, 2, 2, 1, {10}, {2}, {4}, {0}, {1}},
    {"padding_only", "f32", 1, 1, 1, 2, 1, {0}, {2}, {1}, {1}, {1}},
    {"d2_f64", "f64", 2, 2, 3, 2, 1, {6, 5}, {3, 3}, {2, 2}, {2, 2}, {1, 1}},
    {"d1_f16", "f16", 1, 2, 4, 4, 2, {8}, {3}, {1}, {1}, {1}},
    {"d2_bf16", "bf16", 2, 1, 2, 3, 1, {4, 4}, {2, 2}, {1, 1}, {0, 1}, {1, 1}},
};
#define NGEOM (sizeof geoms / sizeof *geoms)
static const char *ops[3] = {"conv", "conv_grad_input", "conv_grad_weight"};

static int64_t out_size(const geom *g, int d) {
  return (g->in[d] + 2 * g->pad[d] - g->dil[d] * (g->k[d] - 1) - 1) / g->stride[d] + 1;
}

/* tensor<AxBx<spatial>xE> with spatial the input's (0), kernel's (1) or output's (2). */
static void put_type(FILE *f, const geom *g, int64_t a, int64_t b, int which) {
  fprintf(f, "tensor<%lldx%lld", (long long)a, (long long)b);
  for (int d = 0; d < g->n; d++)
    fprintf(f, "x%lld", (long long)(which == 0 ? g->in[d] : which == 1 ? g->k[d] : out_size(g, d)));
  fprintf(f, "x%s>", g->elem);
}

static void put_array(FILE *f, const char *name, const int64_t *v, int n) {
  fprintf(f, "%s = array<i64: ", name);
  for (int d = 0; d < n; d++)
    fprintf(f, "%s%lld", d ? ", " : "", (long long)v[d]);
  fprintf(f, ">");
}

/* One host function per geometry and op: @<name>_<op>(a, b) holding the op alone. */
static char *gen_module(size_t *len) {
  char *s = NULL;
  FILE *f = open_memstream(&s, len);
  for (size_t i = 0; i < NGEOM; i++)
    for (int op = 0; op < 3; op++) {
      const geom *g = &geoms[i];
      int64_t cg = g->c / g->groups;
      /* (operand 0, operand 1, result): conv (x, w) -> y, grad_input (dy, w) -> dx,
       * grad_weight (x, dy) -> dw; as (dim 0, dim 1, spatial) */
      int64_t x[3] = {g->batch, g->c, 0}, w[3] = {g->o, cg, 1}, y[3] = {g->batch, g->o, 2};
      const int64_t *t[3][3] = {{x, w, y}, {y, w, x}, {x, y, w}};
      fprintf(f, "func.func @%s_%s(%%a: ", g->name, ops[op]);
      put_type(f, g, t[op][0][0], t[op][0][1], (int)t[op][0][2]);
      fprintf(f, ", %%b: ");
      put_type(f, g, t[op][1][0], t[op][1][1], (int)t[op][1][2]);
      fprintf(f, ") -> ");
      put_type(f, g, t[op][2][0], t[op][2][1], (int)t[op][2][2]);
      fprintf(f, " {\n  %%r = \"rt.%s\"(%%a, %%b) {", ops[op]);
      put_array(f, "stride", g->stride, g->n);
      fprintf(f, ", ");
      put_array(f, "padding", g->pad, g->n);
      fprintf(f, ", ");
      put_array(f, "dilation", g->dil, g->n);
      fprintf(f, ", groups = %lld : i64} : (", (long long)g->groups);
      for (int k = 0; k < 3; k++) {
        put_type(f, g, t[op][k][0], t[op][k][1], (int)t[op][k][2]);
        fprintf(f, "%s", k == 0 ? ", " : k == 1 ? ") -> " : "\n");
      }
      fprintf(f, "  return %%r : ");
      put_type(f, g, t[op][2][0], t[op][2][1], (int)t[op][2][2]);
      fprintf(f, "\n}\n");
    }
  fclose(f);
  return s;
}

static uint64_t state;
static uint64_t next(void) { /* splitmix64 */
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Signed values with exponents over +-span binades; with specials, one in 12 special. */
static void fill(rtr_buffer *b, bool specials) {
  rtr_elem e = b->elem;
  int span = e == RTR_F16 ? 12 : e == RTR_F64 ? 60 : 40;
  int top = e == RTR_F64 ? 2046 : e == RTR_F16 ? 30 : 254; /* the largest exponent field */
  for (int64_t i = 0; i < b->numel; i++) {
    uint64_t r = next();
    double v = ldexp((r >> 63) ? -1.0 : 1.0, (int)(r % (uint64_t)(2 * span + 1)) - span) *
               (1.0 + (double)(next() >> 12) * 0x1p-52);
    if (specials && next() % 12 == 0)
      switch (next() % 8) {
      case 0: v = INFINITY; break;
      case 1: v = -INFINITY; break;
      case 2: v = NAN; break;
      case 3: v = -0.0; break;
      case 4: v = rtr_float_from_fields(e, 0, 0, 1); break;
      case 5: v = rtr_float_from_fields(e, 1, 0, ~0ull); break;
      case 6: v = rtr_float_from_fields(e, 0, top, ~0ull); break;
      default: v = rtr_float_from_fields(e, 1, top, ~0ull); break;
      }
    rtr_buffer_set_f(b, i, v);
  }
}

/* Runs host function fn through the interpreter and its conv function `<fn>_c0`. */
static int check(MlirOperation module, remat_jit *jit, const char *fn, bool specials,
                 int64_t *elements) {
  MlirOperation f = rtr_interp_lookup(module, fn);
  MlirType fty = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  rtr_buffer *in[2];
  for (int i = 0; i < 2; i++) {
    in[i] = rtr_interp_buffer_for_type(mlirFunctionTypeGetInput(fty, i), false);
    fill(in[i], specials);
  }
  rtr_buffer **want;
  int nw;
  if (rtr_interp_run(module, f, NULL, in, 2, &want, &nw)) {
    printf("the interpreter failed on %s\n", fn);
    exit(1);
  }
  char name[128];
  snprintf(name, sizeof name, "%s_c0", fn);
  remat_packed_fn call = codegen_test_packed(jit, name);
  rtr_buffer *got = rtr_buffer_clone(want[0]);
  if (!got) {
    printf("%s: out of memory\n", name);
    exit(1);
  }
  memset(got->data, 0xA5, rtr_elem_size(got->elem) * (size_t)got->numel);
  void *args[3] = {in[0]->data, in[1]->data, got->data};
  int64_t n = got->numel;
  call(args, 0, n / 3); /* split ranges, as the runtime would */
  call(args, n / 3, n);
  int bad = codegen_test_compare(fn, want[0], got);
  *elements += n;
  rtr_buffer_free(got);
  rtr_buffers_free(want, nw);
  rtr_buffer_free(in[0]);
  rtr_buffer_free(in[1]);
  return bad;
}

static int level(MlirOperation top, remat_codegen *cg, remat_jit *jit, int opt) {
  state = 0x243F6A8885A308D3ull; /* the same inputs at each level */
  int nbad = 0;
  int64_t elements = 0;
  for (size_t i = 0; i < NGEOM; i++)
    for (int op = 0; op < 3; op++) {
      char fn[96];
      snprintf(fn, sizeof fn, "%s_%s", geoms[i].name, ops[op]);
      nbad += check(top, jit, fn, false, &elements);
      nbad += check(top, jit, fn, true, &elements);
    }
  printf("-O%d: conv functions %d, elements %lld, mismatching elements %d\n", opt,
         remat_codegen_num_functions(cg), (long long)elements, nbad);
  return nbad;
}

int main(int argc, char **argv) {
  size_t len;
  char *text = gen_module(&len);
  int rc = argc == 3 && !strcmp(argv[1], "--module") ? codegen_test_write(argv[2], text, len)
                                                     : codegen_test_levels(text, len, level);
  free(text);
  return rc;
}
