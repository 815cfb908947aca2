/* ops.c: rt operations as plain C loops over dense buffers (see ops.h). */
#include "ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "philox.h"
#include "reduce_order.h"
#include "rt.h"

typedef enum domain { DOM_F32, DOM_F64, DOM_INT } domain;

static domain domain_of(rtr_elem e) {
  if (e == RTR_F64)
    return DOM_F64;
  return rtr_elem_is_float(e) ? DOM_F32 : DOM_INT;
}

/* Row-major strides (in elements) of a shape. */
static void strides_of(const rtr_buffer *b, int64_t *s) {
  int64_t acc = 1;
  for (int k = b->rank - 1; k >= 0; k--) {
    s[k] = acc;
    acc *= b->dims[k];
  }
}

/* Multi-index of linear index i in b's shape. */
static void unravel(const rtr_buffer *b, int64_t i, int64_t *idx) {
  for (int k = b->rank - 1; k >= 0; k--) {
    idx[k] = b->dims[k] ? i % b->dims[k] : 0;
    i = b->dims[k] ? i / b->dims[k] : 0;
  }
}

static void copy_elem(rtr_buffer *out, int64_t i, const rtr_buffer *in, int64_t j) {
  size_t es = rtr_elem_size(out->elem);
  memcpy((char *)out->data + (size_t)i * es, (const char *)in->data + (size_t)j * es, es);
}

/* ---- elementwise -------------------------------------------------------------------- */

/* IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0 (torch.maximum, llvm.maximum). */
static float max_f32(float a, float b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}
static float min_f32(float a, float b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}
static double max_f64(double a, double b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double min_f64(double a, double b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* clamp(x, 0, RT_HARD_CAP) as torch's clamp computes it: NaN stays NaN and -0 stays -0
 * (the ordered compares fail on NaN; -0 < 0 is false). */
static float hard_clamp_f32(float x) {
  return x < 0.0f ? 0.0f : x > (float)RT_HARD_CAP ? (float)RT_HARD_CAP : x;
}
static double hard_clamp_f64(double x) { return x < 0.0 ? 0.0 : x > RT_HARD_CAP ? RT_HARD_CAP : x; }

static float ew_f32(rtr_ew op, float a, float b) {
  switch (op) {
  case RTR_EW_ADD: return a + b;
  case RTR_EW_SUB: return a - b;
  case RTR_EW_MUL: return a * b;
  case RTR_EW_DIV: return a / b;
  case RTR_EW_REM: return fmodf(a, b);
  case RTR_EW_MAX: return max_f32(a, b);
  case RTR_EW_MIN: return min_f32(a, b);
  case RTR_EW_POW: return powf(a, b);
  case RTR_EW_NEG: return -a;
  case RTR_EW_SQRT: return sqrtf(a);
  case RTR_EW_RSQRT: return 1.0f / sqrtf(a);
  case RTR_EW_ABS: return fabsf(a);
  case RTR_EW_SOFTPLUS: return a > (float)RT_SOFTPLUS_THRESHOLD ? a : log1pf(expf(a));
  case RTR_EW_HARDSWISH: return a * hard_clamp_f32(a + (float)RT_HARD_OFFSET) / (float)RT_HARD_CAP;
  case RTR_EW_HARDSIGMOID: return hard_clamp_f32(a + (float)RT_HARD_OFFSET) / (float)RT_HARD_CAP;
  case RTR_EW_RELU6: return hard_clamp_f32(a);
  case RTR_EW_MISH: return a * tanhf(log1pf(expf(a)));
  case RTR_EW_AND:
  case RTR_EW_OR:
  case RTR_EW_XOR:
  case RTR_EW_SELECT: break;
  }
  remat_fatal("elementwise op %d on floats", (int)op);
}

static double ew_f64(rtr_ew op, double a, double b) {
  switch (op) {
  case RTR_EW_ADD: return a + b;
  case RTR_EW_SUB: return a - b;
  case RTR_EW_MUL: return a * b;
  case RTR_EW_DIV: return a / b;
  case RTR_EW_REM: return fmod(a, b);
  case RTR_EW_MAX: return max_f64(a, b);
  case RTR_EW_MIN: return min_f64(a, b);
  case RTR_EW_POW: return pow(a, b);
  case RTR_EW_NEG: return -a;
  case RTR_EW_SQRT: return sqrt(a);
  case RTR_EW_RSQRT: return 1.0 / sqrt(a);
  case RTR_EW_ABS: return fabs(a);
  case RTR_EW_SOFTPLUS: return a > RT_SOFTPLUS_THRESHOLD ? a : log1p(exp(a));
  case RTR_EW_HARDSWISH: return a * hard_clamp_f64(a + RT_HARD_OFFSET) / RT_HARD_CAP;
  case RTR_EW_HARDSIGMOID: return hard_clamp_f64(a + RT_HARD_OFFSET) / RT_HARD_CAP;
  case RTR_EW_RELU6: return hard_clamp_f64(a);
  case RTR_EW_MISH: return a * tanh(log1p(exp(a)));
  case RTR_EW_AND:
  case RTR_EW_OR:
  case RTR_EW_XOR:
  case RTR_EW_SELECT: break;
  }
  remat_fatal("elementwise op %d on floats", (int)op);
}

/* Integer arithmetic wraps (done on uint64; the store truncates to the width). Division
 * and remainder by zero give 0: the interpreter must not trap on user data. */
static int64_t ew_int(rtr_ew op, int64_t a, int64_t b) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case RTR_EW_ADD: return (int64_t)(ua + ub);
  case RTR_EW_SUB: return (int64_t)(ua - ub);
  case RTR_EW_MUL: return (int64_t)(ua * ub);
  case RTR_EW_DIV:
    if (b == 0)
      return 0;
    return (a == INT64_MIN && b == -1) ? a : a / b;
  case RTR_EW_REM:
    if (b == 0 || b == -1)
      return 0;
    return a % b;
  case RTR_EW_MAX: return a > b ? a : b;
  case RTR_EW_MIN: return a < b ? a : b;
  case RTR_EW_POW: {
    if (b < 0)
      return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    uint64_t r = 1, base = ua;
    for (uint64_t e = ub; e; e >>= 1, base *= base)
      if (e & 1)
        r *= base;
    return (int64_t)r;
  }
  case RTR_EW_AND: return a & b;
  case RTR_EW_OR: return a | b;
  case RTR_EW_XOR: return a ^ b;
  case RTR_EW_NEG: return (int64_t)(0 - ua);
  case RTR_EW_ABS: return a < 0 ? (int64_t)(0 - ua) : a;
  case RTR_EW_SQRT:
  case RTR_EW_RSQRT:
  case RTR_EW_SOFTPLUS:
  case RTR_EW_HARDSWISH:
  case RTR_EW_HARDSIGMOID:
  case RTR_EW_RELU6:
  case RTR_EW_MISH:
  case RTR_EW_SELECT: break;
  }
  remat_fatal("elementwise op %d on integers", (int)op);
}

void rtr_ew_apply(rtr_ew op, int n, rtr_buffer *out, const rtr_buffer *const *args) {
  domain d = domain_of(out->elem);
  for (int64_t i = 0; i < out->numel; i++) {
    int64_t ix[3] = {0, 0, 0};
    for (int k = 0; k < n; k++)
      ix[k] = args[k]->numel == 1 ? 0 : i;
    if (op == RTR_EW_SELECT) { /* a branch of another type converts as rt.convert */
      bool take_a = rtr_buffer_get_i(args[0], ix[0]) != 0;
      rtr_convert_elem(out, i, take_a ? args[1] : args[2], take_a ? ix[1] : ix[2], false);
      continue;
    }
    const rtr_buffer *b = n > 1 ? args[1] : args[0];
    switch (d) {
    case DOM_F32:
      rtr_buffer_set_f32(
          out, i, ew_f32(op, rtr_buffer_get_f32(args[0], ix[0]), rtr_buffer_get_f32(b, ix[1])));
      break;
    case DOM_F64:
      rtr_buffer_set_f(out, i,
                       ew_f64(op, rtr_buffer_get_f(args[0], ix[0]), rtr_buffer_get_f(b, ix[1])));
      break;
    case DOM_INT:
      rtr_buffer_set_i(out, i,
                       ew_int(op, rtr_buffer_get_i(args[0], ix[0]), rtr_buffer_get_i(b, ix[1])));
      break;
    }
  }
}

void rtr_math_apply(rtr_buffer *out, const rtr_buffer *in, float (*f32)(float),
                    double (*f64)(double)) {
  domain d = domain_of(out->elem);
  for (int64_t i = 0; i < out->numel; i++) {
    int64_t j = in->numel == 1 ? 0 : i;
    if (d == DOM_F32)
      rtr_buffer_set_f32(out, i, f32(rtr_buffer_get_f32(in, j)));
    else if (d == DOM_F64)
      rtr_buffer_set_f(out, i, f64(rtr_buffer_get_f(in, j)));
    else
      remat_fatal("float function on %s (the verifier rejects it)", rtr_elem_name(out->elem));
  }
}

/* ---- compare ------------------------------------------------------------------------ */

static bool cmp_f(rtr_cmp p, double a, double b) {
  bool uno = isnan(a) || isnan(b);
  switch (p) {
  case RTR_CMP_FALSE: return false;
  case RTR_CMP_OEQ: return !uno && a == b;
  case RTR_CMP_OGT: return !uno && a > b;
  case RTR_CMP_OGE: return !uno && a >= b;
  case RTR_CMP_OLT: return !uno && a < b;
  case RTR_CMP_OLE: return !uno && a <= b;
  case RTR_CMP_ONE: return !uno && a != b;
  case RTR_CMP_ORD: return !uno;
  case RTR_CMP_UEQ: return uno || a == b;
  case RTR_CMP_UGT: return uno || a > b;
  case RTR_CMP_UGE: return uno || a >= b;
  case RTR_CMP_ULT: return uno || a < b;
  case RTR_CMP_ULE: return uno || a <= b;
  case RTR_CMP_UNE: return uno || a != b;
  case RTR_CMP_UNO: return uno;
  case RTR_CMP_TRUE: return true;
  default: remat_fatal("integer predicate %d on floats", (int)p);
  }
}

static uint64_t as_unsigned(int64_t v, rtr_elem e) {
  switch (e) {
  case RTR_I1: return (uint64_t)v & 1;
  case RTR_I8: return (uint64_t)v & 0xff;
  case RTR_I32: return (uint64_t)v & 0xffffffffu;
  default: return (uint64_t)v;
  }
}

static bool cmp_i(rtr_cmp p, int64_t a, int64_t b, rtr_elem e) {
  uint64_t ua = as_unsigned(a, e), ub = as_unsigned(b, e);
  switch (p) {
  case RTR_CMP_EQ: return a == b;
  case RTR_CMP_NE: return a != b;
  case RTR_CMP_SLT: return a < b;
  case RTR_CMP_SLE: return a <= b;
  case RTR_CMP_SGT: return a > b;
  case RTR_CMP_SGE: return a >= b;
  case RTR_CMP_IULT: return ua < ub;
  case RTR_CMP_IULE: return ua <= ub;
  case RTR_CMP_IUGT: return ua > ub;
  case RTR_CMP_IUGE: return ua >= ub;
  default: remat_fatal("float predicate %d on integers", (int)p);
  }
}

void rtr_cmp_apply(rtr_cmp pred, rtr_elem dom, rtr_buffer *out, const rtr_buffer *a,
                   const rtr_buffer *b) {
  domain d = domain_of(dom);
  for (int64_t i = 0; i < out->numel; i++) {
    int64_t ia = a->numel == 1 ? 0 : i, ib = b->numel == 1 ? 0 : i;
    bool r;
    if (d == DOM_F32) /* f32 operands compare exactly as doubles */
      r = cmp_f(pred, rtr_buffer_get_f32(a, ia), rtr_buffer_get_f32(b, ib));
    else if (d == DOM_F64)
      r = cmp_f(pred, rtr_buffer_get_f(a, ia), rtr_buffer_get_f(b, ib));
    else
      r = cmp_i(pred, rtr_buffer_get_i(a, ia), rtr_buffer_get_i(b, ib), dom);
    rtr_buffer_set_i(out, i, r);
  }
}

/* ---- conversion, constants ---------------------------------------------------------- */

void rtr_convert_elem(rtr_buffer *out, int64_t i, const rtr_buffer *in, int64_t j,
                      bool src_unsigned) {
  domain dout = domain_of(out->elem), din = domain_of(in->elem);
  if (out->elem == in->elem && !in->view_map) {
    copy_elem(out, i, in, j);
  } else if (din == DOM_INT) {
    int64_t v = rtr_buffer_get_i(in, j);
    uint64_t u = as_unsigned(v, in->elem);
    /* one rounding from the integer (an i64 through double would round twice) */
    if (src_unsigned || in->elem == RTR_I1) {
      if (dout == DOM_F32)
        rtr_buffer_set_f32(out, i, (float)u);
      else if (dout == DOM_F64)
        rtr_buffer_set_f(out, i, (double)u);
      else
        rtr_buffer_set_i(out, i, out->elem == RTR_I1 ? u != 0 : (int64_t)u);
    } else if (dout == DOM_F32)
      rtr_buffer_set_f32(out, i, (float)v);
    else if (dout == DOM_F64)
      rtr_buffer_set_f(out, i, (double)v);
    else
      rtr_buffer_set_i(out, i, out->elem == RTR_I1 ? v != 0 : v);
  } else if (din == DOM_F32 && dout == DOM_F32) {
    rtr_buffer_set_f32(out, i, rtr_buffer_get_f32(in, j));
  } else if (dout == DOM_INT) {
    rtr_buffer_set_i(out, i, rtr_float_to_int(rtr_buffer_get_f(in, j), out->elem));
  } else {
    rtr_buffer_set_f(out, i, rtr_buffer_get_f(in, j));
  }
}

void rtr_convert(rtr_buffer *out, const rtr_buffer *in, bool src_unsigned) {
  for (int64_t i = 0; i < out->numel; i++)
    rtr_convert_elem(out, i, in, in->numel == 1 ? 0 : i, src_unsigned);
}

void rtr_iota(rtr_buffer *out, int dim) {
  int64_t idx[RT_MAX_RANK];
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    if (rtr_elem_is_float(out->elem))
      rtr_buffer_set_f(out, i, (double)idx[dim]);
    else
      rtr_buffer_set_i(out, i, idx[dim]);
  }
}

/* ---- structural --------------------------------------------------------------------- */

void rtr_broadcast(rtr_buffer *out, const rtr_buffer *in, const int64_t *dims) {
  int64_t idx[RT_MAX_RANK], st[RT_MAX_RANK];
  strides_of(in, st);
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    int64_t j = 0;
    for (int k = 0; k < in->rank; k++)
      j += (in->dims[k] == 1 ? 0 : idx[dims[k]]) * st[k];
    copy_elem(out, i, in, j);
  }
}

void rtr_transpose(rtr_buffer *out, const rtr_buffer *in, const int64_t *perm) {
  int64_t idx[RT_MAX_RANK], st[RT_MAX_RANK];
  strides_of(in, st);
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    int64_t j = 0;
    for (int k = 0; k < out->rank; k++)
      j += idx[k] * st[perm[k]];
    copy_elem(out, i, in, j);
  }
}

void rtr_slice(rtr_buffer *out, const rtr_buffer *in, const int64_t *start, const int64_t *stride) {
  int64_t idx[RT_MAX_RANK], st[RT_MAX_RANK];
  strides_of(in, st);
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    int64_t j = 0;
    for (int k = 0; k < out->rank; k++)
      j += (start[k] + idx[k] * stride[k]) * st[k];
    copy_elem(out, i, in, j);
  }
}

void rtr_concat(rtr_buffer *out, const rtr_buffer *const *ins, int n, int dim) {
  int64_t idx[RT_MAX_RANK], st[RT_MAX_RANK];
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    int p = 0;
    int64_t at = idx[dim];
    while (p < n - 1 && at >= ins[p]->dims[dim])
      at -= ins[p++]->dims[dim];
    strides_of(ins[p], st);
    int64_t j = 0;
    for (int k = 0; k < out->rank; k++)
      j += (k == dim ? at : idx[k]) * st[k];
    copy_elem(out, i, ins[p], j);
  }
}

/* ---- reductions and matmul ---------------------------------------------------------- */

static float f32_init(rtr_reduce_kind k) {
  return k == RTR_REDUCE_SUM ? 0.0f : k == RTR_REDUCE_MAX ? -INFINITY : INFINITY;
}
static int64_t int_init(rtr_reduce_kind k, rtr_elem e) {
  if (k == RTR_REDUCE_SUM)
    return 0;
  int64_t lo = e == RTR_I1 ? 0 : e == RTR_I8 ? INT8_MIN : e == RTR_I32 ? INT32_MIN : INT64_MIN;
  int64_t hi = e == RTR_I1 ? 1 : e == RTR_I8 ? INT8_MAX : e == RTR_I32 ? INT32_MAX : INT64_MAX;
  return k == RTR_REDUCE_MAX ? lo : hi;
}
static float red_f32(rtr_reduce_kind k, float acc, float v) {
  return k == RTR_REDUCE_SUM ? acc + v : k == RTR_REDUCE_MAX ? max_f32(acc, v) : min_f32(acc, v);
}
static double red_f64(rtr_reduce_kind k, double acc, double v) {
  return k == RTR_REDUCE_SUM ? acc + v : k == RTR_REDUCE_MAX ? max_f64(acc, v) : min_f64(acc, v);
}
static int64_t red_int(rtr_reduce_kind k, int64_t acc, int64_t v) {
  return k == RTR_REDUCE_SUM   ? (int64_t)((uint64_t)acc + (uint64_t)v)
         : k == RTR_REDUCE_MAX ? (acc > v ? acc : v)
                               : (acc < v ? acc : v);
}

/* The fixed reduction order (docs/design.md, "Reduction order"), shared with the codegen:
 * the R reduced elements of one output, in row-major order e_0..e_{R-1}, are dealt to
 * REMAT_REDUCE_LANES lanes (lane t accumulates init, e_t, e_{t+256}, ... in turn), then
 * the lanes combine as a block of 8 warps of 32 does with shuffles: within each warp
 * p[l] = p[l] op p[l + off] for off = 16, 8, 4, 2, 1 and l < off, then across the warps'
 * first lanes W[l] = W[l] op W[l + off] for off = 4, 2, 1. The result is p[0]. */
#define LANES REMAT_REDUCE_LANES
#define WARP REMAT_REDUCE_WARP

#define TREE(T, RED)                                            \
  static T tree_##T(rtr_reduce_kind k, T *p) {                  \
    for (int w = 0; w < LANES; w += WARP)                       \
      for (int off = WARP / 2; off >= 1; off /= 2)              \
        for (int l = 0; l < off; l++)                           \
          p[w + l] = RED(k, p[w + l], p[w + l + off]);          \
    for (int off = LANES / WARP / 2; off >= 1; off /= 2)        \
      for (int l = 0; l < off; l++)                             \
        p[WARP * l] = RED(k, p[WARP * l], p[WARP * (l + off)]); \
    return p[0];                                                \
  }
TREE(float, red_f32)
TREE(double, red_f64)
TREE(int64_t, red_int)

void rtr_reduce(rtr_buffer *out, const rtr_buffer *in, const int64_t *dims, int ndims,
                rtr_reduce_kind kind) {
  bool reduced[RT_MAX_RANK] = {false};
  for (int k = 0; k < ndims; k++)
    reduced[dims[k]] = true;
  /* Input strides of the kept dims (row-major over the output) and of the reduced dims
   * (row-major over one output's elements). */
  int64_t st[RT_MAX_RANK], kd[RT_MAX_RANK], ks[RT_MAX_RANK], rd[RT_MAX_RANK], rs[RT_MAX_RANK];
  int nk = 0, nr = 0;
  int64_t rows = 1, row = 1;
  strides_of(in, st);
  for (int k = 0; k < in->rank; k++) {
    if (reduced[k]) {
      rd[nr] = in->dims[k], rs[nr++] = st[k];
      row *= in->dims[k];
    } else {
      kd[nk] = in->dims[k], ks[nk++] = st[k];
      rows *= in->dims[k];
    }
  }
  domain d = domain_of(out->elem);
  float pf[LANES];
  double pd[LANES];
  int64_t pi[LANES];
  for (int64_t o = 0; o < rows; o++) {
    int64_t base = 0, rest = o;
    for (int k = nk - 1; k >= 0; k--) {
      base += rest % kd[k] * ks[k];
      rest /= kd[k];
    }
    for (int t = 0; t < LANES; t++) {
      pf[t] = f32_init(kind);
      pd[t] = (double)f32_init(kind);
      pi[t] = int_init(kind, in->elem);
    }
    for (int64_t j = 0; j < row; j++) {
      int64_t at = base;
      rest = j;
      for (int k = nr - 1; k >= 0; k--) {
        at += rest % rd[k] * rs[k];
        rest /= rd[k];
      }
      int t = (int)(j % LANES);
      if (d == DOM_F32)
        pf[t] = red_f32(kind, pf[t], rtr_buffer_get_f32(in, at));
      else if (d == DOM_F64)
        pd[t] = red_f64(kind, pd[t], rtr_buffer_get_f(in, at));
      else
        pi[t] = red_int(kind, pi[t], rtr_buffer_get_i(in, at));
    }
    if (d == DOM_F32)
      rtr_buffer_set_f32(out, o, tree_float(kind, pf));
    else if (d == DOM_F64)
      rtr_buffer_set_f(out, o, tree_double(kind, pd));
    else
      rtr_buffer_set_i(out, o, tree_int64_t(kind, pi));
  }
}

/* Index in a [B,R,C] buffer of element (p, r, c) of the operand as the product reads it:
 * transposed, the buffer is [B,C,R]. */
static int64_t operand_at(int64_t p, int64_t r, int64_t c, int64_t R, int64_t C, bool t) {
  return t ? (p * C + c) * R + r : (p * R + r) * C + c;
}

/* The widened operands are sized by the program: running out of memory is the caller's
 * error to report (see runtime/buffer.h), so this is calloc, not xcalloc. */
static void *tmp_alloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

int rtr_matmul(rtr_buffer *out, const rtr_buffer *a, const rtr_buffer *b, int block, bool ta,
               bool tb) {
  int batched = a->rank == 3;
  int64_t B = batched ? a->dims[0] : 1, M = out->dims[batched], N = out->dims[batched + 1],
          K = a->dims[batched + (ta ? 0 : 1)];
  int64_t bm = block > 0 ? block : (M ? M : 1), bn = block > 0 ? block : (N ? N : 1);
  domain d = domain_of(out->elem);
  /* Operands widened once to the accumulation type, in the [B,M,K] and [B,K,N] order the
   * product reads (a transposed operand is read transposed here, nothing is copied
   * before). */
  size_t na = (size_t)a->numel, nb = (size_t)b->numel;
  float *fa = NULL, *fb = NULL;
  double *da = NULL, *db = NULL;
  int64_t *ia = NULL, *ib = NULL;
  if (d == DOM_F32)
    fa = tmp_alloc(na, sizeof *fa), fb = tmp_alloc(nb, sizeof *fb);
  else if (d == DOM_F64)
    da = tmp_alloc(na, sizeof *da), db = tmp_alloc(nb, sizeof *db);
  else
    ia = tmp_alloc(na, sizeof *ia), ib = tmp_alloc(nb, sizeof *ib);
  if (!(fa && fb) && !(da && db) && !(ia && ib)) {
    free(fa), free(fb), free(da), free(db), free(ia), free(ib);
    return -1;
  }
  for (int64_t p = 0; p < B; p++)
    for (int64_t r = 0; r < M; r++)
      for (int64_t c = 0; c < K; c++) {
        int64_t i = (p * M + r) * K + c, at = operand_at(p, r, c, M, K, ta);
        if (fa)
          fa[i] = rtr_buffer_get_f32(a, at);
        else if (da)
          da[i] = rtr_buffer_get_f(a, at);
        else
          ia[i] = rtr_buffer_get_i(a, at);
      }
  for (int64_t p = 0; p < B; p++)
    for (int64_t r = 0; r < K; r++)
      for (int64_t c = 0; c < N; c++) {
        int64_t i = (p * K + r) * N + c, at = operand_at(p, r, c, K, N, tb);
        if (fb)
          fb[i] = rtr_buffer_get_f32(b, at);
        else if (db)
          db[i] = rtr_buffer_get_f(b, at);
        else
          ib[i] = rtr_buffer_get_i(b, at);
      }
  for (int64_t p = 0; p < B; p++)
    for (int64_t m0 = 0; m0 < M; m0 += bm)
      for (int64_t n0 = 0; n0 < N; n0 += bn)
        for (int64_t m = m0; m < m0 + bm && m < M; m++)
          for (int64_t n = n0; n < n0 + bn && n < N; n++) {
            int64_t ao = (p * M + m) * K, bo = p * K * N + n, o = (p * M + m) * N + n;
            if (fa) {
              float acc = 0.0f;
              for (int64_t k = 0; k < K; k++) {
                float prod = fa[ao + k] * fb[bo + k * N]; /* no fma: two roundings */
                acc = acc + prod;
              }
              rtr_buffer_set_f32(out, o, acc);
            } else if (da) {
              double acc = 0.0;
              for (int64_t k = 0; k < K; k++) {
                double prod = da[ao + k] * db[bo + k * N];
                acc = acc + prod;
              }
              rtr_buffer_set_f(out, o, acc);
            } else {
              uint64_t acc = 0;
              for (int64_t k = 0; k < K; k++)
                acc += (uint64_t)ia[ao + k] * (uint64_t)ib[bo + k * N];
              rtr_buffer_set_i(out, o, (int64_t)acc);
            }
          }
  free(fa), free(fb), free(da), free(db), free(ia), free(ib);
  return 0;
}

/* ---- random ------------------------------------------------------------------------- */

void rtr_uniform_philox(rtr_buffer *out, uint64_t seed, uint64_t offset, double lo, double hi) {
  for (int64_t i = 0; i < out->numel; i++) {
    uint32_t bits = philox_element_bits(seed, offset, (uint64_t)i);
    switch (out->elem) {
    case RTR_F16: ((uint16_t *)out->data)[i] = philox_uniform_f16_bits(bits, lo, hi); break;
    case RTR_BF16: ((uint16_t *)out->data)[i] = philox_uniform_bf16_bits(bits, lo, hi); break;
    default: /* f32; an f64 buffer (the interpreter's f64 mode) widens the f32 value */
      rtr_buffer_set_f(out, i, philox_uniform_f32(bits, lo, hi));
      break;
    }
  }
}

/* ---- collectives -------------------------------------------------------------------- */

void rtr_all_gather(rtr_buffer *out, const rtr_buffer *in, int64_t group, int dim) {
  int64_t idx[RT_MAX_RANK], st[RT_MAX_RANK];
  strides_of(in, st);
  for (int64_t i = 0; i < out->numel; i++) {
    unravel(out, i, idx);
    idx[dim] %= in->dims[dim];
    int64_t j = 0;
    for (int k = 0; k < in->rank; k++)
      j += idx[k] * st[k];
    copy_elem(out, i, in, j);
  }
  (void)group;
}

void rtr_combine_parts(rtr_buffer *out, const rtr_buffer *const *parts, int n,
                       rtr_reduce_kind kind) {
  domain d = domain_of(out->elem);
  for (int64_t i = 0; i < out->numel; i++) {
    if (d == DOM_F32) {
      float acc = rtr_buffer_get_f32(parts[0], i);
      for (int r = 1; r < n; r++)
        acc = red_f32(kind, acc, rtr_buffer_get_f32(parts[r], i));
      rtr_buffer_set_f32(out, i, acc);
    } else if (d == DOM_F64) {
      double acc = rtr_buffer_get_f(parts[0], i);
      for (int r = 1; r < n; r++)
        acc = red_f64(kind, acc, rtr_buffer_get_f(parts[r], i));
      rtr_buffer_set_f(out, i, acc);
    } else {
      int64_t acc = rtr_buffer_get_i(parts[0], i);
      for (int r = 1; r < n; r++)
        acc = red_int(kind, acc, rtr_buffer_get_i(parts[r], i));
      rtr_buffer_set_i(out, i, acc);
    }
  }
}

/* The simulation's ranks all hold IN: the rank-order combination of `group` copies. */
static void combine_copies(rtr_buffer *out, const rtr_buffer *in, int64_t group,
                           rtr_reduce_kind kind) {
  int n = group < 1 ? 1 : (int)group;
  const rtr_buffer **parts = xcalloc((size_t)n, sizeof *parts);
  for (int r = 0; r < n; r++)
    parts[r] = in;
  rtr_combine_parts(out, parts, n, kind);
  free(parts);
}

void rtr_all_reduce(rtr_buffer *out, const rtr_buffer *in, int64_t group, rtr_reduce_kind kind) {
  combine_copies(out, in, group, kind);
}

void rtr_reduce_scatter(rtr_buffer *out, const rtr_buffer *in, int64_t group, int dim,
                        rtr_reduce_kind kind) {
  /* Rank 0's slice: the first out->dims[dim] entries along dim. */
  int64_t start[RT_MAX_RANK] = {0}, stride[RT_MAX_RANK];
  for (int k = 0; k < in->rank; k++)
    stride[k] = 1;
  (void)dim;
  /* In place, without a buffer that could fail to allocate: the slice goes into OUT, and
   * combining copies of OUT into OUT reads each element before writing it. */
  rtr_slice(out, in, start, stride);
  combine_copies(out, out, group, kind);
}

/* ---- indexing ----------------------------------------------------------------------- */

/* A shape seen around dimension dim: outer (dims before), mid (dim), inner (after). */
static void around(const rtr_buffer *b, int dim, int64_t *outer, int64_t *mid, int64_t *inner) {
  *outer = *inner = 1;
  for (int k = 0; k < dim; k++)
    *outer *= b->dims[k];
  for (int k = dim + 1; k < b->rank; k++)
    *inner *= b->dims[k];
  *mid = b->dims[dim];
}

/* The position in a buffer of middle size `mid` that position i of the indices (middle
 * size `imid`) addresses with index v; -1 (and *err) when v is out of [0, mid). */
static int64_t target_of(const rtr_buffer *idx, int64_t i, int64_t imid, int64_t inner, int64_t mid,
                         rtr_index_error *err) {
  int64_t v = rtr_buffer_get_i(idx, i);
  if (v < 0 || v >= mid) {
    *err = (rtr_index_error){v, mid, i};
    return -1;
  }
  int64_t o = i / (imid * inner), n = i % inner;
  return (o * mid + v) * inner + n;
}

int rtr_gather(rtr_buffer *out, const rtr_buffer *src, const rtr_buffer *idx, int dim,
               rtr_index_error *err) {
  int64_t outer, mid, inner, imid;
  around(src, dim, &outer, &mid, &inner);
  imid = idx->dims[dim];
  for (int64_t i = 0; i < out->numel; i++) {
    int64_t j = target_of(idx, i, imid, inner, mid, err);
    if (j < 0)
      return -1;
    copy_elem(out, i, src, j);
  }
  return 0;
}

int rtr_scatter_add(rtr_buffer *out, const rtr_buffer *base, const rtr_buffer *idx,
                    const rtr_buffer *upd, int dim, rtr_index_error *err) {
  int64_t outer, mid, inner, imid;
  around(base, dim, &outer, &mid, &inner);
  imid = idx->dims[dim];
  memcpy(out->data, base->data, (size_t)out->numel * rtr_elem_size(out->elem));
  domain d = domain_of(out->elem);
  for (int64_t i = 0; i < upd->numel; i++) {
    int64_t j = target_of(idx, i, imid, inner, mid, err);
    if (j < 0)
      return -1;
    if (d == DOM_F32)
      rtr_buffer_set_f32(out, j, rtr_buffer_get_f32(out, j) + rtr_buffer_get_f32(upd, i));
    else if (d == DOM_F64)
      rtr_buffer_set_f(out, j, rtr_buffer_get_f(out, j) + rtr_buffer_get_f(upd, i));
    else /* wraps; i1 keeps the low bit: xor */
      rtr_buffer_set_i(
          out, j,
          (int64_t)((uint64_t)rtr_buffer_get_i(out, j) + (uint64_t)rtr_buffer_get_i(upd, i)));
  }
  return 0;
}

void rtr_argmax(rtr_buffer *out, const rtr_buffer *in, int dim) {
  int64_t outer, mid, inner;
  around(in, dim, &outer, &mid, &inner);
  bool fl = rtr_elem_is_float(in->elem);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t n = 0; n < inner; n++) {
      int64_t best = 0, base = o * mid * inner + n;
      if (fl) {
        double m = mid ? rtr_buffer_get_f(in, base) : 0;
        for (int64_t j = 1; j < mid && !isnan(m); j++) {
          double v = rtr_buffer_get_f(in, base + j * inner);
          if (isnan(v) || v > m)
            m = v, best = j;
        }
      } else {
        int64_t m = mid ? rtr_buffer_get_i(in, base) : 0;
        for (int64_t j = 1; j < mid; j++) {
          int64_t v = rtr_buffer_get_i(in, base + j * inner);
          if (v > m)
            m = v, best = j;
        }
      }
      rtr_buffer_set_i(out, o * inner + n, best);
    }
}
