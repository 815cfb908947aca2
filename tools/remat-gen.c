/* remat-gen: writes random joint forward+backward functions in rt IR, for differential
 * tests of the passes and of the runtime.
 *
 * Each function is a random DAG over tensor<MxNxf32> values (M, N in 1..4): elementwise
 * binary and unary ops, dropout (rt.uniform_philox from the seed and offset arguments ->
 * rt.lt -> rt.convert -> rt.mul), matmul with a parameter, reductions broadcast back,
 * compare+select, transpose when square. Its backward is a random DAG that starts from
 * the tangents and mixes in forward values and dropout masks; it is not a true gradient
 * (the runtime checks only need the same ops computed two ways). Output: one module with
 * functions @g0 ... @g{count-1}, deterministic in --seed and --values.
 *
 * --values=wide|special (default unit, the graphs above unchanged) draws the scalar
 * constants from remat-run's distributions of the same name (every finite magnitude;
 * special values: signed zeros, inf, NaN, extremes, values near exp's overflow, near 0
 * and 1) and widens the graphs: element types f16, bf16 and f64 besides f32; div, pow
 * (exponents 0.5, 2, -1, 3 and drawn ones, and constant bases), log, log1p, sqrt, rsqrt,
 * erf; math functions of rt.full constants.
 *
 * --indexing (off by default: the graphs above unchanged) adds the indexing ops: in the
 * forward, a row pick `gather(a, broadcast(argmax(b, dim 1)), dim 1)` (argmax gives
 * indices in range), in the backward a `scatter_add(a, broadcast(argmax(b)), c, dim 1)`
 * (docs/design.md, "Indexing ops").
 *
 * --conv (off by default) adds the convolution ops on the M x N values seen as 1 x 1 x M x
 * N images: in the forward `rt.conv(a, w)` with w the top-left corner of b (odd sizes,
 * padding that keeps M x N); in the backward `rt.conv_grad_input` of a backward value
 * with such a w, and `rt.conv_grad_weight` of a forward and a backward value, summed and
 * broadcast back (docs/design.md, "Convolution"). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef enum values { VALUES_UNIT, VALUES_WIDE, VALUES_SPECIAL } values;

typedef struct gen {
  uint64_t s;
  int next; /* next SSA number */
  int M, N;
  FILE *out;
  values values;
  bool indexing; /* --indexing */
  bool conv;     /* --conv */
} gen;

static uint64_t rnd(gen *g) {
  uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int pick(gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }

#define MAXV 128

typedef struct pool {
  int v[MAXV];
  int n;
} pool;

static void push(pool *p, int v) {
  if (p->n < MAXV)
    p->v[p->n++] = v;
}
/* Prefers recent values so chains get long. */
static int any(gen *g, const pool *p) {
  int k = p->n - 1 - pick(g, p->n < 4 ? p->n : 4);
  return p->v[pick(g, 3) == 0 ? pick(g, p->n) : k];
}

static char T[32];
static const char *E = "f32"; /* the tensors' element type */
/* The scalar type of constants: f64 for f64 tensors, f32 otherwise (f16 and bf16 ops
 * compute in f32). */
static const char *scalar_type(void) { return strcmp(E, "f64") ? "f32" : "f64"; }

/* A constant drawn from the --values distribution (wide: every finite magnitude of f32;
 * special: half from a list of special values). */
static double draw_constant(gen *g) {
  static const double special[] = {0.0,   -0.0, INFINITY,  -INFINITY,  NAN,   1.0,    -1.0,
                                   2.0,   0.5,  3.0,       -2.0,       88.72, -103.9, 1e-30,
                                   1e-45, 3e38, 1.0000001, 0.99999994, 7.0,   -100.0, 1e-7};
  uint64_t r = rnd(g);
  if (g->values == VALUES_SPECIAL && (r & 1))
    return special[(r >> 1) % (sizeof special / sizeof *special)];
  uint32_t bits = (uint32_t)(r >> 32);
  if (((bits >> 23) & 0xff) == 0xff) /* finite only */
    bits &= ~(1u << 23);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* An arith.constant of the scalar type holding C (as its bit pattern: exact, inf and
 * NaN included); returns its SSA number. */
static int emit_constant(gen *g, double c) {
  int k = g->next++;
  if (!strcmp(scalar_type(), "f64")) {
    uint64_t b;
    memcpy(&b, &c, sizeof b);
    fprintf(g->out, "  %%v%d = arith.constant 0x%016llX : f64\n", k, (unsigned long long)b);
  } else {
    float f = (float)c;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    fprintf(g->out, "  %%v%d = arith.constant 0x%08X : f32\n", k, (unsigned)b);
  }
  return k;
}

static int emit_binary(gen *g, const char *op, int a, int b) {
  fprintf(g->out, "  %%v%d = \"rt.%s\"(%%v%d, %%v%d) : (%s, %s) -> %s\n", g->next, op, a, b, T, T,
          T);
  return g->next++;
}

static int emit_scalar_binary(gen *g, const char *op, int a, double c) {
  int k;
  if (g->values == VALUES_UNIT) {
    k = g->next++;
    fprintf(g->out, "  %%v%d = arith.constant %.9e : f32\n", k, (double)(float)c);
  } else
    k = emit_constant(g, c);
  fprintf(g->out, "  %%v%d = \"rt.%s\"(%%v%d, %%v%d) : (%s, %s) -> %s\n", g->next, op, a, k, T,
          scalar_type(), T);
  return g->next++;
}

/* rt.OP(C, a): a constant first operand (a base of rt.pow). */
static int emit_scalar_first(gen *g, const char *op, double c, int a) {
  int k = emit_constant(g, c);
  fprintf(g->out, "  %%v%d = \"rt.%s\"(%%v%d, %%v%d) : (%s, %s) -> %s\n", g->next, op, k, a,
          scalar_type(), T, T);
  return g->next++;
}

static int emit_unary(gen *g, const char *op, int a) {
  fprintf(g->out, "  %%v%d = \"rt.%s\"(%%v%d) : (%s) -> %s\n", g->next, op, a, T, T);
  return g->next++;
}

static int emit_reduce_bcast(gen *g, int a) {
  const char *op = pick(g, 2) ? "sum" : "amax";
  int r = g->next++;
  fprintf(g->out, "  %%v%d = \"rt.%s\"(%%v%d) {dims = array<i64: 1>} : (%s) -> tensor<%dx%s>\n", r,
          op, a, T, g->M, E);
  fprintf(g->out,
          "  %%v%d = \"rt.broadcast\"(%%v%d) {dims = array<i64: 0>} : (tensor<%dx%s>) "
          "-> %s\n",
          g->next, r, g->M, E, T);
  return g->next++;
}

static int emit_matmul(gen *g, int a, const char *w) {
  fprintf(g->out, "  %%v%d = \"rt.matmul\"(%%v%d, %%%s) : (%s, tensor<%dx%dx%s>) -> %s\n", g->next,
          a, w, T, g->N, g->N, E, T);
  return g->next++;
}

static int emit_select(gen *g, int a, int b, int c) {
  int cond = g->next++;
  fprintf(g->out, "  %%v%d = \"rt.gt\"(%%v%d, %%v%d) : (%s, %s) -> tensor<%dx%dxi1>\n", cond, a, b,
          T, T, g->M, g->N);
  fprintf(g->out,
          "  %%v%d = \"rt.select\"(%%v%d, %%v%d, %%v%d) : (tensor<%dx%dxi1>, %s, %s) -> "
          "%s\n",
          g->next, cond, a, c, g->M, g->N, T, T, T);
  return g->next++;
}

/* Dropout of a: returns the scaled result; *mask gets the f32 mask. */
static int emit_dropout(gen *g, int a, int j, int *mask) {
  int c = g->next++, off = g->next++, u = g->next++, half = g->next++, m = g->next++,
      mf = g->next++;
  double p = (1 + pick(g, 3)) * 0.25;
  fprintf(g->out, "  %%v%d = arith.constant %d : i64\n", c, j);
  fprintf(g->out, "  %%v%d = arith.addi %%offset, %%v%d : i64\n", off, c);
  fprintf(g->out,
          "  %%v%d = \"rt.uniform_philox\"(%%seed, %%v%d) {lo = 0.0 : f64, hi = 1.0 : "
          "f64} : (i64, i64) -> %s\n",
          u, off, T);
  fprintf(g->out, "  %%v%d = arith.constant %.9e : f32\n", half, p);
  fprintf(g->out, "  %%v%d = \"rt.lt\"(%%v%d, %%v%d) : (%s, f32) -> tensor<%dx%dxi1>\n", m, u, half,
          T, g->M, g->N);
  fprintf(g->out, "  %%v%d = \"rt.convert\"(%%v%d) : (tensor<%dx%dxi1>) -> %s\n", mf, m, g->M, g->N,
          T);
  *mask = mf;
  int x = emit_binary(g, "mul", a, mf);
  return emit_scalar_binary(g, "mul", x, 1.0 / p);
}

/* The column of b's first maximum in each row, broadcast to [M, N]: indices in [0, N). */
static int emit_argmax_index(gen *g, int b) {
  int a = g->next++, r = g->next++, x = g->next++;
  fprintf(g->out, "  %%v%d = \"rt.argmax\"(%%v%d) {dim = 1 : i64} : (%s) -> tensor<%dxi64>\n", a, b,
          T, g->M);
  fprintf(g->out, "  %%v%d = \"rt.reshape\"(%%v%d) : (tensor<%dxi64>) -> tensor<%dx1xi64>\n", r, a,
          g->M, g->M);
  fprintf(g->out,
          "  %%v%d = \"rt.broadcast\"(%%v%d) {dims = array<i64: 0, 1>} : "
          "(tensor<%dx1xi64>) -> tensor<%dx%dxi64>\n",
          x, r, g->M, g->M, g->N);
  return x;
}

/* --indexing, forward: each row of a read at the column of b's row maximum. */
static int emit_pick(gen *g, int a, int b) {
  int x = emit_argmax_index(g, b);
  fprintf(g->out,
          "  %%v%d = \"rt.gather\"(%%v%d, %%v%d) {dim = 1 : i64} : (%s, "
          "tensor<%dx%dxi64>) -> %s\n",
          g->next, a, x, T, g->M, g->N, T);
  return g->next++;
}

/* --indexing, backward: c added into a at the columns of b's row maxima. */
static int emit_scatter(gen *g, int a, int b, int c) {
  int x = emit_argmax_index(g, b);
  fprintf(g->out,
          "  %%v%d = \"rt.scatter_add\"(%%v%d, %%v%d, %%v%d) {dim = 1 : i64} : (%s, "
          "tensor<%dx%dxi64>, %s) -> %s\n",
          g->next, a, x, c, T, g->M, g->N, T, T);
  return g->next++;
}

/* --conv: the geometry of the kernel made of b's top-left kh x kw corner (the largest odd
 * sizes), padded to keep M x N. */
static void conv_kernel(gen *g, int *kh, int *kw, char *attrs, size_t cap) {
  *kh = g->M % 2 ? g->M : g->M - 1, *kw = g->N % 2 ? g->N : g->N - 1;
  snprintf(attrs, cap,
           "{dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: %d, %d>, "
           "stride = array<i64: 1, 1>}",
           (*kh - 1) / 2, (*kw - 1) / 2);
}

/* v as a 1 x 1 x M x N image; returns its SSA number. */
static int emit_image(gen *g, int v) {
  fprintf(g->out, "  %%v%d = \"rt.reshape\"(%%v%d) : (%s) -> tensor<1x1x%dx%dx%s>\n", g->next, v, T,
          g->M, g->N, E);
  return g->next++;
}

/* b's top-left corner as a 1 x 1 x kh x kw kernel. */
static int emit_kernel(gen *g, int b, int kh, int kw) {
  int s = g->next++;
  fprintf(g->out,
          "  %%v%d = \"rt.slice\"(%%v%d) {limit = array<i64: %d, %d>, start = array<i64: 0, 0>, "
          "stride = array<i64: 1, 1>} : (%s) -> tensor<%dx%dx%s>\n",
          s, b, kh, kw, T, kh, kw, E);
  fprintf(g->out, "  %%v%d = \"rt.reshape\"(%%v%d) : (tensor<%dx%dx%s>) -> tensor<1x1x%dx%dx%s>\n",
          g->next, s, kh, kw, E, kh, kw, E);
  return g->next++;
}

/* op (rt.conv or rt.conv_grad_input) of the image of a with the kernel of b, as M x N. */
static int emit_conv(gen *g, const char *op, int a, int b) {
  int kh, kw;
  char attrs[256];
  conv_kernel(g, &kh, &kw, attrs, sizeof attrs);
  int x = emit_image(g, a), w = emit_kernel(g, b, kh, kw), y = g->next++;
  fprintf(g->out,
          "  %%v%d = \"%s\"(%%v%d, %%v%d) %s : (tensor<1x1x%dx%dx%s>, tensor<1x1x%dx%dx%s>) -> "
          "tensor<1x1x%dx%dx%s>\n",
          y, op, x, w, attrs, g->M, g->N, E, kh, kw, E, g->M, g->N, E);
  fprintf(g->out, "  %%v%d = \"rt.reshape\"(%%v%d) : (tensor<1x1x%dx%dx%s>) -> %s\n", g->next, y,
          g->M, g->N, E, T);
  return g->next++;
}

/* rt.conv_grad_weight of the images of x and dy, summed to a number broadcast to M x N. */
static int emit_conv_weight_grad(gen *g, int x, int dy) {
  int kh, kw;
  char attrs[256];
  conv_kernel(g, &kh, &kw, attrs, sizeof attrs);
  int xi = emit_image(g, x), di = emit_image(g, dy), dw = g->next++, s = g->next++;
  fprintf(g->out,
          "  %%v%d = \"rt.conv_grad_weight\"(%%v%d, %%v%d) %s : (tensor<1x1x%dx%dx%s>, "
          "tensor<1x1x%dx%dx%s>) -> tensor<1x1x%dx%dx%s>\n",
          dw, xi, di, attrs, g->M, g->N, E, g->M, g->N, E, kh, kw, E);
  fprintf(g->out,
          "  %%v%d = \"rt.sum\"(%%v%d) {dims = array<i64: 0, 1, 2, 3>} : (tensor<1x1x%dx%dx%s>) -> "
          "tensor<%s>\n",
          s, dw, kh, kw, E, E);
  fprintf(g->out, "  %%v%d = \"rt.broadcast\"(%%v%d) {dims = array<i64>} : (tensor<%s>) -> %s\n",
          g->next, s, E, T);
  return g->next++;
}

static const char *binops[] = {"add", "sub", "mul", "max", "min"};
static const char *unops[] = {"neg", "tanh", "abs", "sin", "cos", "exp"};

/* --values=wide|special: the ops and constants where libm results are easiest to get
 * wrong (pow with the exponents LLVM would rewrite, functions of constants). */
static int emit_wide_op(gen *g, int a, int b) {
  static const char *const math[] = {"log", "log1p", "sqrt", "rsqrt", "erf",
                                     "exp", "tanh",  "sin",  "cos",   "abs"};
  static const char *const bin[] = {"add", "sub", "mul", "div", "max", "min", "pow"};
  static const double exponents[] = {0.5, 2.0, -1.0, 3.0, -0.5, 0.0, 1.0};
  int nmath = (int)(sizeof math / sizeof *math);
  switch (pick(g, 7)) {
  case 0: return emit_binary(g, pick(g, 2) ? "div" : "pow", a, b);
  case 1:
    return emit_scalar_binary(g, "pow", a, pick(g, 4) ? exponents[pick(g, 7)] : draw_constant(g));
  case 2: return emit_scalar_first(g, "pow", pick(g, 2) ? 8.0 : draw_constant(g), a);
  case 3: return emit_scalar_binary(g, bin[pick(g, 7)], a, draw_constant(g));
  case 4: { /* a function of a constant: LLVM must not fold it in double precision */
    int c = g->next++;
    double v = draw_constant(g);
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    fprintf(g->out, "  %%v%d = \"rt.full\"() {value = 0x%016llX : f64} : () -> %s\n", c,
            (unsigned long long)bits, T);
    int f = emit_unary(g, math[pick(g, nmath)], c);
    return emit_binary(g, "add", a, f);
  }
  default: return emit_unary(g, math[pick(g, nmath)], a);
  }
}

static void gen_function(gen *g, int index, int *ops_total) {
  g->M = 1 + pick(g, 4);
  g->N = 1 + pick(g, 4);
  /* f64 draws no dropout: rt.uniform_philox has no f64 results */
  static const char *const elems[] = {"f32", "f32", "f16", "bf16", "f64"};
  E = g->values == VALUES_UNIT ? "f32" : elems[pick(g, 5)];
  snprintf(T, sizeof T, "tensor<%dx%dx%s>", g->M, g->N, E);
  int nprim = 1 + pick(g, 3), nout = 1 + pick(g, 2), ngrad = 1 + pick(g, 2);
  bool has_w = pick(g, 2), has_rng = pick(g, 3) != 0 && strcmp(E, "f64");
  g->next = 0;
  FILE *o = g->out;
  fprintf(o, "func.func @g%d(", index);
  for (int k = 0; k < nprim; k++)
    fprintf(o, "%s%%x%d: %s", k ? ", " : "", k, T);
  if (has_w)
    fprintf(o, ", %%w: tensor<%dx%dx%s> {rt.param}", g->N, g->N, E);
  if (has_rng)
    fprintf(o, ", %%seed: i64, %%offset: i64");
  for (int k = 0; k < nout; k++)
    fprintf(o, ", %%t%d: %s {rt.tangent}", k, T);
  fprintf(o, ") -> (");
  for (int k = 0; k < nout + ngrad; k++)
    fprintf(o, "%s%s", k ? ", " : "", T);
  fprintf(o, ") attributes {rt.num_outputs = %d : i64} {\n", nout);
  /* Block arguments are copied into numbered values so every pick is uniform. */
  pool fwd = {{0}, 0}, masks = {{0}, 0}, bwd = {{0}, 0};
  for (int k = 0; k < nprim; k++) {
    fprintf(o, "  %%v%d = \"rt.add\"(%%x%d, %%x%d) : (%s, %s) -> %s\n", g->next, k, k, T, T, T);
    push(&fwd, g->next++);
  }
  int nfwd = 3 + pick(g, 8), drops = 0;
  for (int i = 0; i < nfwd; i++) {
    int a = any(g, &fwd), r;
    if (g->values != VALUES_UNIT && pick(g, 2)) {
      push(&fwd, emit_wide_op(g, a, any(g, &fwd)));
      continue;
    }
    if (g->indexing && pick(g, 4) == 0) {
      push(&fwd, emit_pick(g, a, any(g, &fwd)));
      continue;
    }
    if (g->conv && pick(g, 4) == 0) {
      push(&fwd, emit_conv(g, "rt.conv", a, any(g, &fwd)));
      continue;
    }
    switch (pick(g, 10)) {
    case 0:
    case 1:
    case 2: r = emit_binary(g, binops[pick(g, 5)], a, any(g, &fwd)); break;
    case 3: r = emit_scalar_binary(g, binops[pick(g, 3)], a, (pick(g, 8) - 4) * 0.375); break;
    case 4: r = emit_unary(g, unops[pick(g, 6)], a); break;
    case 5:
    case 6:
      if (has_rng) {
        int m;
        r = emit_dropout(g, a, drops++, &m);
        push(&masks, m);
      } else
        r = emit_unary(g, "tanh", a);
      break;
    case 7: r = has_w ? emit_matmul(g, a, "w") : emit_unary(g, "sin", a); break;
    case 8: r = emit_reduce_bcast(g, a); break;
    default:
      if (g->M == g->N && pick(g, 2)) {
        fprintf(o, "  %%v%d = \"rt.transpose\"(%%v%d) {perm = array<i64: 1, 0>} : (%s) -> %s\n",
                g->next, a, T, T);
        r = g->next++;
      } else
        r = emit_select(g, a, any(g, &fwd), any(g, &fwd));
      break;
    }
    push(&fwd, r);
  }
  int outs[4];
  outs[0] = fwd.v[fwd.n - 1];
  for (int k = 1; k < nout; k++)
    outs[k] = any(g, &fwd);
  /* Backward: each tangent times a forward value, then random ops that mix in forward
   * values and the dropout masks. */
  for (int k = 0; k < nout; k++) {
    fprintf(o, "  %%v%d = \"rt.mul\"(%%t%d, %%v%d) : (%s, %s) -> %s\n", g->next, k, any(g, &fwd), T,
            T, T);
    push(&bwd, g->next++);
  }
  int wt = -1;
  int nbwd = 2 + pick(g, 8);
  for (int i = 0; i < nbwd; i++) {
    int a = any(g, &bwd), r;
    if (g->values != VALUES_UNIT && pick(g, 3) == 0) {
      push(&bwd, emit_wide_op(g, a, any(g, &fwd)));
      continue;
    }
    if (g->indexing && pick(g, 4) == 0) {
      int b = any(g, &fwd);
      push(&bwd, emit_scatter(g, a, b, any(g, &bwd)));
      continue;
    }
    if (g->conv && pick(g, 3) == 0) {
      push(&bwd, pick(g, 2) ? emit_conv(g, "rt.conv_grad_input", a, any(g, &fwd))
                            : emit_conv_weight_grad(g, any(g, &fwd), a));
      continue;
    }
    switch (pick(g, 9)) {
    case 0:
    case 1: r = emit_binary(g, binops[pick(g, 5)], a, any(g, &fwd)); break;
    case 2: r = emit_binary(g, binops[pick(g, 3)], a, any(g, &bwd)); break;
    case 3: r = emit_unary(g, unops[pick(g, 5)], a); break;
    case 4:
    case 5: r = masks.n ? emit_binary(g, "mul", a, any(g, &masks)) : emit_unary(g, "neg", a); break;
    case 6:
      if (has_w) {
        if (wt < 0) {
          fprintf(o,
                  "  %%v%d = \"rt.transpose\"(%%w) {perm = array<i64: 1, 0>} : "
                  "(tensor<%dx%dx%s>) -> tensor<%dx%dx%s>\n",
                  g->next, g->N, g->N, E, g->N, g->N, E);
          wt = g->next++;
        }
        fprintf(o, "  %%v%d = \"rt.matmul\"(%%v%d, %%v%d) : (%s, tensor<%dx%dx%s>) -> %s\n",
                g->next, a, wt, T, g->N, g->N, E, T);
        r = g->next++;
      } else
        r = emit_scalar_binary(g, "mul", a, 0.5);
      break;
    case 7: r = emit_reduce_bcast(g, a); break;
    default: r = emit_select(g, any(g, &fwd), any(g, &fwd), a); break;
    }
    push(&bwd, r);
  }
  fprintf(o, "  return ");
  for (int k = 0; k < nout + ngrad; k++)
    fprintf(o, "%s%%v%d", k ? ", " : "",
            k < nout    ? outs[k]
            : k == nout ? bwd.v[bwd.n - 1]
                        : any(g, &bwd));
  fprintf(o, " : ");
  for (int k = 0; k < nout + ngrad; k++)
    fprintf(o, "%s%s", k ? ", " : "", T);
  fprintf(o, "\n}\n");
  *ops_total += g->next;
}

int main(int argc, char **argv) {
  unsigned long long seed = 0;
  long count = 1;
  values values = VALUES_UNIT;
  bool indexing = false, conv = false;
  cli_prog = "remat-gen";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    unsigned long long u;
    if (cli_flag(a, "--indexing"))
      indexing = true;
    else if (cli_flag(a, "--conv"))
      conv = true;
    else if (cli_value(argc, argv, &i, "--values", &v)) {
      if (strcmp(v, "unit") && strcmp(v, "wide") && strcmp(v, "special")) {
        fprintf(stderr, "remat-gen: error: --values expects unit, wide or special\n");
        return 1;
      }
      values = !strcmp(v, "unit") ? VALUES_UNIT : !strcmp(v, "wide") ? VALUES_WIDE : VALUES_SPECIAL;
    } else if (cli_value(argc, argv, &i, "--seed", &v)) {
      if (!cli_u64(v, &seed)) {
        fprintf(stderr, "remat-gen: error: --seed expects a non-negative number\n");
        return 1;
      }
    } else if (cli_value(argc, argv, &i, "--count", &v)) {
      if (!cli_u64(v, &u) || u < 1 || u > 100000) {
        fprintf(stderr, "remat-gen: error: --count must be in 1..100000\n");
        return 1;
      }
      count = (long)u;
    } else if (cli_flag(a, "--help") || cli_flag(a, "-h")) {
      printf("usage: remat-gen [--seed N] [--count K] [--values=unit|wide|special] "
             "[--indexing] [--conv]\n\n"
             "Writes K random joint forward+backward functions @g0..@g{K-1} (rt IR) to\n"
             "stdout, deterministic in the seed; the op count goes to stderr.\n"
             "--values=wide|special draws scalar constants from remat-run's distribution\n"
             "of that name and adds f16/bf16/f64 graphs, div, pow (exponents 0.5, 2, -1,\n"
             "3), log, log1p, sqrt, rsqrt, erf and functions of constants.\n"
             "--indexing adds rt.argmax, rt.gather (forward) and rt.scatter_add\n"
             "(backward).\n"
             "--conv adds rt.conv (forward), rt.conv_grad_input and rt.conv_grad_weight\n"
             "(backward). Options with a value take it as --opt=VALUE or --opt VALUE.\n");
      return 0;
    } else {
      fprintf(stderr, "remat-gen: error: unknown option '%s' (see --help)\n", a);
      return 1;
    }
  }
  gen g = {seed, 0, 1, 1, stdout, values, indexing, conv};
  int ops = 0;
  static const char *const names[] = {"unit", "wide", "special"};
  if (values == VALUES_UNIT)
    printf("// remat-gen --seed %llu --count %ld%s%s\n", seed, count, indexing ? " --indexing" : "",
           conv ? " --conv" : "");
  else
    printf("// remat-gen --seed %llu --count %ld --values=%s%s%s\n", seed, count, names[values],
           indexing ? " --indexing" : "", conv ? " --conv" : "");
  for (long k = 0; k < count; k++) {
    g.s = seed * 0x2545F4914F6CDD1Dull + (uint64_t)k + (uint64_t)values * 0x9E3779B97F4A7C15ull;
    rnd(&g);
    gen_function(&g, (int)k, &ops);
  }
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "remat-gen: error: cannot write the output: %s\n", strerror(errno));
    return 1;
  }
  fprintf(stderr, "remat-gen: %ld functions, %d ops\n", count, ops);
  return 0;
}
