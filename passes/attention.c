/* attention.c: --remat-attention, decomposed attention and its backward rewritten into
 * rt.attention and rt.attention_grad (docs/design.md, "Attention").
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it).
 *
 * How: each function is viewed flat (rt_graph, with use lists). A candidate is a batched
 * rt.matmul whose left operand is a softmax (rt.div of rt.exp), through row-preserving
 * reshapes and Philox dropout. Its forward is matched backwards from that matmul, its
 * backward backwards from the matmul that multiplies by k (dq = dS k), and every op of
 * both is checked against the forward's facts (the same P, mask, keep and scale). The ops
 * of the match must have no user outside it but the values the new ops replace (the
 * output; dq, dk, dv); the leaves they read (the mask's broadcast, the dropout mask, the
 * transposes of q, k, v) are erased when dead. One rewrite per function view: the view is
 * loaded again after each, so that no handle of an erased op is read. A candidate that
 * does not match is left alone and the report says why. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "passes.h"
#include "report.h"
#include "rt.h"
#include "rt_graph.h"

/* What the pass requires, keeps and breaks. */
static const char contract[] =
    "requires: verified rt IR; runs before --remat-mincut, on joint or forward-only "
    "functions (functions of other forms are read as one block and left alone where they "
    "do not match). keeps: every value outside the matched attention patterns, the "
    "functions' signatures and attributes. breaks: each matched attention (q k^T, an "
    "optional scale, mask and Philox dropout, softmax over the last axis, the matmul with "
    "v) becomes one rt.attention, and its backward, when the function has it, one "
    "rt.attention_grad; the ops of the patterns and the leaves left dead (masks, dropout "
    "masks, views) are erased; the results agree with the unfused graph within the ops' "
    "stated tolerance, not bit for bit";

/* A mask operand as the new ops read it. */
typedef enum mask_how {
  MASK_NONE,
  MASK_USE,      /* the value as it is: [Sq, Sk] or [N, Sq, Sk] */
  MASK_RESHAPE,  /* the full-shape value reshaped to [N, Sq, Sk] */
  MASK_BCAST_2D, /* the broadcast's operand, independent of N: reshaped to [a, b], broadcast */
} mask_how;

/* The facts of one matched forward and, when found, its backward. Values are indices of
 * the view; -1: absent. */
typedef struct match {
  int m2;              /* op: the matmul with v */
  int q, k, kt, v, pd; /* q, k, k^T (the first matmul's rhs), v, the second's lhs */
  int k4; /* k^T = reshape(transpose(k4)) of a [..., Sk, D] k4 (ViT's 4-d matmul): k is a new
           * reshape of k4 (k: -1), and dk is read back through the same views */
  int p;  /* the softmax (rt.div), stripped of reshapes */
  /* its exp, the broadcasts of its denominator and of the row maximum, the maximum's input */
  int e, denb, sc, mxb;
  int64_t n, sq, sk, d, dvs; /* shapes: [N, Sq, D], [N, Sk, D], [N, Sk, Dvs] */
  MlirType elem;
  int scale_id; /* RT_OP_MUL, RT_OP_DIV or RT_OP_NONE */
  double scale_c, scale;
  int sel;       /* the forward's select (-1: none) */
  int cond;      /* its condition */
  bool fill_lhs; /* select(cond, -inf, s): cond drops */
  const char *mask;
  mask_how how;
  int mask_v; /* MASK_USE, MASK_RESHAPE: the value; MASK_BCAST_2D: the broadcast's operand */
  int64_t mask_ab[2]; /* MASK_BCAST_2D: the operand's sizes at the last two axes */
  bool has_causal;
  int64_t causal;
  int z, seed, offset; /* dropout: the converted mask and the Philox operands; z -1: none */
  double keep;
  /* backward */
  bool bwd;
  int dO, dq, dk, dv, dqmm, dvmm, dpmm;
} match;

typedef struct att {
  RT_GRAPH_MEMBERS(g);
  MlirContext ctx;
  unsigned char *in; /* [nops] ops of the current match */
  char *why;         /* why the current candidate does not match (owned) */
} att;

static bool fail(att *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(att *a, const char *fmt, ...) {
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, ap); /* whole: locations and names of any length */
  va_end(ap);
  free(a->why);
  a->why = xmalloc((size_t)n + 1);
  vsnprintf(a->why, (size_t)n + 1, fmt, aq);
  va_end(aq);
  return false;
}

/* ---- reading the view --------------------------------------------------------------- */

static int def(const att *a, int v) { return v < 0 ? -1 : a->val_op[v]; }
static bool is_op(const att *a, int v, rt_op_id id) {
  int o = def(a, v);
  return o >= 0 && a->opid[o] == id;
}
static int opnd(const att *a, int op, int k) { return a->opnd[a->opnd_start[op] + k]; }
static int res(const att *a, int op) { return a->op_res[op]; }
static MlirType type_of(const att *a, int v) { return mlirValueGetType(a->vals[v]); }
static remat_shape shape(const att *a, int v) { return rt_shape_of(type_of(a, v)); }

/* Operand K of the op that defines V. */
static int arg(const att *a, int v, int k) { return opnd(a, def(a, v), k); }

/* The value of a scalar float arith.constant V. */
static bool const_float(const att *a, int v, double *out) {
  int o = def(a, v);
  if (o < 0 || !rt_op_named(a->ops[o], "arith.constant") || !mlirTypeIsAFloat(type_of(a, v)))
    return false;
  MlirAttribute at = mlirOperationGetAttributeByName(a->ops[o], rt_str("value"));
  if (!mlirAttributeIsAFloat(at))
    return false;
  *out = mlirFloatAttrGetValueDouble(at);
  return true;
}

/* The value of a scalar integer arith.constant V (i1 included). */
static bool const_int(const att *a, int v, int64_t *out) {
  int o = def(a, v);
  if (o < 0 || !rt_op_named(a->ops[o], "arith.constant") || !mlirTypeIsAInteger(type_of(a, v)))
    return false;
  MlirAttribute at = mlirOperationGetAttributeByName(a->ops[o], rt_str("value"));
  if (!mlirAttributeIsAInteger(at))
    return false;
  *out = mlirIntegerAttrGetValueInt(at);
  return true;
}

/* Same value, compared as doubles: constants written once per use. */
static bool const_is(const att *a, int v, double want) {
  double c;
  return const_float(a, v, &c) && c == want;
}

/* The op's dims attribute is exactly {D}. */
static bool dims_are_last(const att *a, int op, int *axis) {
  int64_t d[RT_MAX_RANK];
  int n = rt_get_i64_array(a->ops[op], "dims", d, RT_MAX_RANK);
  *axis = n == 1 ? (int)d[0] : -1;
  return n == 1;
}

static bool perm_is(const att *a, int op, const int64_t *want, int n) {
  int64_t p[RT_MAX_RANK];
  return rt_get_i64_array(a->ops[op], "perm", p, RT_MAX_RANK) == n &&
         !memcmp(p, want, sizeof *p * (size_t)n);
}

/* V is rt.transpose(X) {perm = [0, 2, 1]}: X, else -1. */
static int untranspose(const att *a, int v) {
  static const int64_t swap[3] = {0, 2, 1};
  if (!is_op(a, v, RT_OP_TRANSPOSE) || !perm_is(a, def(a, v), swap, 3))
    return -1;
  return arg(a, v, 0);
}

/* V is rt.reshape(rt.transpose(X)) to [N, a, b], the transpose swapping the last two dims of
 * X (rank >= 3, N elements before them): X, else -1. */
static int untranspose_rows(const att *a, int v, int64_t n) {
  if (!is_op(a, v, RT_OP_RESHAPE) || !is_op(a, arg(a, v, 0), RT_OP_TRANSPOSE))
    return -1;
  int t = arg(a, v, 0), x = arg(a, t, 0);
  remat_shape xs = shape(a, x), vs = shape(a, v);
  int64_t p[RT_MAX_RANK], lead = 1;
  int r = xs.rank;
  if (r < 3 || vs.rank != 3 || rt_get_i64_array(a->ops[def(a, t)], "perm", p, RT_MAX_RANK) != r)
    return -1;
  for (int i = 0; i < r - 2; i++) {
    if (p[i] != i)
      return -1;
    lead *= xs.d[i];
  }
  if (p[r - 2] != r - 1 || p[r - 1] != r - 2 || lead != n || vs.d[0] != n)
    return -1;
  return x;
}

/* V through the rt.reshape ops that keep its last two dims (the importer's [N, S, S] <->
 * [B, H, S, S] views, which keep the element order); TAKE: those reshapes join the match. */
static int strip(att *a, int v, bool take) {
  while (is_op(a, v, RT_OP_RESHAPE)) {
    remat_shape r = shape(a, v), s = shape(a, arg(a, v, 0));
    if (r.rank < 2 || s.rank < 2 || r.d[r.rank - 1] != s.d[s.rank - 1] ||
        r.d[r.rank - 2] != s.d[s.rank - 2])
      break;
    if (take)
      a->in[def(a, v)] = 1;
    v = arg(a, v, 0);
  }
  return v;
}

static bool same(att *a, int x, int y) { return strip(a, x, false) == strip(a, y, false); }

/* The other operand of binary op OP than the one equal (through views) to X; -1 if none. */
static int other(att *a, int op, int x) {
  if (same(a, opnd(a, op, 0), x))
    return opnd(a, op, 1);
  if (same(a, opnd(a, op, 1), x))
    return opnd(a, op, 0);
  return -1;
}

/* The number of elements of V and its last two dims are the [N, Sq, Sk] of M. */
static bool is_scores(const att *a, int v, const match *m) {
  remat_shape s = shape(a, v);
  int64_t n = 1;
  for (int i = 0; i < s.rank - 2; i++)
    n *= s.d[i];
  return s.rank >= 2 && n == m->n && s.d[s.rank - 2] == m->sq && s.d[s.rank - 1] == m->sk &&
         mlirTypeEqual(rt_element_type(type_of(a, v)), m->elem);
}

/* V is the row statistic ID (rt.sum, rt.amax) of X over its last axis, broadcast back to
 * X's shape: broadcast(reshape(red(X))) as the importer writes it, or broadcast(red(X)).
 * Its ops join the match. */
static bool row_stat(att *a, int v, int x, rt_op_id id, const char *what) {
  if (!is_op(a, v, RT_OP_BROADCAST))
    return fail(a, "the softmax's %s is not broadcast from a reduction", what);
  remat_shape xs = shape(a, x);
  int r = xs.rank, bop = def(a, v), b = arg(a, v, 0);
  int64_t dims[RT_MAX_RANK];
  int nd = rt_get_i64_array(a->ops[bop], "dims", dims, RT_MAX_RANK);
  int red = b;
  bool kept = false; /* the reduced axis kept as 1 by a reshape */
  if (is_op(a, b, RT_OP_RESHAPE)) {
    remat_shape bs = shape(a, b);
    kept = bs.rank == r && bs.d[r - 1] == 1;
    red = arg(a, b, 0);
  }
  if (!is_op(a, red, id))
    return fail(a, "the softmax's %s is not an %s", what, rt_op_name(id));
  int axis;
  if (!dims_are_last(a, def(a, red), &axis) || axis != r - 1)
    return fail(a, "softmax over axis %d, not the last (%d)", axis, r - 1);
  if (!same(a, opnd(a, def(a, red), 0), x))
    return fail(a, "the softmax's %s reduces another tensor", what);
  remat_shape bs = shape(a, b);
  bool ok = nd == (kept ? r : r - 1) && mlirTypeEqual(type_of(a, v), type_of(a, x));
  for (int i = 0; ok && i < nd; i++)
    ok = dims[i] == i && (i == r - 1 || bs.d[i] == xs.d[i]);
  if (!ok)
    return fail(a, "the softmax's %s is not broadcast along the last axis", what);
  a->in[bop] = a->in[def(a, red)] = 1;
  if (red != b)
    a->in[def(a, b)] = 1;
  return true;
}

/* ---- the causal predicate ------------------------------------------------------------ */

/* V as alpha*i + beta*j + c over the [Sq, Sk] grid (i: rt.iota dim 0, j: dim 1, integer
 * constants, rt.add/rt.sub of those, at most DEPTH deep; false on overflow). */
static bool linear(att *a, int v, const match *m, int depth, int64_t *al, int64_t *be, int64_t *c) {
  int64_t k;
  /* small constants and wide integers only: then no value of the graph's arithmetic wraps */
  if (const_int(a, v, &k)) {
    if (k < -(m->sq + m->sk) || k > m->sq + m->sk)
      return false;
    *al = *be = 0;
    *c = k;
    return true;
  }
  remat_shape s = shape(a, v);
  MlirType e = rt_element_type(type_of(a, v));
  if (s.rank != 2 || s.d[0] != m->sq || s.d[1] != m->sk || !mlirTypeIsAInteger(e) ||
      mlirIntegerTypeGetWidth(e) < 32)
    return false;
  int o = def(a, v);
  if (o < 0)
    return false;
  if (a->opid[o] == RT_OP_IOTA) {
    int64_t dim;
    if (!rt_get_i64(a->ops[o], "dim", &dim) || (dim != 0 && dim != 1))
      return false;
    *al = dim == 0, *be = dim == 1, *c = 0;
    return true;
  }
  if ((a->opid[o] != RT_OP_ADD && a->opid[o] != RT_OP_SUB) || depth == 0)
    return false;
  int64_t a0, b0, c0, a1, b1, c1;
  if (!linear(a, opnd(a, o, 0), m, depth - 1, &a0, &b0, &c0) ||
      !linear(a, opnd(a, o, 1), m, depth - 1, &a1, &b1, &c1))
    return false;
  if (a->opid[o] == RT_OP_SUB)
    return !__builtin_sub_overflow(a0, a1, al) && !__builtin_sub_overflow(b0, b1, be) &&
           !__builtin_sub_overflow(c0, c1, c);
  return !__builtin_add_overflow(a0, a1, al) && !__builtin_add_overflow(b0, b1, be) &&
         !__builtin_add_overflow(c0, c1, c);
}

/* V (i1 [Sq, Sk]) is a compare of iota arithmetic that holds exactly where j - i <= d
 * (*upper) or j - i >= d (!*upper). */
static bool band(att *a, int v, const match *m, bool *upper, int64_t *d) {
  int o = def(a, v);
  if (o < 0)
    return false;
  rt_op_id id = (rt_op_id)a->opid[o];
  if (id != RT_OP_LE && id != RT_OP_LT && id != RT_OP_GE && id != RT_OP_GT)
    return false;
  int64_t a0, b0, c0, a1, b1, c1;
  if (!linear(a, opnd(a, o, 0), m, 8, &a0, &b0, &c0) ||
      !linear(a, opnd(a, o, 1), m, 8, &a1, &b1, &c1))
    return false;
  /* lhs - rhs = s (j - i) + c compared with 0; the offsets that matter are within the grid */
  int64_t al, be, c;
  if (__builtin_sub_overflow(a0, a1, &al) || __builtin_sub_overflow(b0, b1, &be) ||
      __builtin_sub_overflow(c0, c1, &c) || be != -al || (be != 1 && be != -1) ||
      c < -(m->sq + m->sk) || c > m->sq + m->sk)
    return false;
  bool le = id == RT_OP_LE || id == RT_OP_LT, strict = id == RT_OP_LT || id == RT_OP_GT;
  if (be == 1) { /* t + c (<|<=|>=|>) 0 */
    *upper = le;
    *d = le ? -c - strict : -c + strict;
  } else { /* -t + c: t (>|>=|<=|<) c */
    *upper = !le;
    *d = le ? c + strict : c - strict;
  }
  return true;
}

/* ---- the forward --------------------------------------------------------------------- */

/* The mask that select condition or additive operand V (the scores' full shape) reads:
 * fills M's mask fields. DROP: the select's condition is true where a score is dropped. */
static bool classify_mask(att *a, int v, bool drop, bool add, match *m) {
  remat_shape s = shape(a, v);
  int r = s.rank, src = v;
  m->how = r == 3 ? MASK_USE : MASK_RESHAPE;
  if (is_op(a, v, RT_OP_BROADCAST)) {
    int b = arg(a, v, 0);
    remat_shape bs = shape(a, b);
    int64_t dims[RT_MAX_RANK];
    int nd = rt_get_i64_array(a->ops[def(a, v)], "dims", dims, RT_MAX_RANK);
    bool indep = nd == bs.rank;
    for (int i = 0; indep && i < nd; i++)
      indep = (i == 0 || dims[i] > dims[i - 1]) && (dims[i] >= r - 2 || bs.d[i] == 1);
    if (indep) {
      src = b;
      m->mask_ab[0] = m->mask_ab[1] = 1;
      for (int i = 0; i < nd; i++)
        if (dims[i] >= r - 2)
          m->mask_ab[dims[i] - (r - 2)] = bs.d[i];
      m->how = MASK_BCAST_2D;
      if (bs.rank == 2 && dims[0] == r - 2 && dims[1] == r - 1 && bs.d[0] == m->sq &&
          bs.d[1] == m->sk)
        m->how = MASK_USE;
    }
  }
  if (!add && m->how == MASK_USE) {
    int64_t f;
    /* rt.eq(x, false) is logical not (torch's bitwise_not of a bool) */
    while (is_op(a, src, RT_OP_EQ) && const_int(a, opnd(a, def(a, src), 1), &f) && f == 0 &&
           mlirTypeEqual(type_of(a, src), type_of(a, arg(a, src, 0)))) {
      drop = !drop;
      src = arg(a, src, 0);
    }
    bool upper;
    int64_t d;
    if (band(a, src, m, &upper, &d)) {
      if (upper == drop)
        return fail(a,
                    "the mask computed from rt.iota keeps j - i >= %lld, not a lower "
                    "triangle (causal)",
                    (long long)(drop ? d + 1 : d));
      m->has_causal = true;
      m->causal = drop ? d - 1 : d;
      m->how = MASK_NONE;
      return true;
    }
  }
  m->mask = add ? "add" : drop ? "drop" : "keep";
  m->mask_v = src;
  return true;
}

/* The scores before the mask: [scale] of q k^T. Fills q, k, kt, scale. */
static bool match_scores(att *a, int x, match *m) {
  int y = strip(a, x, true);
  m->scale_id = RT_OP_NONE;
  m->scale = 1.0;
  int o = def(a, y);
  if (o >= 0 && (a->opid[o] == RT_OP_MUL || a->opid[o] == RT_OP_DIV)) {
    int c = opnd(a, o, 1), b = opnd(a, o, 0);
    if (a->opid[o] == RT_OP_MUL && !const_float(a, c, &m->scale_c)) {
      c = opnd(a, o, 0), b = opnd(a, o, 1);
    }
    if (!const_float(a, c, &m->scale_c))
      return fail(a, "the scores are scaled by %s, not by a scalar constant",
                  rt_op_name((rt_op_id)a->opid[o]));
    m->scale_id = a->opid[o];
    m->scale = a->opid[o] == RT_OP_MUL ? m->scale_c : 1.0 / m->scale_c;
    a->in[o] = 1;
    y = strip(a, b, true);
  }
  if (!is_op(a, y, RT_OP_MATMUL))
    return fail(a, "the softmax's input is not q k^T (an rt.matmul), optionally scaled and "
                   "masked");
  int m1 = def(a, y);
  m->q = opnd(a, m1, 0);
  m->kt = opnd(a, m1, 1);
  m->k = untranspose(a, m->kt);
  m->k4 = m->k < 0 ? untranspose_rows(a, m->kt, m->n) : -1;
  remat_shape qs = shape(a, m->q), ys = shape(a, y);
  if (qs.rank != 3 || ys.rank != 3)
    return fail(a, "q k^T is not a batched matmul of rank 3");
  if (m->k < 0 && m->k4 < 0)
    return fail(a, "k^T is not an rt.transpose {perm = [0, 2, 1]} of k, nor a reshape of a "
                   "transpose of the last two dims");
  remat_shape ks = shape(a, m->k >= 0 ? m->k : m->k4);
  if (m->k4 >= 0) { /* [..., Sk, D] as [N, Sk, D] */
    ks.d[0] = m->n, ks.d[1] = ks.d[ks.rank - 2], ks.d[2] = ks.d[ks.rank - 1];
    ks.rank = 3;
  }
  if (qs.d[0] != m->n || qs.d[1] != m->sq || ks.d[0] != m->n || ks.d[1] != m->sk ||
      ks.d[2] != qs.d[2])
    return fail(a, "q and k do not have the shapes [N, Sq, D], [N, Sk, D] of the scores");
  m->d = qs.d[2];
  a->in[m1] = 1;
  return true;
}

/* Philox dropout: X = rt.div(rt.mul(P, rt.convert(rt.lt(uniform, keep))), keep). Returns
 * P, or -1 with M->z = -1 when X is not dropout; -2 when it is dropout of another form. */
static int match_dropout(att *a, int x, match *m) {
  m->z = -1;
  double keep, keep2;
  if (!is_op(a, x, RT_OP_DIV) || !const_float(a, opnd(a, def(a, x), 1), &keep))
    return -1;
  int mul = arg(a, x, 0);
  if (!is_op(a, mul, RT_OP_MUL))
    return -1;
  int z = opnd(a, def(a, mul), 1), p = opnd(a, def(a, mul), 0);
  if (!is_op(a, z, RT_OP_CONVERT))
    z = opnd(a, def(a, mul), 0), p = opnd(a, def(a, mul), 1);
  if (!is_op(a, z, RT_OP_CONVERT) || !is_op(a, arg(a, z, 0), RT_OP_LT))
    return -1;
  int lt = arg(a, z, 0), u = arg(a, lt, 0);
  if (!is_op(a, u, RT_OP_UNIFORM_PHILOX))
    return -1;
  double lo, hi;
  int uo = def(a, u);
  if (!const_float(a, arg(a, lt, 1), &keep2) || keep2 != keep)
    return fail(a, "dropout compares with %g but divides by %g", keep2, keep), -2;
  if (!rt_get_f64(a->ops[uo], "lo", &lo) || !rt_get_f64(a->ops[uo], "hi", &hi) || lo != 0 ||
      hi != 1)
    return fail(a, "dropout's rt.uniform_philox is not over [0, 1)"), -2;
  if (!is_scores(a, u, m) || !is_scores(a, z, m))
    return fail(a, "dropout's uniforms are not of the scores' shape and element type"), -2;
  if (!(keep > 0 && keep <= 1))
    return fail(a, "dropout keeps %g, not in (0, 1]", keep), -2;
  m->z = z;
  m->keep = keep;
  m->seed = opnd(a, uo, 0);
  m->offset = opnd(a, uo, 1);
  a->in[def(a, x)] = a->in[def(a, mul)] = 1;
  return p;
}

/* Whether V is, within DEPTH products, quotients or reshapes, a softmax (rt.div of rt.exp). */
static bool reaches_softmax(const att *a, int v, int depth) {
  int o = def(a, v);
  if (o < 0 || depth < 0)
    return false;
  if (a->opid[o] == RT_OP_DIV && is_op(a, opnd(a, o, 0), RT_OP_EXP))
    return true;
  /* products and quotients (dropout's forms) and reshapes only: not the transpose of P^T dO
   * (the backward's dv) nor the subtraction of dS = P (dP - sum) (its dq) */
  if (a->opid[o] != RT_OP_MUL && a->opid[o] != RT_OP_DIV && a->opid[o] != RT_OP_RESHAPE &&
      a->opid[o] != RT_OP_CONVERT)
    return false;
  FOR_OPERANDS(a, o, x) {
    if (reaches_softmax(a, x, depth - 1))
      return true;
  }
  return false;
}

/* Whether the rt.matmul M2 multiplies a softmax: -1 no (not a candidate, not reported),
 * 0 yes but the pattern does not match (a->why), 1 matched (M filled, a->in marked). */
static int match_forward(att *a, int m2, match *m) {
  memset(m, 0, sizeof *m);
  memset(a->in, 0, (size_t)a->nops);
  free(a->why);
  a->why = NULL;
  m->m2 = m2;
  m->pd = opnd(a, m2, 0);
  m->v = opnd(a, m2, 1);
  m->sel = m->cond = m->mask_v = -1;
  remat_shape ps = shape(a, m->pd), vs = shape(a, m->v);
  if (ps.rank < 2)
    return -1;
  m->sq = ps.d[ps.rank - 2], m->sk = ps.d[ps.rank - 1];
  m->n = ps.rank == 3 ? ps.d[0] : 1;
  for (int i = 0; ps.rank != 3 && i < ps.rank - 2; i++)
    m->n *= ps.d[i];
  m->elem = rt_element_type(type_of(a, m->pd));
  int x = strip(a, m->pd, true);
  int p = match_dropout(a, x, m);
  if (p == -2)
    return 0;
  x = strip(a, p >= 0 ? p : x, true);
  if (!is_op(a, x, RT_OP_DIV) || !is_op(a, arg(a, x, 0), RT_OP_EXP)) {
    if (!reaches_softmax(a, m->pd, 4))
      return -1;
    return fail(a, "the softmax reaches the matmul through ops other than the importer's "
                   "views and dropout (rt.div(rt.mul(p, rt.convert(rt.lt(u, keep))), keep))");
  }
  /* a candidate: from here on every mismatch is reported */
  if (ps.rank != 3)
    return fail(a, "a matmul of rank %d: rt.attention takes [N, S, D] operands", ps.rank);
  if (!mlirTypeIsAF32(m->elem) && !mlirTypeIsAF64(m->elem))
    return fail(a, "element type is not f32 or f64");
  if (vs.rank != 3 || vs.d[0] != m->n || vs.d[1] != m->sk)
    return fail(a, "v is not [N, Sk, Dv] of the probabilities [N, Sq, Sk]");
  m->dvs = vs.d[2];
  m->p = x;
  a->in[m2] = 1;
  int e = arg(a, x, 0);
  a->in[def(a, x)] = a->in[def(a, e)] = 1;
  if (!is_scores(a, x, m))
    return fail(a, "the softmax is not of the matmul's shape and element type");
  if (!row_stat(a, arg(a, x, 1), e, RT_OP_SUM, "denominator"))
    return 0;
  int sh = arg(a, e, 0);
  if (!is_op(a, sh, RT_OP_SUB))
    return fail(a, "the softmax's exponent is not an rt.sub of the row maximum");
  a->in[def(a, sh)] = 1;
  int sc = arg(a, sh, 0);
  m->e = e, m->denb = arg(a, x, 1), m->sc = sc, m->mxb = arg(a, sh, 1);
  if (!row_stat(a, arg(a, sh, 1), sc, RT_OP_AMAX, "maximum"))
    return 0;
  sc = strip(a, sc, true);
  int so = def(a, sc);
  if (so >= 0 && a->opid[so] == RT_OP_SELECT) {
    double f;
    bool lhs = const_float(a, opnd(a, so, 1), &f) && f == -INFINITY;
    bool rhs = !lhs && const_float(a, opnd(a, so, 2), &f) && f == -INFINITY;
    if (!lhs && !rhs)
      return fail(a, "the mask's rt.select does not fill with a scalar -inf");
    m->sel = so;
    m->cond = opnd(a, so, 0);
    m->fill_lhs = lhs;
    a->in[so] = 1;
    MlirType ct = type_of(a, m->cond);
    remat_shape cs = rt_shape_of(ct), ss = shape(a, sc);
    if (!mlirTypeIsATensor(ct) || !mlirTypeIsAInteger(rt_element_type(ct)) ||
        mlirIntegerTypeGetWidth(rt_element_type(ct)) != 1 || cs.rank != ss.rank ||
        memcmp(cs.d, ss.d, sizeof *cs.d * (size_t)cs.rank) || !is_scores(a, sc, m))
      return fail(a, "the mask's condition is not an i1 tensor of the scores' shape");
    if (!classify_mask(a, m->cond, lhs, false, m))
      return 0;
    sc = opnd(a, so, lhs ? 2 : 1);
  } else if (so >= 0 && a->opid[so] == RT_OP_ADD) {
    /* an additive mask: the side that is not q k^T */
    int s0 = opnd(a, so, 0), s1 = opnd(a, so, 1);
    int mk = is_op(a, strip(a, s0, false), RT_OP_MATMUL) ||
                     is_op(a, strip(a, s0, false), RT_OP_MUL) ||
                     is_op(a, strip(a, s0, false), RT_OP_DIV)
                 ? s1
                 : s0;
    sc = mk == s1 ? s0 : s1;
    if (!mlirTypeIsATensor(type_of(a, mk)) || !mlirTypeEqual(type_of(a, mk), type_of(a, sc)))
      return fail(a, "the additive mask is not a tensor of the scores' type");
    a->in[so] = 1;
    if (!classify_mask(a, mk, false, true, m))
      return 0;
  }
  if (!match_scores(a, sc, m))
    return 0;
  return 1;
}

/* ---- the backward -------------------------------------------------------------------- */

/* The unique user of V that is op ID and satisfies OK; -1 none, -2 several. */
typedef bool (*user_ok)(att *a, int op, int v, const match *m);
static int find_user(att *a, int v, rt_op_id id, user_ok ok, const match *m) {
  int found = -1;
  for (int k = a->use_start[v]; k < a->use_start[v + 1]; k++) {
    int u = a->use[k];
    if (u < 0 || u >= a->nops || a->opid[u] != id || !ok(a, u, v, m) || u == found)
      continue;
    if (found >= 0)
      return -2;
    found = u;
  }
  return found;
}

static bool is_swap(att *a, int op, int v, const match *m) {
  (void)m;
  return untranspose(a, res(a, op)) == v;
}
/* dq = dS (k^T)^T */
static bool is_dq(att *a, int op, int v, const match *m) {
  (void)m;
  return opnd(a, op, 1) == v;
}
/* dk^T = q^T dS */
static bool is_dkt(att *a, int op, int v, const match *m) {
  return opnd(a, op, 1) == v && untranspose(a, opnd(a, op, 0)) == m->q;
}
/* dv = Pd^T dO */
static bool is_dv(att *a, int op, int v, const match *m) {
  return opnd(a, op, 1) == v && untranspose(a, opnd(a, op, 0)) == m->pd;
}

/* The binary op ID of X and the scalar constant C (either order for rt.mul): the other
 * operand, or -1. */
static int by_const(att *a, int x, rt_op_id id, double c) {
  if (!is_op(a, x, id))
    return -1;
  int o = def(a, x);
  if (const_is(a, opnd(a, o, 1), c))
    return opnd(a, o, 0);
  if (id == RT_OP_MUL && const_is(a, opnd(a, o, 0), c))
    return opnd(a, o, 1);
  return -1;
}

/* The operand of binary op OP that op W defines, the other in *REST; else -1. */
static int operand_by(att *a, int op, rt_op_id w, int *rest) {
  for (int i = 0; i < 2; i++)
    if (is_op(a, opnd(a, op, i), w)) {
      *rest = opnd(a, op, 1 - i);
      return opnd(a, op, i);
    }
  return -1;
}

/* The softmax's backward from dS = X, checked against M's forward: dP (unstripped), or -1
 * (a->why). The importer's (torch's _softmax_backward_data): t - P sum(t), t = dP P.
 * --remat-autodiff's, through the division, the exponential and the row maximum:
 * A - bc(sum(A) / sum(ind)) ind, ind = convert(eq(s, bc(amax(s)))), A = dE E,
 * dE = dP / den - bc(sum(dP (P / den))). */
static int softmax_backward(att *a, match *m, int x) {
  if (!is_op(a, x, RT_OP_SUB))
    return fail(a, "the softmax's backward is not t - P sum(t), t = dP P"), -1;
  int so = def(a, x), t = opnd(a, so, 0), u = opnd(a, so, 1), ind, bc;
  if (!is_op(a, t, RT_OP_MUL) || !is_op(a, u, RT_OP_MUL))
    return fail(a, "the softmax's backward is not t - P sum(t), t = dP P"), -1;
  a->in[so] = a->in[def(a, t)] = a->in[def(a, u)] = 1;
  if ((ind = operand_by(a, def(a, u), RT_OP_CONVERT, &bc)) < 0) {
    int dx = other(a, def(a, t), m->p), sb = other(a, def(a, u), m->p);
    if (dx < 0 || sb < 0)
      return fail(a, "the softmax's backward reads another P than the forward's"), -1;
    return row_stat(a, sb, t, RT_OP_SUM, "backward's row sum") ? dx : -1;
  }
  /* autodiff's: the row maximum's share, at its ties */
  int eq = arg(a, ind, 0), r = shape(a, x).rank, axis;
  if (!is_op(a, eq, RT_OP_EQ) || other(a, def(a, eq), m->sc) != m->mxb ||
      !is_op(a, bc, RT_OP_BROADCAST) || !is_op(a, arg(a, bc, 0), RT_OP_DIV))
    return fail(a, "the softmax's backward is neither torch's nor autodiff's"), -1;
  int q = def(a, arg(a, bc, 0)), s1 = opnd(a, q, 0), s2 = opnd(a, q, 1);
  int64_t dims[RT_MAX_RANK];
  int nd = rt_get_i64_array(a->ops[def(a, bc)], "dims", dims, RT_MAX_RANK);
  bool ok = nd == r - 1 && is_op(a, s1, RT_OP_SUM) && is_op(a, s2, RT_OP_SUM) &&
            arg(a, s1, 0) == t && arg(a, s2, 0) == ind && dims_are_last(a, def(a, s1), &axis) &&
            axis == r - 1 && dims_are_last(a, def(a, s2), &axis) && axis == r - 1;
  for (int i = 0; ok && i < nd; i++)
    ok = dims[i] == i;
  if (!ok)
    return fail(a, "the row maximum's backward is not sum / count at its ties"), -1;
  a->in[def(a, ind)] = a->in[def(a, eq)] = a->in[def(a, bc)] = a->in[q] = 1;
  a->in[def(a, s1)] = a->in[def(a, s2)] = 1;
  /* A = dE E */
  int de = other(a, def(a, t), m->e);
  if (de < 0 || !is_op(a, de, RT_OP_SUB))
    return fail(a, "the exponential's backward is not dE E"), -1;
  int dso = def(a, de), dd = opnd(a, dso, 0), sb = opnd(a, dso, 1);
  if (!is_op(a, dd, RT_OP_DIV) || opnd(a, def(a, dd), 1) != m->denb ||
      !is_op(a, sb, RT_OP_BROADCAST))
    return fail(a, "the division's backward is not dP / den - sum(dP P / den)"), -1;
  int dp = opnd(a, def(a, dd), 0);
  a->in[dso] = a->in[def(a, dd)] = 1;
  /* bc(sum(dP (P / den))) */
  int red = arg(a, sb, 0);
  int prod = is_op(a, red, RT_OP_SUM) ? arg(a, red, 0) : -1, pd = -1;
  if (prod < 0 || !is_op(a, prod, RT_OP_MUL) || (pd = other(a, def(a, prod), dp)) < 0 ||
      !is_op(a, pd, RT_OP_DIV) || arg(a, pd, 0) != m->p || arg(a, pd, 1) != m->denb)
    return fail(a, "the division's backward is not dP / den - sum(dP P / den)"), -1;
  if (!row_stat(a, sb, prod, RT_OP_SUM, "backward's row sum"))
    return -1;
  a->in[def(a, prod)] = a->in[def(a, pd)] = 1;
  return dp;
}

/* With k4: dk4 = transpose(reshape(dk^T)) back to k4's shape, each the one use of the
 * last: the transpose's op (the reshape joins the match), else -1. */
static int dk_rows(att *a, int dkt, const match *m) {
  int u = a->use[a->use_start[dkt]];
  if (u < 0 || u >= a->nops || a->opid[u] != RT_OP_RESHAPE ||
      a->use_start[res(a, u) + 1] - a->use_start[res(a, u)] != 1)
    return -1;
  int t = a->use[a->use_start[res(a, u)]];
  if (t < 0 || t >= a->nops || a->opid[t] != RT_OP_TRANSPOSE ||
      !mlirTypeEqual(type_of(a, res(a, t)), type_of(a, m->k4)))
    return -1;
  int64_t p[RT_MAX_RANK];
  int r = shape(a, m->k4).rank;
  if (rt_get_i64_array(a->ops[t], "perm", p, RT_MAX_RANK) != r)
    return -1;
  for (int i = 0; i < r; i++)
    if (p[i] != (i < r - 2 ? i : i == r - 2 ? r - 1 : r - 2))
      return -1;
  a->in[u] = 1;
  return t;
}

static bool match_backward(att *a, match *m) {
  m->bwd = false;
  /* dq = matmul(dS, transpose(k^T)): the backward's one use of k^T's transpose */
  int tk = find_user(a, m->kt, RT_OP_TRANSPOSE, is_swap, m);
  if (tk == -2)
    return fail(a, "k^T is transposed twice");
  int dqmm = tk >= 0 ? find_user(a, res(a, tk), RT_OP_MATMUL, is_dq, m) : -1;
  if (dqmm == -1 && m->k >= 0) /* autodiff's dq = dS k */
    dqmm = find_user(a, m->k, RT_OP_MATMUL, is_dq, m);
  if (dqmm == -1)
    return true; /* no backward: a forward-only function */
  if (dqmm == -2)
    return fail(a, "k is multiplied by several gradients");
  int db3 = opnd(a, dqmm, 0);
  int dktmm = find_user(a, db3, RT_OP_MATMUL, is_dkt, m);
  if (dktmm < 0)
    return fail(a, "no dk^T = q^T dS matmul of the backward's dS");
  int dkt = res(a, dktmm);
  if (a->use_start[dkt + 1] - a->use_start[dkt] != 1)
    return fail(a, "dk^T has a use other than its transpose dk");
  int tdk = m->k4 < 0 ? find_user(a, dkt, RT_OP_TRANSPOSE, is_swap, m) : dk_rows(a, dkt, m);
  if (tdk < 0)
    return fail(a, "dk^T is not transposed back to k's shape");
  a->in[dqmm] = a->in[dktmm] = a->in[tdk] = 1;
  m->dqmm = dqmm;
  m->dq = res(a, dqmm);
  m->dk = res(a, tdk);
  int x = strip(a, db3, true);
  if (m->scale_id != RT_OP_NONE) {
    int y = by_const(a, x, (rt_op_id)m->scale_id, m->scale_c);
    if (y < 0)
      return fail(a, "the backward's dS is not scaled as the forward's scores (%s %g)",
                  rt_op_name((rt_op_id)m->scale_id), m->scale_c);
    a->in[def(a, x)] = 1;
    x = strip(a, y, true);
  }
  if (m->sel >= 0) {
    int so = def(a, x);
    if (so < 0 || a->opid[so] != RT_OP_SELECT || opnd(a, so, 0) != m->cond ||
        !const_is(a, opnd(a, so, m->fill_lhs ? 1 : 2), 0.0))
      return fail(a, "the backward does not select 0 where the forward's mask is -inf");
    a->in[so] = 1;
    x = strip(a, opnd(a, so, m->fill_lhs ? 2 : 1), true);
  }
  int dx = softmax_backward(a, m, x);
  if (dx < 0)
    return false;
  dx = strip(a, dx, true);
  if (m->z >= 0) { /* dP = dPd / keep * z, or dPd * z / keep */
    int w = is_op(a, dx, RT_OP_MUL) ? other(a, def(a, dx), m->z) : -1, y = -1;
    if (w >= 0 && (y = by_const(a, w, RT_OP_DIV, m->keep)) >= 0) {
      a->in[def(a, dx)] = a->in[def(a, w)] = 1;
    } else if ((w = by_const(a, dx, RT_OP_DIV, m->keep)) >= 0 && is_op(a, w, RT_OP_MUL) &&
               (y = other(a, def(a, w), m->z)) >= 0) {
      a->in[def(a, dx)] = a->in[def(a, w)] = 1;
    } else {
      return fail(a, "the backward does not apply the forward's dropout mask and 1/%g", m->keep);
    }
    dx = strip(a, y, true);
  }
  if (!is_op(a, dx, RT_OP_MATMUL) || untranspose(a, arg(a, dx, 1)) != m->v)
    return fail(a, "dP is not dO v^T");
  m->dpmm = def(a, dx);
  m->dO = opnd(a, m->dpmm, 0);
  a->in[m->dpmm] = 1;
  m->dvmm = find_user(a, m->dO, RT_OP_MATMUL, is_dv, m);
  if (m->dvmm < 0)
    return fail(a, "no dv = P^T dO matmul of the backward's dO");
  int tp = def(a, opnd(a, m->dvmm, 0));
  a->in[m->dvmm] = a->in[tp] = 1;
  m->dv = res(a, m->dvmm);
  remat_shape os = shape(a, m->dO);
  if (os.rank != 3 || os.d[0] != m->n || os.d[1] != m->sq || os.d[2] != m->dvs)
    return fail(a, "dO is not [N, Sq, Dv]");
  int first = m->dvmm < m->dpmm ? m->dvmm : m->dpmm;
  if (first < m->m2)
    return fail(a, "the backward's first matmul comes before the forward's output");
  m->bwd = true;
  return true;
}

/* Every op of the match has no user outside it, but the values it replaces; the values
 * the new ops read are not the match's. */
static bool exclusive(att *a, const match *m) {
  int read[] = {m->q,
                m->k >= 0 ? m->k : m->k4,
                m->v,
                m->how != MASK_NONE ? m->mask_v : -1,
                m->z >= 0 ? m->seed : -1,
                m->z >= 0 ? m->offset : -1,
                m->bwd ? m->dO : -1};
  for (size_t i = 0; i < sizeof read / sizeof *read; i++)
    if (def(a, read[i]) >= 0 && a->in[def(a, read[i])])
      return fail(a, "an operand of the fused op is computed by the pattern itself");
  for (int o = 0; o < a->nops; o++) {
    if (!a->in[o])
      continue;
    FOR_RESULTS(a, o, r) {
      if (r == res(a, m->m2) || (m->bwd && (r == m->dq || r == m->dk || r == m->dv)))
        continue;
      for (int k = a->use_start[r]; k < a->use_start[r + 1]; k++) {
        int u = a->use[k];
        if (u >= 0 && u < a->nops && a->in[u])
          continue;
        char l1[4096], l2[4200];
        remat_report_loc(mlirOperationGetLocation(a->ops[o]), l1, sizeof l1);
        if (u < 0 || u >= a->nops)
          snprintf(l2, sizeof l2, "func.return");
        else {
          char l3[4096];
          snprintf(l2, sizeof l2, "%s at %s", rt_op_name((rt_op_id)a->opid[u]),
                   remat_report_loc(mlirOperationGetLocation(a->ops[u]), l3, sizeof l3));
        }
        return fail(a, "%s at %s has a user outside the pattern (%s)%s",
                    a->opid[o] ? rt_op_name((rt_op_id)a->opid[o]) : "an op", l1, l2,
                    m->bwd ? "" : ": the backward, if any, was not recognised");
      }
    }
  }
  return true;
}

/* ---- the rewrite ------------------------------------------------------------------- */

static MlirType tensor(MlirType elem, int rank, const int64_t *d) {
  return mlirRankedTensorTypeGet(rank, d, elem, mlirAttributeGetNull());
}

static MlirOperation build(MlirOperation before, const char *name, MlirLocation loc, int nin,
                           const MlirValue *in, int nout, const MlirType *out, int nattr,
                           const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(rt_str(name), loc);
  mlirOperationStateAddOperands(&st, nin, in);
  mlirOperationStateAddResults(&st, nout, out);
  mlirOperationStateAddAttributes(&st, nattr, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op);
  return op;
}

/* The mask operand of the new ops, built before op BEFORE when it is a new view. */
static MlirValue mask_operand(att *a, const match *m, MlirOperation before, MlirLocation loc) {
  MlirValue v = a->vals[m->mask_v];
  MlirType vt = mlirValueGetType(v), e = rt_element_type(vt);
  if (m->how == MASK_USE)
    return v;
  if (m->how == MASK_RESHAPE) {
    MlirType t = tensor(e, 3, (int64_t[]){m->n, m->sq, m->sk});
    return mlirOperationGetResult(build(before, "rt.reshape", loc, 1, &v, 1, &t, 0, NULL), 0);
  }
  /* MASK_BCAST_2D: the operand, of size 1 but at the last two axes, as [a, b], broadcast */
  remat_shape s = rt_shape_of(vt);
  if (s.rank != 2 || s.d[0] != m->mask_ab[0] || s.d[1] != m->mask_ab[1]) {
    MlirType t = tensor(e, 2, m->mask_ab);
    v = mlirOperationGetResult(build(before, "rt.reshape", loc, 1, &v, 1, &t, 0, NULL), 0);
  }
  if (m->mask_ab[0] != m->sq || m->mask_ab[1] != m->sk) {
    MlirType t = tensor(e, 2, (int64_t[]){m->sq, m->sk});
    MlirNamedAttribute d =
        rt_named_attr(a->ctx, "dims", mlirDenseI64ArrayGet(a->ctx, 2, (int64_t[]){0, 1}));
    v = mlirOperationGetResult(build(before, "rt.broadcast", loc, 1, &v, 1, &t, 1, &d), 0);
  }
  return v;
}

static int attrs_of(att *a, const match *m, MlirNamedAttribute *at) {
  MlirType f64 = mlirF64TypeGet(a->ctx);
  int n = 0;
  at[n++] = rt_named_attr(a->ctx, "scale", mlirFloatAttrDoubleGet(a->ctx, f64, m->scale));
  if (m->has_causal)
    at[n++] = rt_named_attr(a->ctx, "causal",
                            mlirIntegerAttrGet(mlirIntegerTypeGet(a->ctx, 64), m->causal));
  if (m->how != MASK_NONE)
    at[n++] = rt_named_attr(a->ctx, "mask", mlirStringAttrGet(a->ctx, rt_str(m->mask)));
  if (m->z >= 0)
    at[n++] = rt_named_attr(a->ctx, "keep", mlirFloatAttrDoubleGet(a->ctx, f64, m->keep));
  return n;
}

/* Ops that may be erased when dead: rt ops but collectives and rt.extern, arith ops. */
static bool pure(MlirOperation op) {
  rt_op_id id = rt_op_lookup(op);
  if (id == RT_OP_NONE) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    return n.length > 6 && !strncmp(n.data, "arith.", 6) && mlirOperationGetNumRegions(op) == 0;
  }
  rt_op_kind k = rt_op_kind_of(id);
  return k != RT_KIND_COLLECTIVE && k != RT_KIND_EXTERN;
}

static bool unused(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  return true;
}

/* Erases op O of the view and then the pure ops it read that are left dead (not those
 * of the match, which the caller erases in reverse order). Returns the number erased. */
static int erase(att *a, int o, unsigned char *gone) {
  if (!unused(a->ops[o]))
    remat_fatal("an op of the attention pattern still has users");
  int n = 0, top = 0, *stack = xmalloc(sizeof *stack * (size_t)(a->opnd_start[a->nops] + 1));
  stack[top++] = o;
  while (top) {
    int x = stack[--top];
    if (gone[x] || (x != o && (a->in[x] || !pure(a->ops[x]) || !unused(a->ops[x]))))
      continue;
    FOR_OPERANDS(a, x, v) {
      if (def(a, v) >= 0)
        stack[top++] = def(a, v);
    }
    mlirOperationDestroy(a->ops[x]);
    gone[x] = 1;
    n++;
  }
  free(stack);
  return n;
}

/* Rewrites the match; returns the number of ops erased. */
static int rewrite(att *a, const match *m) {
  MlirOperation m2 = a->ops[m->m2];
  MlirLocation loc = mlirOperationGetLocation(m2);
  MlirValue in[6];
  int nin = 3;
  in[0] = a->vals[m->q], in[1] = a->vals[m->k >= 0 ? m->k : m->k4], in[2] = a->vals[m->v];
  MlirType kt3 = tensor(m->elem, 3, (int64_t[]){m->n, m->sk, m->d});
  if (m->k4 >= 0)
    in[1] = mlirOperationGetResult(build(m2, "rt.reshape", loc, 1, &in[1], 1, &kt3, 0, NULL), 0);
  if (m->how != MASK_NONE)
    in[nin++] = mask_operand(a, m, m2, loc);
  if (m->z >= 0)
    in[nin++] = a->vals[m->seed], in[nin++] = a->vals[m->offset];
  MlirNamedAttribute at[4];
  int nat = attrs_of(a, m, at);
  MlirType out[2] = {tensor(m->elem, 3, (int64_t[]){m->n, m->sq, m->dvs}),
                     tensor(m->elem, 2, (int64_t[]){m->n, m->sq})};
  MlirOperation fw = build(m2, "rt.attention", loc, nin, in, 2, out, nat, at);
  mlirValueReplaceAllUsesOfWith(a->vals[res(a, m->m2)], mlirOperationGetResult(fw, 0));
  if (m->bwd) {
    MlirValue gin[9] = {
        in[0],         in[1], in[2], mlirOperationGetResult(fw, 0), mlirOperationGetResult(fw, 1),
        a->vals[m->dO]};
    for (int i = 3; i < nin; i++)
      gin[3 + i] = in[i];
    MlirType gt[3] = {type_of(a, m->q), kt3, type_of(a, m->v)};
    int first = m->dvmm < m->dpmm ? m->dvmm : m->dpmm;
    MlirOperation bw = build(a->ops[first], "rt.attention_grad",
                             mlirOperationGetLocation(a->ops[m->dqmm]), nin + 3, gin, 3, gt, nat,
                             at);
    MlirValue got[3] = {mlirOperationGetResult(bw, 0), mlirOperationGetResult(bw, 1),
                        mlirOperationGetResult(bw, 2)};
    if (m->k4 >= 0) {
      MlirType k4t = type_of(a, m->k4);
      got[1] = mlirOperationGetResult(
          build(a->ops[first], "rt.reshape", loc, 1, &got[1], 1, &k4t, 0, NULL), 0);
    }
    int rep[3] = {m->dq, m->dk, m->dv};
    for (int i = 0; i < 3; i++)
      mlirValueReplaceAllUsesOfWith(a->vals[rep[i]], got[i]);
  }
  unsigned char *gone = xcalloc((size_t)a->nops + 1, 1);
  int n = 0;
  for (int o = a->nops - 1; o >= 0; o--)
    if (a->in[o])
      n += erase(a, o, gone);
  free(gone);
  return n;
}

/* ---- the pass ----------------------------------------------------------------------- */

/* A function with a body, not a kernel. */
static bool rewritable(MlirOperation func) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)).ptr && !rt_func_is_kernel(func);
}

static void describe(FILE *rep, const match *m) {
  fprintf(rep, "scale = %.17g", m->scale);
  if (m->has_causal)
    fprintf(rep, ", causal = %lld", (long long)m->causal);
  if (m->how != MASK_NONE)
    fprintf(rep, ", mask = \"%s\"", m->mask);
  if (m->z >= 0)
    fprintf(rep, ", keep = %.17g", m->keep);
}

/* Rewrites the attentions of FUNC one at a time, reporting each to REP (may be NULL).
 * -1 when FUNC cannot be read (a diagnostic was emitted). */
static int run_func(MlirOperation func, FILE *rep) {
  att a = {0};
  a.ctx = mlirOperationGetContext(func);
  MlirStringRef name = rt_func_name(func);
  if (rep)
    fprintf(rep, "remat-attention: @%.*s\n", (int)name.length, name.data);
  int rewritten = 0;
  char **left = NULL;
  size_t nleft = 0, cap = 0;
  for (bool done = true; done;) {
    if (rt_graph_load(&a.g, func, RT_GRAPH_ANY_OPS | RT_GRAPH_USES, "--remat-attention",
                      "function")) {
      for (size_t i = 0; i < nleft; i++)
        free(left[i]);
      free(left);
      free(a.why);
      return -1;
    }
    a.in = xcalloc((size_t)a.nops + 1, 1);
    done = false;
    for (size_t i = 0; i < nleft; i++)
      free(left[i]);
    nleft = 0;
    for (int o = 0; o < a.nops && !done; o++) {
      if (a.opid[o] != RT_OP_MATMUL)
        continue;
      match m;
      int r = match_forward(&a, o, &m);
      if (r < 0)
        continue;
      char loc[4096];
      remat_report_loc(mlirOperationGetLocation(a.ops[o]), loc, sizeof loc);
      if (r == 1 && match_backward(&a, &m) && exclusive(&a, &m)) {
        int n = rewrite(&a, &m);
        if (rep) {
          fprintf(rep, "  rewritten: attention at %s: rt.attention {", loc);
          describe(rep, &m);
          fprintf(rep, "}%s; %d ops erased\n",
                  m.bwd ? " and its backward: rt.attention_grad" : ", no backward", n);
        }
        rewritten++;
        done = true;
      } else {
        XGROW(left, nleft, cap, 4);
        left[nleft++] = xasprintf("  not rewritten: attention at %s: %s\n", loc, a.why);
        free(a.why);
        a.why = NULL;
      }
    }
    free(a.in);
    rt_graph_free(&a.g);
  }
  /* the last view's candidates are those left */
  for (size_t i = 0; i < nleft; i++) {
    if (rep)
      fputs(left[i], rep);
    free(left[i]);
  }
  free(left);
  free(a.why);
  if (rep)
    fprintf(rep, "  attentions: %d rewritten, %zu left\n", rewritten, nleft);
  return 0;
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const RematAttentionOptions *o = ud;
  remat_func_list funcs = remat_pass_funcs(module, rewritable);
  int failed = 0;
  FILE *rep = remat_report_open(o->report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-attention: cannot open the report file '%s'", o->report);
    mlirExternalPassSignalFailure(pass);
    free(funcs.items);
    return;
  }
  for (size_t i = 0; i < funcs.n; i++)
    if (run_func(funcs.items[i], rep)) {
      mlirExternalPassSignalFailure(pass);
      break;
    }
  if (rep && funcs.n == 0)
    fprintf(rep, "remat-attention: no function: nothing rewritten\n");
  if (remat_report_close(rep)) {
    rt_emit_error(module, "--remat-attention: cannot write the report to '%s'", o->report);
    mlirExternalPassSignalFailure(pass);
  }
  free(funcs.items);
}

static MlirPass create(const void *options) {
  return remat_pass_create(&remat_attention_pass, "RematAttention", run, options,
                           sizeof(RematAttentionOptions));
}

REMAT_PASS_INFO(attention, Attention, REMAT_ATTENTION_OPTIONS,
                "decomposed attention and its backward become rt.attention and "
                "rt.attention_grad",
                contract, NULL, create)
