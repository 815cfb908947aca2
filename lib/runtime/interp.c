/* interp.c: the reference interpreter (see interp.h). */
#include "runtime/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "runtime/ops.h"

#define MAX_CALL_DEPTH 64

/* ---- the values of one function activation ------------------------------------------ */

typedef struct slot {
  const void *key; /* MlirValue.ptr */
  rt_buffer *buf;
  bool owned;
} slot;

typedef struct frame {
  slot *slots;
  size_t cap, count;
} frame;

static size_t hash_ptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x;
}

static void frame_put(frame *f, MlirValue v, rt_buffer *buf, bool owned);

static void frame_grow(frame *f) {
  slot *old = f->slots;
  size_t oldcap = f->cap;
  f->cap = oldcap ? oldcap * 2 : 64;
  f->slots = calloc(f->cap, sizeof *f->slots);
  if (!f->slots)
    abort();
  f->count = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].key)
      frame_put(f, (MlirValue){old[i].key}, old[i].buf, old[i].owned);
  free(old);
}

static void frame_put(frame *f, MlirValue v, rt_buffer *buf, bool owned) {
  if (2 * (f->count + 1) > f->cap)
    frame_grow(f);
  size_t i = hash_ptr(v.ptr) & (f->cap - 1);
  while (f->slots[i].key && f->slots[i].key != v.ptr)
    i = (i + 1) & (f->cap - 1);
  if (!f->slots[i].key)
    f->count++;
  else if (f->slots[i].owned)
    rt_buffer_free(f->slots[i].buf);
  f->slots[i] = (slot){v.ptr, buf, owned};
}

static rt_buffer *frame_get(const frame *f, MlirValue v) {
  if (!f->cap)
    return NULL;
  size_t i = hash_ptr(v.ptr) & (f->cap - 1);
  while (f->slots[i].key) {
    if (f->slots[i].key == v.ptr)
      return f->slots[i].buf;
    i = (i + 1) & (f->cap - 1);
  }
  return NULL;
}

static void frame_free(frame *f) {
  for (size_t i = 0; i < f->cap; i++)
    if (f->slots[i].key && f->slots[i].owned)
      rt_buffer_free(f->slots[i].buf);
  free(f->slots);
}

/* ---- helpers ------------------------------------------------------------------------ */

typedef struct interp {
  MlirOperation module;
  const rt_interp_options *opts;
  int depth;
} interp;

void rt_buffers_free(rt_buffer **bufs, int n) {
  if (!bufs)
    return;
  for (int i = 0; i < n; i++)
    rt_buffer_free(bufs[i]);
  free(bufs);
}

rt_buffer *rt_interp_buffer_for_type(MlirType type, bool promote_f64) {
  rt_buffer *b = rt_buffer_for_type(type);
  if (b && promote_f64 && rt_elem_is_float(b->elem) && b->elem != RT_F64) {
    rt_buffer *p = rt_buffer_new(RT_F64, b->is_scalar, b->rank, b->dims);
    rt_buffer_free(b);
    b = p;
  }
  return b;
}

static bool name_is(MlirOperation op, const char *name) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

MlirOperation rt_interp_lookup(MlirOperation module, const char *name) {
  MlirRegion r = mlirOperationGetRegion(module, 0);
  MlirBlock b = mlirRegionGetFirstBlock(r);
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (name_is(op, "func.func") && rt_str_eq(rt_func_name(op), name))
      return op;
  return (MlirOperation){NULL};
}

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* A scalar attribute (float, integer, bool) as a double and an int64. */
static bool scalar_attr(MlirAttribute a, double *f, int64_t *i) {
  if (mlirAttributeIsAFloat(a)) {
    *f = mlirFloatAttrGetValueDouble(a);
    *i = (int64_t)0;
    return true;
  }
  if (mlirAttributeIsABool(a)) {
    *i = mlirBoolAttrGetValue(a);
    *f = (double)*i;
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    MlirType t = mlirAttributeGetType(a);
    if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1)
      *i = (int64_t)(mlirIntegerAttrGetValueUInt(a) & 1);
    else
      *i = mlirIntegerAttrGetValueInt(a);
    *f = (double)*i;
    return true;
  }
  return false;
}

/* arith.constant / rt.full: fills out from a scalar, splat or dense elements attribute. */
static int fill_from_attr(MlirOperation op, MlirAttribute a, rt_buffer *out) {
  double f;
  int64_t i;
  if (mlirAttributeIsNull(a)) {
    rt_emit_error(op, "missing 'value' attribute");
    return -1;
  }
  if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a))
    a = mlirDenseElementsAttrGetSplatValue(a);
  if (scalar_attr(a, &f, &i)) {
    rt_fill(out, f, i);
    return 0;
  }
  if (mlirAttributeIsAElements(a) && mlirElementsAttrGetNumElements(a) == out->numel) {
    uint64_t idx[RT_MAX_RANK];
    for (int64_t e = 0; e < out->numel; e++) {
      int64_t rest = e;
      for (int k = out->rank - 1; k >= 0; k--) {
        idx[k] = (uint64_t)(rest % out->dims[k]);
        rest /= out->dims[k];
      }
      MlirAttribute v = mlirElementsAttrGetValue(a, out->rank, idx);
      if (!scalar_attr(v, &f, &i))
        break;
      if (rt_elem_is_float(out->elem))
        rt_buffer_set_f(out, e, f);
      else
        rt_buffer_set_i(out, e, i);
      if (e == out->numel - 1)
        return 0;
    }
  }
  rt_emit_error(op, "unsupported constant value (expected a float, integer or dense "
                    "elements attribute)");
  return -1;
}

static rt_reduce_kind reduce_kind(MlirOperation op) {
  MlirAttribute a = attr(op, "reduce");
  MlirStringRef s = mlirStringAttrGetValue(a);
  return rt_str_eq(s, "max") ? RT_REDUCE_MAX : rt_str_eq(s, "min") ? RT_REDUCE_MIN
                                                                   : RT_REDUCE_SUM;
}

/* ---- ops ---------------------------------------------------------------------------- */

static int call_func(interp *in, MlirOperation func, rt_buffer *const *args, int nargs,
                     rt_buffer ***outs, int *nouts, MlirOperation at);

/* The elementwise op an rt or arith op names; -1 for none. */
static int ew_of(MlirOperation op, rt_op_id id) {
  switch (id) {
  case RT_OP_ADD: return RT_EW_ADD;
  case RT_OP_SUB: return RT_EW_SUB;
  case RT_OP_MUL: return RT_EW_MUL;
  case RT_OP_DIV: return RT_EW_DIV;
  case RT_OP_MAX: return RT_EW_MAX;
  case RT_OP_MIN: return RT_EW_MIN;
  case RT_OP_POW: return RT_EW_POW;
  case RT_OP_NEG: return RT_EW_NEG;
  case RT_OP_EXP: return RT_EW_EXP;
  case RT_OP_LOG: return RT_EW_LOG;
  case RT_OP_TANH: return RT_EW_TANH;
  case RT_OP_ERF: return RT_EW_ERF;
  case RT_OP_SQRT: return RT_EW_SQRT;
  case RT_OP_RSQRT: return RT_EW_RSQRT;
  case RT_OP_ABS: return RT_EW_ABS;
  case RT_OP_SIN: return RT_EW_SIN;
  case RT_OP_COS: return RT_EW_COS;
  case RT_OP_SELECT: return RT_EW_SELECT;
  default: break;
  }
  static const struct {
    const char *name;
    rt_ew ew;
  } arith[] = {
      {"arith.addf", RT_EW_ADD},     {"arith.subf", RT_EW_SUB},     {"arith.mulf", RT_EW_MUL},
      {"arith.divf", RT_EW_DIV},     {"arith.remf", RT_EW_REM},     {"arith.negf", RT_EW_NEG},
      {"arith.maximumf", RT_EW_MAX}, {"arith.minimumf", RT_EW_MIN}, {"arith.addi", RT_EW_ADD},
      {"arith.subi", RT_EW_SUB},     {"arith.muli", RT_EW_MUL},     {"arith.divsi", RT_EW_DIV},
      {"arith.remsi", RT_EW_REM},    {"arith.andi", RT_EW_AND},     {"arith.ori", RT_EW_OR},
      {"arith.xori", RT_EW_XOR},     {"arith.maxsi", RT_EW_MAX},    {"arith.minsi", RT_EW_MIN},
      {"arith.select", RT_EW_SELECT},
  };
  for (size_t k = 0; k < sizeof arith / sizeof *arith; k++)
    if (name_is(op, arith[k].name))
      return (int)arith[k].ew;
  return -1;
}

static rt_cmp cmp_of_rt(rt_op_id id, bool is_float) {
  switch (id) {
  case RT_OP_LT: return is_float ? RT_CMP_OLT : RT_CMP_SLT;
  case RT_OP_LE: return is_float ? RT_CMP_OLE : RT_CMP_SLE;
  case RT_OP_GT: return is_float ? RT_CMP_OGT : RT_CMP_SGT;
  case RT_OP_GE: return is_float ? RT_CMP_OGE : RT_CMP_SGE;
  case RT_OP_EQ: return is_float ? RT_CMP_OEQ : RT_CMP_EQ;
  default: return is_float ? RT_CMP_UNE : RT_CMP_NE;
  }
}

/* The element type the operands of a compare are read in: the first tensor operand's
 * (a scalar converts to it), else the first operand's. */
static rt_elem compare_domain(rt_buffer *const *args, int n) {
  for (int k = 0; k < n; k++)
    if (!args[k]->is_scalar)
      return args[k]->elem;
  return args[0]->elem;
}

static bool is_cast(MlirOperation op, bool *src_unsigned) {
  static const char *signed_casts[] = {"arith.extf",  "arith.truncf", "arith.sitofp",
                                       "arith.fptosi", "arith.extsi", "arith.trunci",
                                       "arith.index_cast"};
  static const char *unsigned_casts[] = {"arith.uitofp", "arith.extui",
                                         "arith.index_castui"};
  for (size_t k = 0; k < sizeof signed_casts / sizeof *signed_casts; k++)
    if (name_is(op, signed_casts[k]))
      return *src_unsigned = false, true;
  for (size_t k = 0; k < sizeof unsigned_casts / sizeof *unsigned_casts; k++)
    if (name_is(op, unsigned_casts[k]))
      return *src_unsigned = true, true;
  return false;
}

/* Executes one op with operand buffers ARGS into freshly allocated RES. */
static int exec_op(interp *in, MlirOperation op, rt_buffer *const *args, int nargs,
                   rt_buffer **res, int nres) {
  rt_op_id id = rt_op_lookup(op);
  int64_t a64[RT_MAX_RANK], b64[RT_MAX_RANK];
  int ew = ew_of(op, id);
  bool src_unsigned;
  if (ew >= 0) {
    if (nargs != rt_ew_arity((rt_ew)ew) || nres != 1)
      goto bad_arity;
    rt_ew_apply((rt_ew)ew, res[0], (const rt_buffer *const *)args);
    return 0;
  }
  if (rt_op_kind_of(id) == RT_KIND_COMPARE) {
    rt_elem dom = compare_domain(args, nargs);
    rt_cmp_apply(cmp_of_rt(id, rt_elem_is_float(dom)), dom, res[0], args[0], args[1]);
    return 0;
  }
  if (name_is(op, "arith.cmpf") || name_is(op, "arith.cmpi")) {
    int64_t p;
    if (!rt_get_i64(op, "predicate", &p) || p < 0 || p > 15) {
      rt_emit_error(op, "invalid comparison predicate");
      return -1;
    }
    if (name_is(op, "arith.cmpi")) {
      if (p > 9) {
        rt_emit_error(op, "invalid comparison predicate");
        return -1;
      }
      p += RT_CMP_EQ;
    }
    rt_cmp_apply((rt_cmp)p, args[0]->elem, res[0], args[0], args[1]);
    return 0;
  }
  if (is_cast(op, &src_unsigned)) {
    rt_convert(res[0], args[0], src_unsigned);
    return 0;
  }
  if (name_is(op, "arith.constant"))
    return fill_from_attr(op, attr(op, "value"), res[0]);
  switch (id) {
  case RT_OP_CONVERT: rt_convert(res[0], args[0], false); return 0;
  case RT_OP_FULL: return fill_from_attr(op, attr(op, "value"), res[0]);
  case RT_OP_BROADCAST:
    rt_get_i64_array(op, "dims", a64, RT_MAX_RANK);
    rt_broadcast(res[0], args[0], a64);
    return 0;
  case RT_OP_RESHAPE:
    memcpy(res[0]->data, args[0]->data, (size_t)res[0]->numel * rt_elem_size(res[0]->elem));
    return 0;
  case RT_OP_TRANSPOSE:
    rt_get_i64_array(op, "perm", a64, RT_MAX_RANK);
    rt_transpose(res[0], args[0], a64);
    return 0;
  case RT_OP_SLICE:
    rt_get_i64_array(op, "start", a64, RT_MAX_RANK);
    rt_get_i64_array(op, "stride", b64, RT_MAX_RANK);
    rt_slice(res[0], args[0], a64, b64);
    return 0;
  case RT_OP_CONCAT: {
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    rt_concat(res[0], (const rt_buffer *const *)args, nargs, (int)dim);
    return 0;
  }
  case RT_OP_IOTA: {
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    rt_iota(res[0], (int)dim);
    return 0;
  }
  case RT_OP_SUM:
  case RT_OP_AMAX: {
    int n = rt_get_i64_array(op, "dims", a64, RT_MAX_RANK);
    rt_reduce(res[0], args[0], a64, n < 0 ? 0 : n,
              id == RT_OP_SUM ? RT_REDUCE_SUM : RT_REDUCE_MAX);
    return 0;
  }
  case RT_OP_MATMUL: rt_matmul(res[0], args[0], args[1], in->opts->matmul_block); return 0;
  case RT_OP_UNIFORM_PHILOX: {
    double lo = 0, hi = 1;
    rt_get_f64(op, "lo", &lo);
    rt_get_f64(op, "hi", &hi);
    rt_uniform_philox(res[0], (uint64_t)rt_buffer_get_i(args[0], 0),
                      (uint64_t)rt_buffer_get_i(args[1], 0), lo, hi);
    return 0;
  }
  case RT_OP_ALL_GATHER:
  case RT_OP_REDUCE_SCATTER:
  case RT_OP_ALL_REDUCE: {
    int64_t group = 1, dim = 0;
    rt_get_i64(op, "group_size", &group);
    rt_get_i64(op, "dim", &dim);
    if (id == RT_OP_ALL_GATHER)
      rt_all_gather(res[0], args[0], group, (int)dim);
    else if (id == RT_OP_ALL_REDUCE)
      rt_all_reduce(res[0], args[0], group, reduce_kind(op));
    else
      rt_reduce_scatter(res[0], args[0], group, (int)dim, reduce_kind(op));
    return 0;
  }
  case RT_OP_WAIT:
    memcpy(res[0]->data, args[0]->data, (size_t)res[0]->numel * rt_elem_size(res[0]->elem));
    return 0;
  default: break;
  }
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  rt_emit_error(op, "cannot execute '%.*s': not an rt, arith or func operation the runtime "
                    "knows",
                (int)name.length, name.data);
  return -1;
bad_arity:
  rt_emit_error(op, "unexpected number of operands or results");
  return -1;
}

static int exec_call(interp *in, MlirOperation op, rt_buffer *const *args, int nargs,
                     rt_buffer **res, int nres) {
  MlirAttribute callee = attr(op, "callee");
  if (!mlirAttributeIsAFlatSymbolRef(callee)) {
    rt_emit_error(op, "func.call without a flat 'callee' symbol");
    return -1;
  }
  MlirStringRef cs = mlirFlatSymbolRefAttrGetValue(callee);
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)cs.length, cs.data);
  MlirOperation f = rt_interp_lookup(in->module, name);
  if (mlirOperationIsNull(f) || mlirBlockIsNull(rt_func_entry_block(f))) {
    rt_emit_error(op, "call to '@%s', which is not a function defined in this module", name);
    return -1;
  }
  if (in->opts->call_kernel && !mlirAttributeIsNull(attr(f, "rt.kernel")))
    return in->opts->call_kernel(in->opts->ctx, op, f, (const rt_buffer *const *)args, nargs,
                                 res, nres);
  rt_buffer **outs = NULL;
  int nouts = 0;
  if (call_func(in, f, args, nargs, &outs, &nouts, op))
    return -1;
  if (nouts != nres) {
    rt_buffers_free(outs, nouts);
    rt_emit_error(op, "'@%s' returned %d values, the call expects %d", name, nouts, nres);
    return -1;
  }
  for (int k = 0; k < nres; k++) {
    if (!rt_buffer_same_type(outs[k], res[k])) {
      rt_buffers_free(outs, nouts);
      rt_emit_error(op, "result #%d of '@%s' does not match the call's type", k, name);
      return -1;
    }
    memcpy(res[k]->data, outs[k]->data, (size_t)res[k]->numel * rt_elem_size(res[k]->elem));
  }
  rt_buffers_free(outs, nouts);
  return 0;
}

/* Checks that ARGS match FUNC's argument types; emits at AT (the call) or FUNC. */
static int check_args(interp *in, MlirOperation func, rt_buffer *const *args, int nargs,
                      MlirOperation at) {
  MlirBlock entry = rt_func_entry_block(func);
  MlirStringRef fname = rt_func_name(func);
  intptr_t want = mlirBlockGetNumArguments(entry);
  if (want != nargs) {
    rt_emit_error(at, "'@%.*s' takes %ld arguments, got %d", (int)fname.length, fname.data,
                  (long)want, nargs);
    return -1;
  }
  for (int k = 0; k < nargs; k++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, k));
    rt_buffer *expect = rt_interp_buffer_for_type(t, in->opts->promote_f64);
    char a[128], b[128];
    if (!expect) {
      rt_emit_error(at, "argument #%d of '@%.*s' has a type the runtime does not support: "
                        "'%s'",
                    k, (int)fname.length, fname.data, rt_type_str(t, a, sizeof a));
      return -1;
    }
    bool ok = rt_buffer_same_type(expect, args[k]);
    if (!ok)
      rt_emit_error(at, "argument #%d of '@%.*s' must be '%s', got '%s'", k,
                    (int)fname.length, fname.data, rt_buffer_type_str(expect, a, sizeof a),
                    rt_buffer_type_str(args[k], b, sizeof b));
    rt_buffer_free(expect);
    if (!ok)
      return -1;
  }
  return 0;
}

static int call_func(interp *in, MlirOperation func, rt_buffer *const *args, int nargs,
                     rt_buffer ***outs, int *nouts, MlirOperation at) {
  MlirBlock entry = rt_func_entry_block(func);
  if (mlirBlockIsNull(entry)) {
    rt_emit_error(at, "'@%.*s' is a declaration without a body", (int)rt_func_name(func).length,
                  rt_func_name(func).data);
    return -1;
  }
  if (check_args(in, func, args, nargs, at))
    return -1;
  if (in->depth >= MAX_CALL_DEPTH) {
    rt_emit_error(at, "calls nested deeper than %d (recursion is not supported)",
                  MAX_CALL_DEPTH);
    return -1;
  }
  in->depth++;
  frame fr = {NULL, 0, 0};
  int rc = 0;
  for (int k = 0; k < nargs; k++)
    frame_put(&fr, mlirBlockGetArgument(entry, k), args[k], false);
  enum { MAXV = 256 };
  rt_buffer *ops[MAXV], *res[MAXV];
  bool returned = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op) && !rc;
       op = mlirOperationGetNextInBlock(op)) {
    intptr_t no = mlirOperationGetNumOperands(op), nr = mlirOperationGetNumResults(op);
    if (no > MAXV || nr > MAXV) {
      rt_emit_error(op, "more than %d operands or results", MAXV);
      rc = -1;
      break;
    }
    for (intptr_t k = 0; k < no; k++) {
      ops[k] = frame_get(&fr, mlirOperationGetOperand(op, k));
      if (!ops[k]) {
        rt_emit_error(op, "operand #%ld has no value (defined outside the entry block?)",
                      (long)k);
        rc = -1;
      }
    }
    if (rc)
      break;
    if (name_is(op, "func.return")) {
      *outs = calloc((size_t)no + 1, sizeof **outs);
      if (!*outs)
        abort();
      for (intptr_t k = 0; k < no; k++)
        (*outs)[k] = rt_buffer_clone(ops[k]);
      *nouts = (int)no;
      returned = true;
      break;
    }
    if (mlirOperationGetNumRegions(op) > 0) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      rt_emit_error(op, "cannot execute '%.*s': operations with regions are not supported",
                    (int)name.length, name.data);
      rc = -1;
      break;
    }
    for (intptr_t k = 0; k < nr; k++) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, k));
      res[k] = rt_interp_buffer_for_type(t, in->opts->promote_f64);
      if (!res[k]) {
        char tb[128];
        rt_emit_error(op, "result #%ld has a type the runtime does not support: '%s'",
                      (long)k, rt_type_str(t, tb, sizeof tb));
        rc = -1;
        for (intptr_t j = 0; j < k; j++)
          rt_buffer_free(res[j]);
        break;
      }
    }
    if (rc)
      break;
    int done = 0;
    if (in->opts->host_op)
      done = in->opts->host_op(in->opts->ctx, op, ops, (int)no, res, (int)nr);
    if (done < 0)
      rc = -1;
    else if (done == 0 && name_is(op, "func.call"))
      rc = exec_call(in, op, ops, (int)no, res, (int)nr);
    else if (done == 0)
      rc = exec_op(in, op, ops, (int)no, res, (int)nr);
    if (!rc && in->opts->trace)
      in->opts->trace(in->opts->trace_ctx, op, res, (int)nr);
    for (intptr_t k = 0; k < nr; k++) {
      if (rc)
        rt_buffer_free(res[k]);
      else
        frame_put(&fr, mlirOperationGetResult(op, k), res[k], true);
    }
  }
  if (!rc && !returned) {
    rt_emit_error(func, "function ends without func.return");
    rc = -1;
  }
  frame_free(&fr);
  in->depth--;
  return rc;
}

int rt_interp_run(MlirOperation module, MlirOperation func, const rt_interp_options *opts,
                  rt_buffer *const *inputs, int num_inputs, rt_buffer ***outputs,
                  int *num_outputs) {
  rt_interp_options none = {.promote_f64 = false};
  interp in = {module, opts ? opts : &none, 0};
  *outputs = NULL;
  *num_outputs = 0;
  return call_func(&in, func, inputs, num_inputs, outputs, num_outputs, func);
}
