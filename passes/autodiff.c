/* autodiff.c: --remat-autodiff, reverse-mode automatic differentiation of forward
 * functions into joint forward+backward functions.
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it, and
 * docs/design.md "Autodiff" is generated from it).
 *
 * How: (1) number the values (arguments, op results) and check the ops; (2) activity, a
 * forward walk: a value is active when it is a floating-point tensor computed through
 * differentiable operands from a differentiated argument; (3) the backward, a reverse walk
 * over the ops: the adjoint (cotangent) of an active result is pushed through the op's VJP
 * rule to its active operands, and contributions to one value are summed as they arrive.
 * Only active operands get contributions and every active value reaches a differentiated
 * argument, so no backward op is dead; a zero contribution is never materialized (a
 * gradient that nothing reaches is one rt.full of 0). The rules follow PyTorch's
 * derivatives.yaml at non-smooth points (docs/design.md lists them). */
#include <math.h>
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
    "requires: verified rt IR; a function to differentiate is a func.func marked rt.autodiff "
    "(a unit attribute, or {wrt = [i, j, ...]}) with one block of rt and arith ops ending in "
    "func.return, and no rt.num_outputs or rt.tangent yet; other functions are not touched. "
    "keeps: its name, location, forward ops (their attributes such as rt.policy, locations "
    "and order), argument attributes (rt.param) and result attributes. breaks: the "
    "signature: one {rt.tangent} argument per floating-point tensor result is appended, and "
    "one gradient result per differentiated argument (wrt, by default every floating-point "
    "tensor argument, in argument order); rt.num_outputs = the number of forward results; "
    "rt.autodiff is removed; the backward ops are inserted before the return, each at the "
    "location of the forward op it differentiates";

/* The dims of a static tensor type into DIMS (RT_MAX_RANK entries); returns the rank. */
static int dims_of(MlirType t, int64_t *dims) {
  remat_shape sh = rt_shape_of(t);
  memcpy(dims, sh.d, sizeof(int64_t) * (size_t)sh.rank);
  return sh.rank;
}

/* A scalar arith.constant the backward uses, made once per function. */
typedef struct cached_const {
  MlirType type;
  double value;
  MlirValue v;
} cached_const;

typedef struct ad {
  /* the forward function (rt_graph.h): func, ret, entry, nargs, nops, nvals, nret, ops,
   * opid, op_res, opnd_start, opnd, vals, val_op, ret_val */
  RT_GRAPH_MEMBERS(graph);
  MlirContext ctx;
  int nwrt, *wrt; /* differentiated arguments, in gradient order */
  bool *active;
  MlirValue *adj; /* adjoint of each value; null: no contribution yet */
  /* The adjoint is -adj[v] (every VJP is linear in the cotangent, so a sign travels along
   * and only a gradient result ever needs an rt.neg); neg_loc: where it was negated. */
  bool *negated;
  MlirLocation *neg_loc;
  /* emission */
  MlirLocation loc; /* of the forward op being differentiated */
  bool sign;        /* the adjoint being pushed is negated */
  cached_const *consts;
  int nconsts, cap_consts;
  /* Ops of the function a new backward op may reuse (same name, operands, attributes and
   * type): open addressing over cse_ops, keyed by cse_key. */
  MlirOperation *cse_ops;
  size_t cse_cap, cse_n;
  int emitted; /* backward ops, constants included */
} ad;

static void ad_free(ad *a) {
  rt_graph_free(&a->graph);
  free(a->wrt);
  free(a->active);
  free(a->adj);
  free(a->negated);
  free(a->neg_loc);
  free(a->consts);
  free(a->cse_ops);
}

static MlirStringRef op_name(MlirOperation op) {
  return mlirIdentifierStr(mlirOperationGetName(op));
}

static MlirType vtype(MlirValue v) { return mlirValueGetType(v); }

static bool is_float_tensor(MlirType t) {
  return rt_type_is_static_tensor(t) && mlirTypeIsAFloat(mlirShapedTypeGetElementType(t));
}

static int operand(const ad *a, int i, int k) { return a->opnd[a->opnd_start[i] + k]; }
static int num_operands(const ad *a, int i) { return a->opnd_start[i + 1] - a->opnd_start[i]; }

/* Reads the body into arrays (rt_graph_load). Ops other than rt and arith ops are
 * refused there, whether or not they touch a differentiated value: their meaning is
 * unknown. 0, or -1 after a diagnostic. */
static int load(ad *a) {
  if (rt_graph_load(&a->graph, a->func, 0, "--remat-autodiff", "forward function") < 0)
    return -1;
  a->active = xcalloc(a->nvals, sizeof *a->active);
  a->adj = xcalloc(a->nvals, sizeof *a->adj);
  a->negated = xcalloc(a->nvals, sizeof *a->negated);
  a->neg_loc = xcalloc(a->nvals, sizeof *a->neg_loc);
  return 0;
}

/* ---- the rt.autodiff attribute ------------------------------------------------------ */

/* Reads `wrt` (array<i64: ...> or [i, j] of integers) of rt.autodiff into a->wrt, or
 * every floating-point tensor argument when absent. 0, or -1 after a diagnostic. */
static int read_wrt(ad *a) {
  MlirStringRef fname = rt_func_name(a->func);
  MlirAttribute attr = mlirOperationGetAttributeByName(a->func, rt_str("rt.autodiff"));
  MlirAttribute wrt = {NULL};
  if (mlirAttributeIsADictionary(attr)) {
    for (intptr_t i = 0, n = mlirDictionaryAttrGetNumElements(attr); i < n; i++) {
      MlirNamedAttribute e = mlirDictionaryAttrGetElement(attr, i);
      if (!rt_str_eq(mlirIdentifierStr(e.name), "wrt")) {
        MlirStringRef k = mlirIdentifierStr(e.name);
        rt_emit_error(a->func,
                      "'rt.autodiff' of '@%.*s' has an unknown entry '%.*s' (only "
                      "'wrt' is known)",
                      (int)fname.length, fname.data, (int)k.length, k.data);
        return -1;
      }
      wrt = e.attribute;
    }
  } else if (!mlirAttributeIsAUnit(attr)) {
    rt_emit_error(a->func,
                  "'rt.autodiff' of '@%.*s' must be a unit attribute or a dictionary "
                  "{wrt = [...]}",
                  (int)fname.length, fname.data);
    return -1;
  }
  a->wrt = xcalloc(a->nargs, sizeof *a->wrt);
  if (mlirAttributeIsNull(wrt)) {
    for (int i = 0; i < a->nargs; i++)
      if (is_float_tensor(vtype(a->vals[i])))
        a->wrt[a->nwrt++] = i;
    if (a->nwrt == 0) {
      rt_emit_error(a->func,
                    "--remat-autodiff: '@%.*s' has no floating-point tensor argument "
                    "to differentiate",
                    (int)fname.length, fname.data);
      return -1;
    }
    return 0;
  }
  bool dense = mlirAttributeIsADenseI64Array(wrt);
  intptr_t n = dense                        ? mlirDenseArrayGetNumElements(wrt)
               : mlirAttributeIsAArray(wrt) ? mlirArrayAttrGetNumElements(wrt)
                                            : -1;
  if (n <= 0) {
    rt_emit_error(a->func,
                  "'wrt' of '@%.*s' must be a non-empty list of argument indices "
                  "([0, 2] or array<i64: 0, 2>)",
                  (int)fname.length, fname.data);
    return -1;
  }
  free(a->wrt);
  a->wrt = xcalloc(n, sizeof *a->wrt);
  for (intptr_t k = 0; k < n; k++) {
    int64_t idx;
    if (dense)
      idx = mlirDenseI64ArrayGetElement(wrt, k);
    else {
      MlirAttribute e = mlirArrayAttrGetElement(wrt, k);
      if (!mlirAttributeIsAInteger(e)) {
        rt_emit_error(a->func, "'wrt' of '@%.*s' must hold integers (argument indices)",
                      (int)fname.length, fname.data);
        return -1;
      }
      idx = mlirIntegerAttrGetValueInt(e);
    }
    if (idx < 0 || idx >= a->nargs) {
      rt_emit_error(a->func,
                    "'wrt' index %lld of '@%.*s' is out of range: the function has "
                    "%d arguments",
                    (long long)idx, (int)fname.length, fname.data, a->nargs);
      return -1;
    }
    for (int j = 0; j < a->nwrt; j++)
      if (a->wrt[j] == idx) {
        rt_emit_error(a->func, "'wrt' of '@%.*s' names argument #%lld twice", (int)fname.length,
                      fname.data, (long long)idx);
        return -1;
      }
    MlirType t = vtype(a->vals[idx]);
    if (!is_float_tensor(t)) {
      char tb[128];
      rt_emit_error(a->func,
                    "'wrt' of '@%.*s' requests the gradient of argument #%lld of "
                    "type '%s', which is not differentiable: gradients exist for "
                    "floating-point tensors only",
                    (int)fname.length, fname.data, (long long)idx, rt_type_str(t, tb, sizeof tb));
      return -1;
    }
    a->wrt[a->nwrt++] = (int)idx;
  }
  return 0;
}

/* ---- activity ----------------------------------------------------------------------- */

/* The value of a scalar arith.constant operand, if it is one. */
static bool const_scalar(const ad *a, int v, double *out) {
  int op = a->val_op[v];
  if (op < 0 || !rt_op_named(a->ops[op], "arith.constant"))
    return false;
  MlirAttribute attr = mlirOperationGetAttributeByName(a->ops[op], rt_str("value"));
  if (!mlirAttributeIsNull(attr) && mlirAttributeIsAFloat(attr)) {
    *out = mlirFloatAttrGetValueDouble(attr);
    return true;
  }
  if (!mlirAttributeIsNull(attr) && mlirAttributeIsAInteger(attr) &&
      mlirTypeIsAInteger(mlirAttributeGetType(attr)) &&
      mlirIntegerTypeGetWidth(mlirAttributeGetType(attr)) > 1) {
    *out = (double)mlirIntegerAttrGetValueInt(attr);
    return true;
  }
  return false;
}

/* Whether operand K of op I carries a gradient when it is active: floating-point tensor
 * operands of differentiable ops. No `default:` so that a new rt op is a -Wswitch error
 * here until it has a rule. */
static bool diff_operand(const ad *a, int i, int k) {
  int v = operand(a, i, k);
  if (!is_float_tensor(vtype(a->vals[v])))
    return false;
  int64_t numel = 0;
  if (a->op_res[i + 1] == a->op_res[i] || rt_type_numel(vtype(a->vals[a->op_res[i]]), &numel) ||
      numel == 0)
    return false; /* an empty result has no gradient to pass on */
  double c;
  switch ((rt_op_id)a->opid[i]) {
  case RT_OP_NONE: /* arith ops: on scalars; a tensor one is refused by check_active */
    return false;
  case RT_OP_ADD:
  case RT_OP_SUB:
  case RT_OP_MUL:
  case RT_OP_DIV:
  case RT_OP_MAX:
  case RT_OP_MIN: return true;
  case RT_OP_POW: /* x ** 0 is constant: no gradient to the base */
    return k == 1 || !const_scalar(a, operand(a, i, 1), &c) || c != 0;
  case RT_OP_NEG:
  case RT_OP_EXP:
  case RT_OP_LOG:
  case RT_OP_TANH:
  case RT_OP_ERF:
  case RT_OP_SQRT:
  case RT_OP_RSQRT:
  case RT_OP_ABS:
  case RT_OP_SIN:
  case RT_OP_COS:
  case RT_OP_LOG1P:
  case RT_OP_SOFTPLUS:
  case RT_OP_HARDSWISH:
  case RT_OP_HARDSIGMOID:
  case RT_OP_RELU6:
  case RT_OP_MISH: return true;
  case RT_OP_LT:
  case RT_OP_LE:
  case RT_OP_GT:
  case RT_OP_GE:
  case RT_OP_EQ:
  case RT_OP_NE: return false; /* i1 results */
  case RT_OP_SELECT: return k > 0;
  case RT_OP_CONVERT: return is_float_tensor(vtype(a->vals[a->op_res[i]]));
  case RT_OP_FULL:
  case RT_OP_IOTA:
  case RT_OP_UNIFORM_PHILOX: return false;
  case RT_OP_BROADCAST:
  case RT_OP_RESHAPE:
  case RT_OP_TRANSPOSE:
  case RT_OP_SLICE:
  case RT_OP_CONCAT:
  case RT_OP_SUM:
  case RT_OP_AMAX:
  case RT_OP_MATMUL:
  case RT_OP_ALL_GATHER:
  case RT_OP_REDUCE_SCATTER:
  case RT_OP_ALL_REDUCE:
  case RT_OP_WAIT: return true;
  case RT_OP_GATHER: /* the source, not the indices */ return k == 0;
  case RT_OP_SCATTER_ADD: /* the base and the updates */ return k == 0 || k == 2;
  case RT_OP_ARGMAX: /* an i64 result */ return false;
  case RT_OP_EXTERN: return true; /* refused by check_active: no VJP is known */
  case RT_OP_CONV:
  case RT_OP_CONV_GRAD_INPUT:
  case RT_OP_CONV_GRAD_WEIGHT: return true; /* bilinear: each is another's adjoint */
  case RT_OP_ATTENTION: /* q, k, v; a mask and the seed and offset are constants */ return k < 3;
  case RT_OP_ATTENTION_GRAD: return true; /* refused by check_active: no second derivative */
  }
  remat_fatal("unknown rt op id");
}

static bool reduce_is_sum(MlirOperation op) {
  MlirAttribute r = mlirOperationGetAttributeByName(op, rt_str("reduce"));
  return !mlirAttributeIsNull(r) && mlirAttributeIsAString(r) &&
         rt_str_eq(mlirStringAttrGetValue(r), "sum");
}

/* Whether value V would receive an adjoint: it is a result of the function or an
 * operand that some op differentiates (whether or not that op reaches a result). */
static bool feeds_gradient(const ad *a, int v) {
  for (int r = 0; r < a->nret; r++)
    if (a->ret_val[r] == v)
      return true;
  for (int j = 0; j < a->nops; j++)
    for (int k = 0, n = num_operands(a, j); k < n; k++)
      if (operand(a, j, k) == v && diff_operand(a, j, k))
        return true;
  return false;
}

/* Forward walk: which values are active, and refusal of active ops without a rule. 0, or
 * -1 after a diagnostic. */
static int check_active(ad *a) {
  for (int k = 0; k < a->nwrt; k++)
    a->active[a->wrt[k]] = true;
  for (int i = 0; i < a->nops; i++) {
    MlirOperation op = a->ops[i];
    bool any = false, act = false;
    for (int k = 0, n = num_operands(a, i); k < n; k++) {
      bool ak = a->active[operand(a, i, k)];
      any |= ak;
      act |= ak && diff_operand(a, i, k);
    }
    if (!any)
      continue;
    MlirStringRef n = op_name(op);
    if (a->opid[i] == RT_OP_NONE) {
      rt_emit_error(op,
                    "'%.*s' is not differentiable by --remat-autodiff: it uses a value "
                    "computed from a differentiated argument (write tensor math with rt "
                    "ops; arith ops are for scalars)",
                    (int)n.length, n.data);
      return -1;
    }
    if (act && a->opid[i] == RT_OP_EXTERN) {
      MlirStringRef label = rt_op_label(op);
      rt_emit_error(op,
                    "cannot differentiate 'rt.extern' (%.*s): remat knows no VJP of an "
                    "operation it does not model (differentiate it where it was produced, "
                    "e.g. torch's AOT autograd, and split the joint function)",
                    (int)label.length, label.data);
      return -1;
    }
    if (act && a->opid[i] == RT_OP_ATTENTION_GRAD) {
      rt_emit_error(op, "'rt.attention_grad' is not differentiable by --remat-autodiff (no "
                        "second derivative of attention)");
      return -1;
    }
    rt_attention at;
    if (a->opid[i] == RT_OP_ATTENTION && rt_attention_of(op, &at) &&
        at.mask == RT_ATTENTION_MASK_ADD && a->active[operand(a, i, at.mask_at)]) {
      rt_emit_error(op, "the additive mask of 'rt.attention' depends on a differentiated "
                        "argument: --remat-autodiff differentiates q, k and v only (the "
                        "mask's gradient is an Sq x Sk tensor the fused op never forms)");
      return -1;
    }
    if (act && a->opid[i] == RT_OP_ATTENTION && feeds_gradient(a, a->op_res[i] + 1)) {
      rt_emit_error(op, "the logsumexp of 'rt.attention' would have a gradient (a result of the "
                        "function or a differentiated use): --remat-autodiff differentiates "
                        "only the output (docs/design.md, \"Attention\")");
      return -1;
    }
    if (act && (a->opid[i] == RT_OP_ALL_REDUCE || a->opid[i] == RT_OP_REDUCE_SCATTER) &&
        !reduce_is_sum(op)) {
      rt_emit_error(op,
                    "'%.*s' with a max or min reduction is not differentiable by "
                    "--remat-autodiff (only reduce = \"sum\")",
                    (int)n.length, n.data);
      return -1;
    }
    double c;
    int base = a->opid[i] == RT_OP_POW ? operand(a, i, 0) : -1;
    if (base >= 0 && a->active[operand(a, i, 1)] && rt_type_is_scalar(vtype(a->vals[base])) &&
        !const_scalar(a, base, &c)) {
      rt_emit_error(op, "'rt.pow' of a scalar base that is not an arith.constant is not "
                        "differentiable by --remat-autodiff: the exponent's gradient needs "
                        "the log of the base (make the base a tensor)");
      return -1;
    }
    for (int v = a->op_res[i]; v < a->op_res[i + 1]; v++)
      a->active[v] = act && is_float_tensor(vtype(a->vals[v]));
  }
  return 0;
}

/* ---- emission ----------------------------------------------------------------------- */

/* ---- reuse of identical ops (a local CSE: the rules recompute what the forward may
 * hold already, such as sin(x) for cos' or y * y for tanh') ---- */

static uint64_t cse_key(MlirStringRef name, int n, const MlirValue *opnds, MlirType t) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < name.length; i++)
    h = (h ^ (unsigned char)name.data[i]) * 1099511628211ull;
  for (int i = 0; i < n; i++)
    h = (h ^ remat_ptr_hash(opnds[i].ptr)) * 1099511628211ull;
  return (h ^ remat_ptr_hash(t.ptr)) * 1099511628211ull;
}

/* Ops that may be reused: rt ops with one result, except collectives (each one is a
 * communication of its own) and rt.uniform_philox (no rule emits one). */
static bool cse_ok(MlirOperation op) {
  rt_op_kind k = rt_op_kind_of(rt_op_lookup(op));
  return k != RT_KIND_NONE && k != RT_KIND_COLLECTIVE && k != RT_KIND_RANDOM &&
         mlirOperationGetNumResults(op) == 1;
}

/* The key of an op in the table; ops of more than 8 operands (long concats, which no
 * rule emits) are not in it. */
static uint64_t cse_key_of(MlirOperation op) {
  MlirValue opnds[8];
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; i++)
    opnds[i] = mlirOperationGetOperand(op, i);
  return cse_key(op_name(op), (int)n, opnds, vtype(mlirOperationGetResult(op, 0)));
}

static void cse_insert(ad *a, MlirOperation op) {
  if (!cse_ok(op) || mlirOperationGetNumOperands(op) > 8)
    return;
  if (2 * (a->cse_n + 1) > a->cse_cap) { /* grow and rehash */
    size_t cap = a->cse_cap ? 2 * a->cse_cap : 64;
    MlirOperation *old = a->cse_ops, *t = xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < a->cse_cap; i++)
      if (!mlirOperationIsNull(old[i])) {
        size_t h = cse_key_of(old[i]) & (cap - 1);
        while (!mlirOperationIsNull(t[h]))
          h = (h + 1) & (cap - 1);
        t[h] = old[i];
      }
    free(old);
    a->cse_ops = t;
    a->cse_cap = cap;
  }
  size_t h = cse_key_of(op) & (a->cse_cap - 1);
  while (!mlirOperationIsNull(a->cse_ops[h]))
    h = (h + 1) & (a->cse_cap - 1);
  a->cse_ops[h] = op;
  a->cse_n++;
}

/* Whether OP has exactly the attributes ATTRS, apart from rt.* tags (rt.policy, ...). */
static bool same_attrs(MlirOperation op, int nattr, const MlirNamedAttribute *attrs) {
  int seen = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumAttributes(op); i < n; i++) {
    MlirNamedAttribute e = mlirOperationGetAttribute(op, i);
    MlirStringRef k = mlirIdentifierStr(e.name);
    if (k.length > 3 && !memcmp(k.data, "rt.", 3))
      continue;
    bool found = false;
    for (int j = 0; j < nattr && !found; j++)
      if (mlirIdentifierEqual(attrs[j].name, e.name)) {
        if (!mlirAttributeEqual(attrs[j].attribute, e.attribute))
          return false;
        found = true;
      }
    if (!found)
      return false;
    seen++;
  }
  return seen == nattr;
}

static MlirValue cse_find(const ad *a, const char *name, int n, const MlirValue *opnds, MlirType t,
                          int nattr, const MlirNamedAttribute *attrs) {
  if (!a->cse_cap || n > 8)
    return (MlirValue){NULL};
  for (size_t h = cse_key(rt_str(name), n, opnds, t) & (a->cse_cap - 1);
       !mlirOperationIsNull(a->cse_ops[h]); h = (h + 1) & (a->cse_cap - 1)) {
    MlirOperation op = a->cse_ops[h];
    if (!rt_op_named(op, name) || mlirOperationGetNumOperands(op) != n ||
        !mlirTypeEqual(vtype(mlirOperationGetResult(op, 0)), t))
      continue;
    bool same = true;
    for (int i = 0; i < n && same; i++)
      same = mlirValueEqual(mlirOperationGetOperand(op, i), opnds[i]);
    if (same && same_attrs(op, nattr, attrs))
      return mlirOperationGetResult(op, 0);
  }
  return (MlirValue){NULL};
}

/* Creates op NAME before the return, at the current forward op's location. Ops appear in
 * the order of these calls, so no call below passes two emitting expressions as arguments
 * of one call (C leaves their order unspecified). */
static MlirValue emit(ad *a, const char *name, int n, const MlirValue *opnds, MlirType res,
                      int nattr, const MlirNamedAttribute *attrs) {
  MlirValue same = cse_find(a, name, n, opnds, res, nattr, attrs);
  if (!mlirValueIsNull(same))
    return same;
  MlirOperationState st = mlirOperationStateGet(rt_str(name), a->loc);
  if (n)
    mlirOperationStateAddOperands(&st, n, opnds);
  mlirOperationStateAddResults(&st, 1, &res);
  if (nattr)
    mlirOperationStateAddAttributes(&st, nattr, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  if (mlirOperationIsNull(op))
    remat_fatal("cannot create a backward op");
  mlirBlockInsertOwnedOperationBefore(a->entry, a->ret, op);
  cse_insert(a, op);
  a->emitted++;
  return mlirOperationGetResult(op, 0);
}

static MlirType tensor_type(int rank, const int64_t *shape, MlirType elem) {
  return mlirRankedTensorTypeGet(rank, shape, elem, mlirAttributeGetNull());
}

static MlirType elem_of(MlirValue v) { return rt_element_type(vtype(v)); }

/* The cached scalar constant of type T and value V, or null. Values compare by their
 * bits: -0.0 and 0.0 differ. */
static MlirValue cache_find(const ad *a, MlirType t, double v) {
  for (int i = 0; i < a->nconsts; i++)
    if (mlirTypeEqual(a->consts[i].type, t) && !memcmp(&a->consts[i].value, &v, sizeof v))
      return a->consts[i].v;
  return (MlirValue){NULL};
}

static void cache_add(ad *a, MlirType t, double v, MlirValue r) {
  XGROW(a->consts, a->nconsts, a->cap_consts, 8);
  a->consts[a->nconsts++] = (cached_const){t, v, r};
}

/* The forward's scalar constants serve the backward too (no duplicate arith.constant). */
static void seed_consts(ad *a) {
  for (int i = 0; i < a->nops; i++) {
    double v;
    int r = a->op_res[i];
    MlirType t = a->op_res[i + 1] - r == 1 ? vtype(a->vals[r]) : (MlirType){NULL};
    if (!mlirTypeIsNull(t) && rt_type_is_scalar(t) && const_scalar(a, r, &v) &&
        mlirValueIsNull(cache_find(a, t, v)))
      cache_add(a, t, v, a->vals[r]);
  }
}

/* A scalar arith.constant of type T (made at its first use). */
static MlirValue cst_typed(ad *a, MlirType t, double v) {
  MlirValue r = cache_find(a, t, v);
  if (!mlirValueIsNull(r))
    return r;
  MlirNamedAttribute attr = rt_named_attr(a->ctx, "value",
                                          mlirTypeIsAInteger(t)
                                              ? mlirIntegerAttrGet(t, (int64_t)v)
                                              : mlirFloatAttrDoubleGet(a->ctx, t, v));
  r = emit(a, "arith.constant", 0, NULL, t, 1, &attr);
  cache_add(a, t, v, r);
  return r;
}

/* The scalar constant V for arithmetic on tensors of element type ELEM: f64 for f64
 * tensors, f32 otherwise (f16/bf16 scalars are not rt operands; rt computes them in f32). */
static MlirValue cst(ad *a, MlirType elem, double v) {
  return cst_typed(a, mlirTypeIsAF64(elem) ? elem : mlirF32TypeGet(a->ctx), v);
}

/* Elementwise op: the result has the tensor operand's type (i1 elements for compares). */
static MlirValue ew(ad *a, const char *name, MlirValue x, MlirValue y) {
  MlirValue opnds[2] = {x, y};
  MlirType t = mlirTypeIsATensor(vtype(x)) ? vtype(x) : vtype(y);
  rt_op_id id = rt_op_from_name(name);
  if (rt_op_kind_of(id) == RT_KIND_COMPARE) {
    int64_t s[RT_MAX_RANK];
    int r = dims_of(t, s);
    t = tensor_type(r, s, mlirIntegerTypeGet(a->ctx, 1));
  }
  return emit(a, name, mlirValueIsNull(y) ? 1 : 2, opnds, t, 0, NULL);
}

static MlirValue un(ad *a, const char *name, MlirValue x) {
  return emit(a, name, 1, &x, vtype(x), 0, NULL);
}

static MlirValue sel(ad *a, MlirValue c, MlirValue x, MlirValue y, MlirType t) {
  MlirValue opnds[3] = {c, x, y};
  return emit(a, "rt.select", 3, opnds, t, 0, NULL);
}

static MlirValue dims_op(ad *a, const char *name, MlirValue x, const char *attr,
                         const int64_t *dims, int n, MlirType t) {
  MlirNamedAttribute at = rt_named_attr(a->ctx, attr, mlirDenseI64ArrayGet(a->ctx, n, dims));
  return emit(a, name, 1, &x, t, 1, &at);
}

static MlirValue reshape(ad *a, MlirValue x, MlirType t) {
  return mlirTypeEqual(vtype(x), t) ? x : emit(a, "rt.reshape", 1, &x, t, 0, NULL);
}

/* rt.sum of X over DIMS (ascending). */
static MlirValue sum(ad *a, MlirValue x, const int64_t *dims, int n) {
  int64_t s[RT_MAX_RANK], r[RT_MAX_RANK];
  int rank = dims_of(vtype(x), s), nr = 0;
  for (int d = 0, k = 0; d < rank; d++) {
    if (k < n && dims[k] == d)
      k++;
    else
      r[nr++] = s[d];
  }
  return dims_op(a, "rt.sum", x, "dims", dims, n, tensor_type(nr, r, elem_of(x)));
}

/* Broadcasts X (the result of reducing a tensor of type T over DIMS) back to T. */
static MlirValue unreduce(ad *a, MlirValue x, const int64_t *dims, int n, MlirType t) {
  int64_t s[RT_MAX_RANK], kept[RT_MAX_RANK];
  int rank = dims_of(t, s), nk = 0;
  for (int d = 0, k = 0; d < rank; d++) {
    if (k < n && dims[k] == d)
      k++;
    else
      kept[nk++] = d;
  }
  return dims_op(a, "rt.broadcast", x, "dims", kept, nk, tensor_type(rank, s, elem_of(x)));
}

static MlirValue full_zero(ad *a, MlirType t) {
  MlirType e = rt_element_type(t);
  MlirNamedAttribute at = rt_named_attr(a->ctx, "value", mlirFloatAttrDoubleGet(a->ctx, e, 0.0));
  return emit(a, "rt.full", 0, NULL, t, 1, &at);
}

static MlirValue slice1(ad *a, MlirValue x, int dim, int64_t lo, int64_t hi) {
  int64_t s[RT_MAX_RANK], start[RT_MAX_RANK], limit[RT_MAX_RANK], stride[RT_MAX_RANK];
  int rank = dims_of(vtype(x), s);
  for (int d = 0; d < rank; d++) {
    start[d] = d == dim ? lo : 0;
    limit[d] = d == dim ? hi : s[d];
    stride[d] = 1;
  }
  s[dim] = hi - lo;
  MlirNamedAttribute at[3] = {
      rt_named_attr(a->ctx, "start", mlirDenseI64ArrayGet(a->ctx, rank, start)),
      rt_named_attr(a->ctx, "limit", mlirDenseI64ArrayGet(a->ctx, rank, limit)),
      rt_named_attr(a->ctx, "stride", mlirDenseI64ArrayGet(a->ctx, rank, stride))};
  return emit(a, "rt.slice", 1, &x, tensor_type(rank, s, elem_of(x)), 3, at);
}

static MlirValue concat2(ad *a, MlirValue x, MlirValue y, int dim) {
  int64_t s[RT_MAX_RANK], t[RT_MAX_RANK];
  int rank = dims_of(vtype(x), s);
  dims_of(vtype(y), t);
  s[dim] += t[dim];
  MlirValue opnds[2] = {x, y};
  MlirNamedAttribute at =
      rt_named_attr(a->ctx, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(a->ctx, 64), dim));
  return emit(a, "rt.concat", 2, opnds, tensor_type(rank, s, elem_of(x)), 1, &at);
}

/* rt.transpose of X by PERM; the identity is X itself, and a transpose of a transpose
 * that undoes it is the inner operand (x x^T's backward transposes x^T back). */
static MlirValue transpose(ad *a, MlirValue x, const int64_t *perm) {
  int64_t s[RT_MAX_RANK], r[RT_MAX_RANK], inner[RT_MAX_RANK];
  int rank = dims_of(vtype(x), s);
  bool identity = true, undo = mlirValueIsAOpResult(x);
  MlirOperation def = undo ? mlirOpResultGetOwner(x) : (MlirOperation){NULL};
  undo = undo && rt_op_lookup(def) == RT_OP_TRANSPOSE &&
         rt_get_i64_array(def, "perm", inner, RT_MAX_RANK) == rank;
  for (int d = 0; d < rank; d++) {
    r[d] = s[perm[d]];
    identity &= perm[d] == d;
    undo = undo && inner[perm[d]] == d;
  }
  if (identity)
    return x;
  if (undo)
    return mlirOperationGetOperand(def, 0);
  return dims_op(a, "rt.transpose", x, "perm", perm, rank, tensor_type(rank, r, elem_of(x)));
}

/* X with its last two dimensions swapped. */
static MlirValue transpose_last2(ad *a, MlirValue x) {
  int64_t perm[RT_MAX_RANK];
  int rank = (int)mlirShapedTypeGetRank(vtype(x));
  for (int d = 0; d < rank; d++)
    perm[d] = d;
  perm[rank - 2] = rank - 1;
  perm[rank - 1] = rank - 2;
  return transpose(a, x, perm);
}

/* op(L) x op(R) with op = transpose of the last two dims where asked. The transposes are
 * rt.transpose ops today (the fusion pass folds a transpose feeding a matmul into its
 * operand layout); when rt.matmul carries transposed-operand attributes, this is the one
 * place to set them instead. */
static MlirValue matmul_t(ad *a, MlirValue l, bool tl, MlirValue r, bool tr, MlirType res) {
  MlirValue opnds[2];
  opnds[0] = tl ? transpose_last2(a, l) : l; /* emitted in this order */
  opnds[1] = tr ? transpose_last2(a, r) : r;
  return emit(a, "rt.matmul", 2, opnds, res, 0, NULL);
}

/* Collective NAME over X with the group attributes of FWD (and reduce = "sum"), then its
 * rt.wait: the backward's collectives complete where they start; --remat-fuse and the
 * runtime may overlap them later. */
static MlirValue collective(ad *a, const char *name, MlirValue x, MlirOperation fwd, bool dim,
                            bool reduce, MlirType t) {
  MlirNamedAttribute at[4];
  int n = 0;
  at[n++] = rt_named_attr(a->ctx, "group", mlirOperationGetAttributeByName(fwd, rt_str("group")));
  at[n++] = rt_named_attr(a->ctx, "group_size",
                          mlirOperationGetAttributeByName(fwd, rt_str("group_size")));
  if (dim)
    at[n++] = rt_named_attr(a->ctx, "dim", mlirOperationGetAttributeByName(fwd, rt_str("dim")));
  if (reduce)
    at[n++] = rt_named_attr(a->ctx, "reduce", mlirStringAttrGet(a->ctx, rt_str("sum")));
  for (int i = 0; i < n; i++)
    if (mlirAttributeIsNull(at[i].attribute))
      remat_fatal("a verified collective without its group attributes");
  MlirValue started = emit(a, name, 1, &x, t, n, at);
  return emit(a, "rt.wait", 1, &started, t, 0, NULL);
}

/* Adds contribution C, negated if NEGATE or if the adjoint being pushed (a->sign) is
 * negated, to the adjoint of value V. A first contribution becomes the adjoint itself, so
 * nothing is ever added to zero; signs combine into add or sub. */
static void acc(ad *a, int v, MlirValue c, bool negate) {
  if (!mlirTypeEqual(vtype(c), vtype(a->vals[v])))
    remat_fatal("a contribution's type differs from its value's");
  negate ^= a->sign;
  if (mlirValueIsNull(a->adj[v])) {
    a->adj[v] = c;
    a->negated[v] = negate;
    a->neg_loc[v] = a->loc;
  } else if (a->negated[v] == negate) /* (+a) + (+c), or -((a) + (c)) */
    a->adj[v] = ew(a, "rt.add", a->adj[v], c);
  else if (!a->negated[v]) /* a - c */
    a->adj[v] = ew(a, "rt.sub", a->adj[v], c);
  else { /* -a + c = c - a */
    a->adj[v] = ew(a, "rt.sub", c, a->adj[v]);
    a->negated[v] = false;
  }
}

/* ---- VJP rules ------------------------------------------------------------------------ */

/* max/min: tensor-tensor as torch.maximum/minimum (ties split the gradient in halves;
 * NaN passes it to both), tensor-scalar as torch.clamp_min/clamp_max (the whole gradient
 * where x >= c for max, x <= c for min, ties included). */
static void vjp_maxmin(ad *a, int i, MlirValue g, bool is_max) {
  int x = operand(a, i, 0), y = operand(a, i, 1);
  MlirValue xv = a->vals[x], yv = a->vals[y];
  bool dx = diff_operand(a, i, 0) && a->active[x], dy = diff_operand(a, i, 1) && a->active[y];
  MlirType gt = vtype(g);
  MlirValue zero = cst(a, elem_of(g), 0.0);
  if (!mlirTypeIsATensor(vtype(yv)) || !mlirTypeIsATensor(vtype(xv))) {
    bool x_tensor = mlirTypeIsATensor(vtype(xv));
    int t = x_tensor ? x : y;
    MlirValue c = x_tensor ? yv : xv, tv = a->vals[t];
    MlirValue keep = ew(a, is_max ? "rt.ge" : "rt.le", tv, c);
    acc(a, t, sel(a, keep, g, zero, gt), false);
    return;
  }
  MlirValue tie = ew(a, "rt.eq", xv, yv);
  MlirValue half = ew(a, "rt.mul", g, cst(a, elem_of(g), 0.5));
  MlirValue gh = sel(a, tie, half, g, gt);
  if (dx) /* max: x loses where x < y */
    acc(a, x, sel(a, ew(a, is_max ? "rt.lt" : "rt.gt", xv, yv), zero, gh, gt), false);
  if (dy)
    acc(a, y, sel(a, ew(a, is_max ? "rt.gt" : "rt.lt", xv, yv), zero, gh, gt), false);
}

/* pow as torch's pow_backward_self / pow_backward_exponent: the base's gradient is
 * g * (b * x^(b-1)), 0 where b == 0; the exponent's is g * (y * log(x)), 0 where x == 0
 * and b >= 0. */
static void vjp_pow(ad *a, int i, MlirValue g) {
  int x = operand(a, i, 0), b = operand(a, i, 1), yi = a->op_res[i];
  MlirValue xv = a->vals[x], bv = a->vals[b], yv = a->vals[yi];
  MlirType gt = vtype(g), e = elem_of(g);
  double c;
  if (diff_operand(a, i, 0) && a->active[x]) {
    MlirValue contrib;
    if (const_scalar(a, b, &c)) { /* c != 0: diff_operand excludes it */
      if (c == 1)
        contrib = g;
      else {
        MlirValue p = c == 2 ? xv : ew(a, "rt.pow", xv, cst(a, e, c - 1));
        contrib = ew(a, "rt.mul", g, ew(a, "rt.mul", p, cst(a, e, c)));
      }
    } else if (!mlirTypeIsATensor(vtype(bv))) {
      /* A scalar exponent known only at run time: scalar arith for b - 1 and b == 0
       * (arith.cmpf "oeq" and arith.cmpi "eq" are predicates 1 and 0). */
      MlirType st = vtype(bv);
      bool integer = mlirTypeIsAInteger(st);
      MlirValue opnds[2] = {bv, cst_typed(a, st, 1.0)};
      MlirValue bm1 = emit(a, integer ? "arith.subi" : "arith.subf", 2, opnds, st, 0, NULL);
      MlirValue q = ew(a, "rt.mul", ew(a, "rt.pow", xv, bm1), bv);
      opnds[1] = cst_typed(a, st, 0.0);
      MlirNamedAttribute pred = rt_named_attr(
          a->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(a->ctx, 64), integer ? 0 : 1));
      MlirValue is0 = emit(a, integer ? "arith.cmpi" : "arith.cmpf", 2, opnds,
                           mlirIntegerTypeGet(a->ctx, 1), 1, &pred);
      contrib = ew(a, "rt.mul", g, sel(a, is0, cst(a, e, 0.0), q, gt));
    } else {
      MlirValue q = ew(a, "rt.mul", bv, ew(a, "rt.pow", xv, ew(a, "rt.sub", bv, cst(a, e, 1.0))));
      MlirValue is0 = ew(a, "rt.eq", bv, cst(a, e, 0.0));
      contrib = ew(a, "rt.mul", g, sel(a, is0, cst(a, e, 0.0), q, gt));
    }
    acc(a, x, contrib, false);
  }
  if (diff_operand(a, i, 1) && a->active[b]) {
    MlirValue s;
    if (const_scalar(a, x, &c)) {
      /* log of a constant base, folded here; a base of 0 keeps torch's mask */
      double l = mlirTypeIsAF64(e) ? log(c) : (double)logf((float)c);
      s = ew(a, "rt.mul", yv, cst(a, e, l));
      if (c == 0) {
        MlirValue zero = cst(a, e, 0.0);
        s = sel(a, ew(a, "rt.ge", bv, zero), zero, s, gt);
      }
    } else {
      MlirValue yl = ew(a, "rt.mul", yv, un(a, "rt.log", xv)), zero = cst(a, e, 0.0);
      MlirValue x0 = ew(a, "rt.eq", xv, zero);
      MlirValue z = ew(a, "rt.mul", x0, ew(a, "rt.ge", bv, zero)); /* i1: and */
      s = sel(a, z, zero, yl, gt);
    }
    acc(a, b, ew(a, "rt.mul", g, s), false);
  }
}

/* Broadcast: sum over the dims the broadcast created or expanded from size 1, then a
 * reshape where expanded size-1 dims must come back. */
static void vjp_broadcast(ad *a, int i, MlirValue g) {
  int x = operand(a, i, 0);
  int64_t xs[RT_MAX_RANK], ys[RT_MAX_RANK], dims[RT_MAX_RANK], red[RT_MAX_RANK];
  int xr = dims_of(vtype(a->vals[x]), xs);
  int yr = dims_of(vtype(g), ys);
  int src[RT_MAX_RANK]; /* operand dim of each result dim, or -1 */
  if (rt_get_i64_array(a->ops[i], "dims", dims, RT_MAX_RANK) != xr)
    remat_fatal("verified rt.broadcast with bad dims");
  for (int d = 0; d < yr; d++)
    src[d] = -1;
  for (int k = 0; k < xr; k++)
    src[dims[k]] = k;
  int nred = 0;
  for (int d = 0; d < yr; d++)
    if (ys[d] != 1 && (src[d] < 0 || xs[src[d]] == 1))
      red[nred++] = d;
  MlirValue c = nred ? sum(a, g, red, nred) : g;
  acc(a, x, reshape(a, c, vtype(a->vals[x])), false);
}

/* Strided slice: the cotangent goes back to the positions the slice read, zeros
 * elsewhere. Per sliced dimension: a stride s > 1 interleaves s - 1 zeros after each
 * element (reshape to [m, 1], concat zeros [m, s-1], reshape to [m*s], cut to what fits),
 * then zeros before start and after the last position. */
static void vjp_slice(ad *a, int i, MlirValue g) {
  int x = operand(a, i, 0);
  int64_t xs[RT_MAX_RANK], cs[RT_MAX_RANK], start[RT_MAX_RANK], stride[RT_MAX_RANK];
  int rank = dims_of(vtype(a->vals[x]), xs);
  dims_of(vtype(g), cs);
  rt_get_i64_array(a->ops[i], "start", start, RT_MAX_RANK);
  rt_get_i64_array(a->ops[i], "stride", stride, RT_MAX_RANK);
  MlirType e = elem_of(g);
  MlirValue cur = g;
  for (int k = 0; k < rank; k++) {
    int64_t n = xs[k], m = cs[k], s = stride[k], st = start[k];
    if (st == 0 && m == n)
      continue;
    if (s > 1 && m > 1) {
      int64_t r[RT_MAX_RANK + 1];
      for (int d = 0; d < rank; d++)
        r[d < k ? d : d + 1] = cs[d];
      r[k] = m;
      r[k + 1] = 1;
      cur = reshape(a, cur, tensor_type(rank + 1, r, e));
      r[k + 1] = s - 1;
      cur = concat2(a, cur, full_zero(a, tensor_type(rank + 1, r, e)), k + 1);
      cs[k] = m * s;
      cur = reshape(a, cur, tensor_type(rank, cs, e));
      if (cs[k] > n - st) { /* the last element's trailing zeros run past the end */
        cur = slice1(a, cur, k, 0, n - st);
        cs[k] = n - st;
      }
    }
    int64_t after = n - st - cs[k], z[RT_MAX_RANK];
    memcpy(z, cs, sizeof z);
    if (after > 0) {
      z[k] = after;
      cur = concat2(a, cur, full_zero(a, tensor_type(rank, z, e)), k);
      cs[k] += after;
    }
    if (st > 0) {
      z[k] = st;
      cur = concat2(a, full_zero(a, tensor_type(rank, z, e)), cur, k);
      cs[k] += st;
    }
  }
  acc(a, x, cur, false);
}

/* amax as torch: the gradient is shared evenly by the elements equal to the maximum,
 * (g / count) * mask. */
static void vjp_amax(ad *a, int i, MlirValue g) {
  int x = operand(a, i, 0);
  MlirValue xv = a->vals[x], yv = a->vals[a->op_res[i]];
  MlirType xt = vtype(xv);
  int64_t dims[RT_MAX_RANK];
  int n = rt_get_i64_array(a->ops[i], "dims", dims, RT_MAX_RANK);
  MlirValue mask = ew(a, "rt.eq", xv, unreduce(a, yv, dims, n, xt));
  MlirValue mf = emit(a, "rt.convert", 1, &mask, xt, 0, NULL);
  MlirValue share = ew(a, "rt.div", g, sum(a, mf, dims, n));
  acc(a, x, ew(a, "rt.mul", unreduce(a, share, dims, n, xt), mf), false);
}

/* rt.gather / rt.scatter_add along the dim of FWD, of result type T. */
static MlirValue indexing(ad *a, const char *name, int n, const MlirValue *opnds, MlirOperation fwd,
                          MlirType t) {
  MlirNamedAttribute at =
      rt_named_attr(a->ctx, "dim", mlirOperationGetAttributeByName(fwd, rt_str("dim")));
  return emit(a, name, n, opnds, t, 1, &at);
}

/* A conv op NAME of (x, y) with the attributes of the conv op FWD, of type T. */
static MlirValue conv(ad *a, const char *name, MlirValue x, MlirValue y, MlirOperation fwd,
                      MlirType t) {
  static const char *names[4] = {"stride", "padding", "dilation", "groups"};
  MlirNamedAttribute at[4];
  for (int k = 0; k < 4; k++)
    at[k] = rt_named_attr(a->ctx, names[k], mlirOperationGetAttributeByName(fwd, rt_str(names[k])));
  MlirValue o[2] = {x, y};
  return emit(a, name, 2, o, t, 4, at);
}

/* rt.attention (q, k, v, ...) -> (o, lse), o's adjoint G: dq, dk, dv =
 * rt.attention_grad(q, k, v, o, lse, g, ...) with the forward's attributes and its mask,
 * seed and offset. The lse's
 * cotangent is zero: check_active refuses a function where it would not be. */
static void attention_vjp(ad *a, int i, MlirValue g) {
  MlirOperation op = a->ops[i];
  int yi = a->op_res[i];
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue *opnds = xcalloc((size_t)n + 3, sizeof *opnds);
  MlirType res[3];
  for (int k = 0; k < 3; k++) {
    opnds[k] = mlirOperationGetOperand(op, k);
    res[k] = vtype(opnds[k]);
  }
  opnds[3] = a->vals[yi], opnds[4] = a->vals[yi + 1], opnds[5] = g;
  for (intptr_t k = 3; k < n; k++) /* the mask, the seed and the offset */
    opnds[k + 3] = mlirOperationGetOperand(op, k);
  MlirOperationState st = mlirOperationStateGet(rt_str("rt.attention_grad"), a->loc);
  mlirOperationStateAddOperands(&st, n + 3, opnds);
  mlirOperationStateAddResults(&st, 3, res);
  static const char *names[] = {"scale", "causal", "mask", "keep"};
  for (int k = 0; k < 4; k++) {
    MlirAttribute at = mlirOperationGetAttributeByName(op, rt_str(names[k]));
    if (!mlirAttributeIsNull(at)) {
      MlirNamedAttribute na = rt_named_attr(a->ctx, names[k], at);
      mlirOperationStateAddAttributes(&st, 1, &na);
    }
  }
  MlirOperation grad = mlirOperationCreate(&st);
  if (mlirOperationIsNull(grad))
    remat_fatal("cannot create rt.attention_grad");
  mlirBlockInsertOwnedOperationBefore(a->entry, a->ret, grad);
  a->emitted++;
  free(opnds);
  for (int k = 0; k < 3; k++)
    if (diff_operand(a, i, k) && a->active[operand(a, i, k)])
      acc(a, operand(a, i, k), mlirOperationGetResult(grad, k), false);
}

/* Pushes the adjoint of op I's result to its active operands. */
static void vjp(ad *a, int i) {
  bool attention = a->opid[i] == RT_OP_ATTENTION;
  if (!attention && a->op_res[i + 1] - a->op_res[i] != 1)
    return; /* rt ops but rt.extern (never active) and rt.attention have one result;
               arith ops are never active */
  int yi = a->op_res[i];
  MlirValue g = a->adj[yi];
  if (mlirValueIsNull(g) || !a->active[yi])
    return;
  MlirOperation op = a->ops[i];
  a->loc = mlirOperationGetLocation(op);
  a->sign = a->negated[yi];
  if (attention) {
    attention_vjp(a, i, g);
    return;
  }
  int nopnd = num_operands(a, i);
  bool d[8] = {false};
  for (int k = 0; k < nopnd && k < 8; k++)
    d[k] = diff_operand(a, i, k) && a->active[operand(a, i, k)];
  int x = nopnd > 0 ? operand(a, i, 0) : -1, y = nopnd > 1 ? operand(a, i, 1) : -1;
  MlirValue xv = x >= 0 ? a->vals[x] : g, yv = y >= 0 ? a->vals[y] : g, out = a->vals[yi];
  MlirType gt = vtype(g), e = elem_of(g);
  switch ((rt_op_id)a->opid[i]) {
  case RT_OP_ADD:
    if (d[0])
      acc(a, x, g, false);
    if (d[1])
      acc(a, y, g, false);
    return;
  case RT_OP_SUB:
    if (d[0])
      acc(a, x, g, false);
    if (d[1])
      acc(a, y, g, true);
    return;
  case RT_OP_MUL:
    if (x == y) { /* x * x: one product, contributed twice */
      MlirValue c = ew(a, "rt.mul", g, xv);
      acc(a, x, c, false);
      acc(a, x, c, false);
      return;
    }
    if (d[0])
      acc(a, x, ew(a, "rt.mul", g, yv), false);
    if (d[1])
      acc(a, y, ew(a, "rt.mul", g, xv), false);
    return;
  case RT_OP_DIV: /* torch: grad / other; -grad * ((self / other) / other) = -(g * (out / y)) */
    if (d[0])
      acc(a, x, ew(a, "rt.div", g, yv), false);
    if (d[1])
      acc(a, y, ew(a, "rt.mul", g, ew(a, "rt.div", out, yv)), true);
    return;
  case RT_OP_MAX:
  case RT_OP_MIN: vjp_maxmin(a, i, g, a->opid[i] == RT_OP_MAX); return;
  case RT_OP_POW: vjp_pow(a, i, g); return;
  case RT_OP_NEG: acc(a, x, g, true); return;
  case RT_OP_EXP: acc(a, x, ew(a, "rt.mul", g, out), false); return;
  case RT_OP_LOG: acc(a, x, ew(a, "rt.div", g, xv), false); return;
  case RT_OP_LOG1P: /* g / (x + 1) */
    acc(a, x, ew(a, "rt.div", g, ew(a, "rt.add", xv, cst(a, e, 1.0))), false);
    return;
  case RT_OP_SOFTPLUS: { /* torch: x > threshold ? g : g * z / (z + 1), z = exp(x) */
    MlirValue z = un(a, "rt.exp", xv);
    MlirValue big = ew(a, "rt.gt", xv, cst(a, e, RT_SOFTPLUS_THRESHOLD));
    MlirValue s = ew(a, "rt.div", ew(a, "rt.mul", g, z), ew(a, "rt.add", z, cst(a, e, 1.0)));
    acc(a, x, sel(a, big, g, s, gt), false);
    return;
  }
  case RT_OP_HARDSWISH: { /* torch: x < -3 ? 0 : x <= 3 ? g * (x / 3 + 0.5) : g */
    MlirValue lo = ew(a, "rt.lt", xv, cst(a, e, -RT_HARD_OFFSET));
    MlirValue mid = ew(a, "rt.le", xv, cst(a, e, RT_HARD_OFFSET));
    MlirValue slope =
        ew(a, "rt.add", ew(a, "rt.div", xv, cst(a, e, RT_HARD_OFFSET)), cst(a, e, 0.5));
    MlirValue inner = sel(a, mid, ew(a, "rt.mul", g, slope), g, gt);
    acc(a, x, sel(a, lo, cst(a, e, 0.0), inner, gt), false);
    return;
  }
  case RT_OP_HARDSIGMOID: { /* torch: -3 < x < 3 ? g * (1/6) : 0 */
    MlirValue zero = cst(a, e, 0.0);
    MlirValue in = sel(a, ew(a, "rt.lt", xv, cst(a, e, RT_HARD_OFFSET)),
                       ew(a, "rt.mul", g, cst(a, e, 1.0 / RT_HARD_CAP)), zero, gt);
    acc(a, x, sel(a, ew(a, "rt.gt", xv, cst(a, e, -RT_HARD_OFFSET)), in, zero, gt), false);
    return;
  }
  case RT_OP_RELU6: { /* torch's hardtanh_backward: x <= 0 or x >= 6 ? 0 : g (NaN: g) */
    MlirValue zero = cst(a, e, 0.0);
    MlirValue in = sel(a, ew(a, "rt.ge", xv, cst(a, e, RT_HARD_CAP)), zero, g, gt);
    acc(a, x, sel(a, ew(a, "rt.le", xv, zero), zero, in, gt), false);
    return;
  }
  case RT_OP_MISH: { /* torch: g * (t + x * sigmoid(x) * (1 - t * t)), t = tanh(softplus(x)) */
    MlirValue one = cst(a, e, 1.0), t = un(a, "rt.tanh", un(a, "rt.softplus", xv));
    MlirValue sig =
        ew(a, "rt.div", one, ew(a, "rt.add", un(a, "rt.exp", un(a, "rt.neg", xv)), one));
    MlirValue d =
        ew(a, "rt.mul", ew(a, "rt.mul", xv, sig), ew(a, "rt.sub", one, ew(a, "rt.mul", t, t)));
    acc(a, x, ew(a, "rt.mul", g, ew(a, "rt.add", t, d)), false);
    return;
  }
  case RT_OP_TANH: { /* g * (1 - y*y) */
    MlirValue yy = ew(a, "rt.mul", out, out);
    acc(a, x, ew(a, "rt.mul", g, ew(a, "rt.sub", cst(a, e, 1.0), yy)), false);
    return;
  }
  case RT_OP_ERF: { /* g * (2/sqrt(pi) * exp(-x*x)) */
    MlirValue ex = un(a, "rt.exp", un(a, "rt.neg", ew(a, "rt.mul", xv, xv)));
    acc(a, x, ew(a, "rt.mul", g, ew(a, "rt.mul", ex, cst(a, e, 1.12837916709551257390))), false);
    return;
  }
  case RT_OP_SQRT: /* g / (2 y) */
    acc(a, x, ew(a, "rt.div", g, ew(a, "rt.mul", out, cst(a, e, 2.0))), false);
    return;
  case RT_OP_RSQRT: { /* torch: -0.5 * g * y^3 */
    MlirValue y3 = ew(a, "rt.mul", ew(a, "rt.mul", out, out), out);
    acc(a, x, ew(a, "rt.mul", ew(a, "rt.mul", g, cst(a, e, -0.5)), y3), false);
    return;
  }
  case RT_OP_ABS: { /* torch: g * sgn(x), sgn = 1, -1 or 0 (0 at 0 and at NaN) */
    MlirValue zero = cst(a, e, 0.0), lt = ew(a, "rt.lt", xv, zero);
    MlirValue neg = sel(a, lt, cst(a, e, -1.0), zero, gt), pos = ew(a, "rt.gt", xv, zero);
    MlirValue sgn = sel(a, pos, cst(a, e, 1.0), neg, gt);
    acc(a, x, ew(a, "rt.mul", g, sgn), false);
    return;
  }
  case RT_OP_SIN: acc(a, x, ew(a, "rt.mul", g, un(a, "rt.cos", xv)), false); return;
  case RT_OP_COS: /* torch: g * -sin(x) */
    acc(a, x, ew(a, "rt.mul", g, un(a, "rt.sin", xv)), true);
    return;
  case RT_OP_SELECT: {
    MlirValue zero = cst(a, e, 0.0), c = xv;
    if (d[1])
      acc(a, y, sel(a, c, g, zero, gt), false);
    if (d[2])
      acc(a, operand(a, i, 2), sel(a, c, zero, g, gt), false);
    return;
  }
  case RT_OP_CONVERT: {
    MlirType xt = vtype(xv);
    acc(a, x, mlirTypeEqual(xt, gt) ? g : emit(a, "rt.convert", 1, &g, xt, 0, NULL), false);
    return;
  }
  case RT_OP_BROADCAST: vjp_broadcast(a, i, g); return;
  case RT_OP_RESHAPE: acc(a, x, reshape(a, g, vtype(xv)), false); return;
  case RT_OP_TRANSPOSE: {
    int64_t perm[RT_MAX_RANK], inv[RT_MAX_RANK];
    int r = rt_get_i64_array(op, "perm", perm, RT_MAX_RANK);
    for (int k = 0; k < r; k++)
      inv[perm[k]] = k;
    acc(a, x, transpose(a, g, inv), false);
    return;
  }
  case RT_OP_SLICE: vjp_slice(a, i, g); return;
  case RT_OP_CONCAT: {
    int64_t dim = 0, s[RT_MAX_RANK], off = 0;
    rt_get_i64(op, "dim", &dim);
    for (int k = 0; k < nopnd; k++) {
      int v = operand(a, i, k);
      dims_of(vtype(a->vals[v]), s);
      if (diff_operand(a, i, k) && a->active[v])
        acc(a, v, nopnd == 1 ? g : slice1(a, g, (int)dim, off, off + s[dim]), false);
      off += s[dim];
    }
    return;
  }
  case RT_OP_SUM: {
    int64_t dims[RT_MAX_RANK];
    int n = rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
    acc(a, x, n ? unreduce(a, g, dims, n, vtype(xv)) : g, false);
    return;
  }
  case RT_OP_AMAX: vjp_amax(a, i, g); return;
  case RT_OP_GATHER: { /* d src = scatter_add(0 like src, idx, g); no gradient to idx */
    MlirValue o[3];
    o[0] = full_zero(a, vtype(xv));
    o[1] = yv;
    o[2] = g;
    acc(a, x, indexing(a, "rt.scatter_add", 3, o, op, vtype(xv)), false);
    return;
  }
  case RT_OP_SCATTER_ADD: { /* d base = g, d upd = gather(g, idx) */
    int u = operand(a, i, 2);
    if (d[0])
      acc(a, x, g, false);
    if (d[2]) {
      MlirValue o[2] = {g, yv};
      acc(a, u, indexing(a, "rt.gather", 2, o, op, vtype(a->vals[u])), false);
    }
    return;
  }
  case RT_OP_ARGMAX: /* not differentiable: diff_operand is false */ return;
  case RT_OP_EXTERN: remat_fatal("an active rt.extern passed check_active");
  case RT_OP_ATTENTION: remat_fatal("attention_vjp differentiates rt.attention");
  case RT_OP_ATTENTION_GRAD: remat_fatal("an active rt.attention_grad passed check_active");
  /* The three conv ops are bilinear and each is the adjoint of another in one operand
   * (docs/design.md, "Convolution"): y = conv(x, w) gives dx = conv_grad_input(g, w),
   * dw = conv_grad_weight(x, g); dx = conv_grad_input(dy, w) gives d dy = conv(g, w),
   * dw = conv_grad_weight(g, dy); dw = conv_grad_weight(x, dy) gives dx =
   * conv_grad_input(dy, g), d dy = conv(x, g). */
  case RT_OP_CONV:
    if (d[0])
      acc(a, x, conv(a, "rt.conv_grad_input", g, yv, op, vtype(xv)), false);
    if (d[1])
      acc(a, y, conv(a, "rt.conv_grad_weight", xv, g, op, vtype(yv)), false);
    return;
  case RT_OP_CONV_GRAD_INPUT:
    if (d[0])
      acc(a, x, conv(a, "rt.conv", g, yv, op, vtype(xv)), false);
    if (d[1])
      acc(a, y, conv(a, "rt.conv_grad_weight", g, xv, op, vtype(yv)), false);
    return;
  case RT_OP_CONV_GRAD_WEIGHT:
    if (d[0])
      acc(a, x, conv(a, "rt.conv_grad_input", yv, g, op, vtype(xv)), false);
    if (d[1])
      acc(a, y, conv(a, "rt.conv", xv, g, op, vtype(yv)), false);
    return;
  case RT_OP_MATMUL: /* a: g b^T, b: a^T g */
    if (d[0])
      acc(a, x, matmul_t(a, g, false, yv, true, vtype(xv)), false);
    if (d[1])
      acc(a, y, matmul_t(a, xv, true, g, false, vtype(yv)), false);
    return;
  case RT_OP_ALL_GATHER: /* the adjoint of a gather is a sum-scatter, and back */
    acc(a, x, collective(a, "rt.reduce_scatter", g, op, true, true, vtype(xv)), false);
    return;
  case RT_OP_REDUCE_SCATTER:
    acc(a, x, collective(a, "rt.all_gather", g, op, true, false, vtype(xv)), false);
    return;
  case RT_OP_ALL_REDUCE:
    acc(a, x, collective(a, "rt.all_reduce", g, op, false, true, vtype(xv)), false);
    return;
  case RT_OP_WAIT: acc(a, x, g, false); return;
  case RT_OP_LT:
  case RT_OP_LE:
  case RT_OP_GT:
  case RT_OP_GE:
  case RT_OP_EQ:
  case RT_OP_NE:
  case RT_OP_FULL:
  case RT_OP_IOTA:
  case RT_OP_UNIFORM_PHILOX:
  case RT_OP_NONE: break;
  }
  remat_fatal("an active result of an op without a VJP rule");
}

/* ---- the rewrite -------------------------------------------------------------------- */

static MlirLocation value_loc(const ad *a, int v) {
  return a->val_op[v] < 0 ? mlirValueGetLocation(a->vals[v])
                          : mlirOperationGetLocation(a->ops[a->val_op[v]]);
}

typedef struct stats {
  int ntangents, ngrads, nzero, ops;
} stats;

/* Differentiates one function in place. 0, or -1 after a diagnostic. */
static int differentiate(MlirOperation func, stats *st) {
  MlirStringRef fname = rt_func_name(func);
  ad a = {0};
  a.ctx = mlirOperationGetContext(func);
  a.func = func;
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(func, rt_str("rt.num_outputs")))) {
    rt_emit_error(func,
                  "--remat-autodiff: '@%.*s' has 'rt.num_outputs': it is a joint "
                  "function already",
                  (int)fname.length, fname.data);
    return -1;
  }
  int rc = load(&a);
  if (rc == 0)
    rc = read_wrt(&a);
  if (rc == 0)
    for (int i = 0; i < a.nargs; i++)
      if (rt_func_arg_has_attr(func, i, "rt.tangent")) {
        rt_emit_error(func,
                      "--remat-autodiff: argument #%d of '@%.*s' is marked "
                      "'rt.tangent': a forward function has no tangents",
                      i, (int)fname.length, fname.data);
        rc = -1;
        break;
      }
  int ntan = 0;
  for (int r = 0; rc == 0 && r < a.nret; r++)
    ntan += is_float_tensor(vtype(a.vals[a.ret_val[r]]));
  if (rc == 0 && ntan == 0) {
    rt_emit_error(func,
                  "--remat-autodiff: '@%.*s' has no floating-point tensor result: there "
                  "is nothing to differentiate",
                  (int)fname.length, fname.data);
    rc = -1;
  }
  if (rc == 0)
    rc = check_active(&a);
  if (rc == 0) {
    seed_consts(&a);
    for (int i = 0; i < a.nops; i++)
      cse_insert(&a, a.ops[i]);
  }
  if (rc) {
    ad_free(&a);
    return rc;
  }

  /* Tangent arguments, seeding the adjoints of the results they belong to. */
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, rt_str("arg_attrs"));
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, rt_str("res_attrs"));
  int nin = a.nargs + ntan, nres = a.nret + a.nwrt;
  MlirType *in = xcalloc(nin, sizeof *in), *res = xcalloc(nres, sizeof *res);
  MlirAttribute *in_dicts = xcalloc(nin, sizeof *in_dicts);
  MlirAttribute *res_dicts = xcalloc(nres, sizeof *res_dicts);
  MlirValue *ret = xcalloc(nres, sizeof *ret);
  for (int i = 0; i < a.nargs; i++) {
    in[i] = vtype(a.vals[i]);
    in_dicts[i] = rt_dict_at(a.ctx, arg_attrs, i);
  }
  MlirNamedAttribute tangent = rt_named_attr(a.ctx, "rt.tangent", mlirUnitAttrGet(a.ctx));
  a.loc = mlirOperationGetLocation(a.ret);
  for (int r = 0, t = a.nargs; r < a.nret; r++) {
    int v = a.ret_val[r];
    res[r] = vtype(a.vals[v]);
    res_dicts[r] = rt_dict_at(a.ctx, res_attrs, r);
    ret[r] = a.vals[v];
    if (!is_float_tensor(res[r]))
      continue;
    in[t] = res[r];
    in_dicts[t++] = mlirDictionaryAttrGet(a.ctx, 1, &tangent);
    MlirValue g = mlirBlockAddArgument(a.entry, res[r], value_loc(&a, v));
    if (a.active[v])
      acc(&a, v, g, false);
  }

  for (int i = a.nops - 1; i >= 0; i--)
    vjp(&a, i);

  for (int k = 0; k < a.nwrt; k++) {
    int v = a.wrt[k];
    res[a.nret + k] = vtype(a.vals[v]);
    res_dicts[a.nret + k] = mlirDictionaryAttrGet(a.ctx, 0, NULL);
    if (mlirValueIsNull(a.adj[v])) { /* no result depends on it */
      a.loc = value_loc(&a, v);
      a.adj[v] = full_zero(&a, vtype(a.vals[v]));
      st->nzero++;
    } else if (a.negated[v]) {
      a.loc = a.neg_loc[v];
      a.adj[v] = un(&a, "rt.neg", a.adj[v]);
      a.negated[v] = false;
    }
    ret[a.nret + k] = a.adj[v];
  }
  mlirOperationSetOperands(a.ret, nres, ret);

  MlirType fty = mlirFunctionTypeGet(a.ctx, nin, in, nres, res);
  mlirOperationSetAttributeByName(func, rt_str("function_type"), mlirTypeAttrGet(fty));
  mlirOperationSetAttributeByName(func, rt_str("arg_attrs"),
                                  mlirArrayAttrGet(a.ctx, nin, in_dicts));
  bool any_res = false;
  for (int r = 0; r < nres; r++)
    any_res |= mlirDictionaryAttrGetNumElements(res_dicts[r]) > 0;
  if (any_res)
    mlirOperationSetAttributeByName(func, rt_str("res_attrs"),
                                    mlirArrayAttrGet(a.ctx, nres, res_dicts));
  mlirOperationSetAttributeByName(func, rt_str("rt.num_outputs"),
                                  mlirIntegerAttrGet(mlirIntegerTypeGet(a.ctx, 64), a.nret));
  mlirOperationRemoveAttributeByName(func, rt_str("rt.autodiff"));
  st->ntangents = ntan;
  st->ngrads = a.nwrt;
  st->ops = a.emitted;
  free(in);
  free(res);
  free(in_dicts);
  free(res_dicts);
  free(ret);
  ad_free(&a);
  return 0;
}

/* ---- the pass ----------------------------------------------------------------------- */

static bool marked(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(func, rt_str("rt.autodiff")));
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const RematAutodiffOptions *o = ud;
  remat_func_list funcs = remat_pass_funcs(module, marked);
  int failed = 0;
  FILE *rep = remat_report_open(o->report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-autodiff: cannot open the report file '%s'", o->report);
    mlirExternalPassSignalFailure(pass);
    free(funcs.items);
    return;
  }
  for (size_t i = 0; i < funcs.n; i++) {
    MlirStringRef name = rt_func_name(funcs.items[i]); /* printed whole, any length */
    stats st = {0};
    if (differentiate(funcs.items[i], &st)) {
      mlirExternalPassSignalFailure(pass);
      break;
    }
    if (rep)
      fprintf(rep,
              "remat-autodiff: @%.*s -> joint function\n  tangents: %d\n  gradients: %d "
              "(zero: %d)\n  backward ops: %d\n",
              (int)name.length, name.data, st.ntangents, st.ngrads, st.nzero, st.ops);
  }
  /* An empty report would read as if the pass had not run. */
  if (rep && funcs.n == 0)
    fprintf(rep, "remat-autodiff: no function marked rt.autodiff: nothing differentiated\n");
  remat_report_close(rep);
  free(funcs.items);
}

static MlirPass create(const void *options) {
  return remat_pass_create(&remat_autodiff_pass, "RematAutodiff", run, options,
                           sizeof(RematAutodiffOptions));
}

REMAT_PASS_INFO(autodiff, Autodiff, REMAT_AUTODIFF_OPTIONS,
                "reverse-mode autodiff: each rt.autodiff function becomes a joint function",
                contract, NULL, create)
