/* codegen_attention_test: the attention functions of the codegen (`<fn>_a<N>`,
 * lib/codegen/codegen_attention.c) JIT-compiled for the host at -O0 and -O3, against the
 * reference (lib/runtime/attention.c through the interpreter), bit for bit (two NaNs are
 * equal: payloads are not part of the contract). The same functions lowered for nvptx64
 * are the CUDA backend's kernels; this is what checks their order of operations without
 * a GPU.
 *
 * Variants: f32 and f64; a scale and none; causal predicates (one whose diagonal leaves
 * the first rows no key; the verifier's extremes, +-2^62, which keep every key or none);
 * keep, drop and additive masks, [Sq, Sk] and [N, Sq, Sk]; dropout; key counts crossing
 * one and two key tiles; a row that keeps no key (every position masked, or every
 * additive mask element -inf). Each variant has @<v>_fwd (rt.attention)
 * and @<v>_bwd (rt.attention_grad, its o and lse the reference forward's). Inputs, each
 * run on every variant: "unit" (signed values over a few binades: scores that need the
 * online rescale, sums whose order shows in the bits), "wide" (exponents over +-40 binades
 * in f32, +-300 in f64: scores that overflow, exp that underflows), "tiny" (subnormal
 * products and values), "special" (unit with one element in 30 inf, -inf, NaN, -0 or a
 * subnormal). Results are split over two (begin, end) ranges, as the runtime would call
 * them. A mutation of the kernel's order (an fma for a product and its sum, key tiles of
 * 32, the dot products summed from the end) makes this test fail (docs/design.md,
 * "Attention: codegen"). Driven by codegen_attention_test.test; with --module FILE it
 * writes the module instead (test/ops/attention-ptx.test lowers it to PTX). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "codegen_test.h"
#include "interp.h"
#include "io.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"

typedef struct variant {
  const char *name, *elem;
  int64_t n, sq, sk, d, dv;
  double scale;
  bool causal;
  int64_t diagonal; /* keep (i, j) iff j <= i + diagonal */
  const char *mask; /* NULL, "keep", "drop", "add" */
  bool batched;     /* the mask is [N, Sq, Sk] */
  double keep;      /* 0: no dropout */
} variant;

static const variant variants[] = {
    {"plain", "f32", 2, 5, 80, 3, 4, 1.0, false, 0, NULL, false, 0},
    {"scaled", "f32", 1, 4, 64, 8, 2, 0.35355339059327379, false, 0, NULL, false, 0},
    {"causal", "f32", 2, 9, 70, 2, 3, 0.5, true, -2, NULL, false, 0},
    {"causal_up", "f32", 1, 6, 9, 3, 3, 1.0, true, 1, NULL, false, 0},
    {"keep", "f32", 2, 6, 67, 4, 3, 0.5, false, 0, "keep", false, 0},
    {"drop_batched", "f32", 2, 5, 40, 3, 2, 1.0, false, 0, "drop", true, 0},
    {"add", "f32", 2, 5, 66, 3, 3, 0.25, false, 0, "add", false, 0},
    {"dropout", "f32", 2, 4, 80, 3, 5, 1.0, false, 0, NULL, false, 0.8999999761581421},
    {"everything", "f32", 2, 7, 130, 2, 3, 0.125, true, 0, "add", true, 0.75},
    {"keep_dropout", "f32", 1, 5, 20, 2, 2, 1.0, false, 0, "keep", true, 0.5},
    {"causal_far", "f32", 1, 3, 5, 2, 2, 1.0, true, 1ll << 62, NULL, false, 0},
    {"causal_none", "f32", 1, 3, 5, 2, 2, 1.0, true, -(1ll << 62), NULL, false, 0},
    {"plain_f64", "f64", 2, 5, 130, 3, 4, 0.3, false, 0, NULL, false, 0},
    {"causal_keep_f64", "f64", 1, 8, 70, 3, 2, 1.0, true, 0, "keep", false, 0},
    {"add_dropout_f64", "f64", 2, 4, 65, 2, 3, 0.5, false, 0, "add", true, 0.8},
    {"drop_f64", "f64", 1, 4, 9, 2, 2, 1.0, true, -1, "drop", false, 0},
};
#define NVARIANT (sizeof variants / sizeof *variants)

/* tensor<AxBxCxE>, or tensor<BxCxE> when a is 0. */
static void put_t(FILE *f, int64_t a, int64_t b, int64_t c, const char *e) {
  if (a)
    fprintf(f, "tensor<%lldx%lldx%lldx%s>", (long long)a, (long long)b, (long long)c, e);
  else
    fprintf(f, "tensor<%lldx%lldx%s>", (long long)b, (long long)c, e);
}

/* The operand types of the forward (grad: of the gradient), comma-separated. */
static void put_operands(FILE *f, const variant *v, bool grad) {
  put_t(f, v->n, v->sq, v->d, v->elem), fputs(", ", f);
  put_t(f, v->n, v->sk, v->d, v->elem), fputs(", ", f);
  put_t(f, v->n, v->sk, v->dv, v->elem);
  if (grad) {
    fputs(", ", f), put_t(f, v->n, v->sq, v->dv, v->elem);
    fprintf(f, ", tensor<%lldx%lldx%s>, ", (long long)v->n, (long long)v->sq, v->elem);
    put_t(f, v->n, v->sq, v->dv, v->elem);
  }
  if (v->mask) {
    fputs(", ", f);
    put_t(f, v->batched ? v->n : 0, v->sq, v->sk, strcmp(v->mask, "add") ? "i1" : v->elem);
  }
  if (v->keep > 0)
    fputs(", i64, i64", f);
}

static void put_attrs(FILE *f, const variant *v) {
  fprintf(f, "{scale = %.17e : f64", v->scale);
  if (v->causal)
    fprintf(f, ", causal = %lld : i64", (long long)v->diagonal);
  if (v->mask)
    fprintf(f, ", mask = \"%s\"", v->mask);
  if (v->keep > 0)
    fprintf(f, ", keep = %.17e : f64", v->keep);
  fputs("}", f);
}

/* The arguments' names: %q, %k, %v [, %o, %lse, %do] [, %mask] [, %seed, %offset]. */
static void put_names(FILE *f, const variant *v, bool grad, bool typed) {
  const char *names[9] = {"q", "k", "v", "o", "lse", "do", "mask", "seed", "offset"};
  char *types = NULL;
  size_t tl;
  FILE *t = open_memstream(&types, &tl);
  put_operands(t, v, grad);
  fclose(t);
  char *cur = types;
  bool first = true;
  for (int i = 0; i < 9; i++) {
    if ((i >= 3 && i < 6 && !grad) || (i == 6 && !v->mask) || (i >= 7 && !(v->keep > 0)))
      continue;
    fprintf(f, "%s%%%s", first ? "" : ", ", names[i]);
    first = false;
    if (typed) { /* the next type of the list: tensor<...> or i64 */
      char *end = *cur == 't' ? strchr(cur, '>') + 1 : cur + 3;
      fprintf(f, ": %.*s", (int)(end - cur), cur);
      cur = *end ? end + 2 : end;
    }
  }
  free(types);
}

static char *gen_module(size_t *len) {
  char *s = NULL;
  FILE *f = open_memstream(&s, len);
  for (size_t i = 0; i < NVARIANT; i++) {
    const variant *v = &variants[i];
    char o[96], lse[64], q[96], k[96], vv[96];
    snprintf(o, sizeof o, "tensor<%lldx%lldx%lldx%s>", (long long)v->n, (long long)v->sq,
             (long long)v->dv, v->elem);
    snprintf(lse, sizeof lse, "tensor<%lldx%lldx%s>", (long long)v->n, (long long)v->sq, v->elem);
    snprintf(q, sizeof q, "tensor<%lldx%lldx%lldx%s>", (long long)v->n, (long long)v->sq,
             (long long)v->d, v->elem);
    snprintf(k, sizeof k, "tensor<%lldx%lldx%lldx%s>", (long long)v->n, (long long)v->sk,
             (long long)v->d, v->elem);
    snprintf(vv, sizeof vv, "tensor<%lldx%lldx%lldx%s>", (long long)v->n, (long long)v->sk,
             (long long)v->dv, v->elem);
    for (int grad = 0; grad < 2; grad++) {
      fprintf(f, "func.func @%s_%s(", v->name, grad ? "bwd" : "fwd");
      put_names(f, v, grad, true);
      if (grad)
        fprintf(f, ") -> (%s, %s, %s) {\n  %%r:3 = \"rt.attention_grad\"(", q, k, vv);
      else
        fprintf(f, ") -> (%s, %s) {\n  %%r:2 = \"rt.attention\"(", o, lse);
      put_names(f, v, grad, false);
      fputs(") ", f);
      put_attrs(f, v);
      fputs(" : (", f);
      put_operands(f, v, grad);
      if (grad)
        fprintf(f, ") -> (%s, %s, %s)\n  return %%r#0, %%r#1, %%r#2 : %s, %s, %s\n}\n", q, k, vv, q,
                k, vv);
      else
        fprintf(f, ") -> (%s, %s)\n  return %%r#0, %%r#1 : %s, %s\n}\n", o, lse, o, lse);
    }
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

enum { UNIT, WIDE, TINY, SPECIAL, NMODES };
static const char *modes[NMODES] = {"unit", "wide", "tiny", "special"};

/* Signed values of random mantissas over the mode's binades. */
static void fill(rtr_buffer *b, int mode) {
  bool wide = b->elem == RTR_F64;
  for (int64_t i = 0; i < b->numel; i++) {
    int lo = -3, span = 6; /* unit: [2^-3, 2^3) */
    if (mode == WIDE)
      lo = wide ? -300 : -40, span = wide ? 600 : 80;
    if (mode == TINY)
      lo = wide ? -540 : -75, span = 8; /* products below the smallest normal */
    double v = ldexp((next() >> 63) ? -1.0 : 1.0, lo + (int)(next() % (uint64_t)span)) *
               (1.0 + (double)(next() >> 12) * 0x1p-52);
    if (mode == SPECIAL && next() % 30 == 0)
      switch (next() % 6) {
      case 0: v = INFINITY; break;
      case 1: v = -INFINITY; break;
      case 2: v = NAN; break;
      case 3: v = -0.0; break;
      case 4: v = rtr_float_from_fields(b->elem, 0, 0, 1); break;
      default: v = rtr_float_from_fields(b->elem, 1, 0, ~0ull); break;
      }
    rtr_buffer_set_f(b, i, v);
  }
}

/* The mask: i1 one position in 3 removed, additive one in 4 -inf, the rest unit values;
 * the row i = 1 removed (-inf) at every key. */
static void fill_mask(rtr_buffer *b, const variant *v) {
  bool add = !strcmp(v->mask, "add"), keep = !strcmp(v->mask, "keep");
  for (int64_t e = 0; e < b->numel; e++) {
    bool removed = next() % 3 == 0 || (e / v->sk) % v->sq == 1;
    if (add)
      rtr_buffer_set_f(b, e,
                       removed && (next() % 4 == 0 || (e / v->sk) % v->sq == 1)
                           ? -INFINITY
                           : ldexp((next() >> 63) ? -1.0 : 1.0, -2 + (int)(next() % 4)));
    else
      rtr_buffer_set_i(b, e, keep ? !removed : removed);
  }
}

typedef struct tally {
  int64_t elements, nan, inf, finite;
} tally;

/* Runs host function fn (args as given) through the interpreter and `<fn>_a0`; the
 * reference's results in *want (the caller frees them). */
static int run_one(MlirOperation module, remat_jit *jit, const variant *v, const char *fn,
                   rtr_buffer **in, int nin, rtr_buffer ***want, int *nw, tally *t) {
  MlirOperation f = rtr_interp_lookup(module, fn);
  if (rtr_interp_run(module, f, NULL, in, nin, want, nw)) {
    printf("the interpreter failed on %s\n", fn);
    exit(1);
  }
  char name[128];
  snprintf(name, sizeof name, "%s_a0", fn);
  remat_packed_fn call = codegen_test_packed(jit, name);
  void *args[16];
  rtr_buffer *got[3];
  for (int i = 0; i < nin; i++)
    args[i] = in[i]->data; /* tensors: the buffer; the seed and offset: their value's address */
  for (int r = 0; r < *nw; r++) {
    got[r] = rtr_buffer_clone((*want)[r]);
    memset(got[r]->data, 0xA5, rtr_elem_size(got[r]->elem) * (size_t)got[r]->numel);
    args[nin + r] = got[r]->data;
  }
  int64_t n = v->n * v->sq + (*nw == 3 ? v->n * v->sk : 0);
  call(args, 0, n / 3); /* split ranges, as the runtime would */
  call(args, n / 3, n);
  int bad = 0;
  for (int r = 0; r < *nw; r++) {
    char what[160];
    snprintf(what, sizeof what, "%s result %d", fn, r);
    bad += codegen_test_compare(what, (*want)[r], got[r]);
    for (int64_t e = 0; e < got[r]->numel; e++) {
      double x = rtr_buffer_get_f((*want)[r], e);
      t->nan += isnan(x) != 0, t->inf += isinf(x) != 0, t->finite += isfinite(x) != 0;
    }
    t->elements += got[r]->numel;
    rtr_buffer_free(got[r]);
  }
  return bad;
}

/* The variant's forward and backward on inputs of MODE. */
static int check(MlirOperation module, remat_jit *jit, const variant *v, int mode, tally *t) {
  char fwd[96], bwd[96];
  snprintf(fwd, sizeof fwd, "%s_fwd", v->name);
  snprintf(bwd, sizeof bwd, "%s_bwd", v->name);
  MlirOperation g = rtr_interp_lookup(module, bwd);
  MlirType fty = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(g, mlirStringRefCreateFromCString("function_type")));
  int nin = (int)mlirFunctionTypeGetNumInputs(fty);
  rtr_buffer *in[11];
  for (int i = 0; i < nin; i++)
    in[i] = rtr_interp_buffer_for_type(mlirFunctionTypeGetInput(fty, i), false);
  for (int i = 0; i < 6; i++)
    if (i != 3 && i != 4)
      fill(in[i], mode);
  int extra = 6; /* the mask, seed, offset */
  if (v->mask)
    fill_mask(in[extra++], v);
  if (v->keep > 0) {
    rtr_buffer_set_i(in[extra++], 0, (int64_t)(next() >> 1));
    rtr_buffer_set_i(in[extra++], 0, (int64_t)(next() % 1000));
  }
  /* the forward's operands: q, k, v, then the mask, seed, offset */
  rtr_buffer *fin[6] = {in[0], in[1], in[2]};
  for (int i = 6; i < nin; i++)
    fin[i - 3] = in[i];
  rtr_buffer **fo, **bo;
  int nf, nb;
  int bad = run_one(module, jit, v, fwd, fin, nin - 3, &fo, &nf, t);
  memcpy(in[3]->data, fo[0]->data, rtr_elem_size(fo[0]->elem) * (size_t)fo[0]->numel);
  memcpy(in[4]->data, fo[1]->data, rtr_elem_size(fo[1]->elem) * (size_t)fo[1]->numel);
  bad += run_one(module, jit, v, bwd, in, nin, &bo, &nb, t);
  rtr_buffers_free(fo, nf);
  rtr_buffers_free(bo, nb);
  for (int i = 0; i < nin; i++)
    rtr_buffer_free(in[i]);
  return bad;
}

static int level(MlirOperation top, remat_codegen *cg, remat_jit *jit, int opt) {
  state = 0x243F6A8885A308D3ull; /* the same inputs at each level */
  int nfn = remat_codegen_num_functions(cg);
  int nbad = 0;
  for (int mode = 0; mode < NMODES; mode++) {
    tally t = {0};
    int mbad = 0;
    for (size_t i = 0; i < NVARIANT; i++)
      mbad += check(top, jit, &variants[i], mode, &t);
    printf("-O%d %s: attention functions %d, elements %lld (finite %lld, inf %lld, nan %lld), "
           "mismatching elements %d\n",
           opt, modes[mode], nfn, (long long)t.elements, (long long)t.finite, (long long)t.inf,
           (long long)t.nan, mbad);
    nbad += mbad;
  }
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
