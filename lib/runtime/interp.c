/* interp.c: the reference interpreter (see interp.h). */
#include "interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "collective.h"
#include "ops.h"
#include "walk.h"

/* ---- the values of one function activation ------------------------------------------ */

typedef struct slot {
  rtr_buffer *buf;
  bool owned;
  void *req;      /* a collective's request until its result is complete (collective.h) */
  uint64_t bytes; /* counted in the run's rtr_peak while the value is live */
} slot;

/* Values map to slots through the pointer map (MlirValue.ptr -> slot index). */
typedef struct frame {
  ptr_map index;
  slot *slots;
  size_t cap, count;
} frame;

static void frame_put(frame *f, MlirValue v, rtr_buffer *buf, bool owned) {
  int i = ptr_map_get(&f->index, v.ptr);
  if (i >= 0) {
    if (f->slots[i].owned)
      rtr_buffer_free(f->slots[i].buf);
    f->slots[i] = (slot){buf, owned, NULL, 0};
    return;
  }
  XGROW(f->slots, f->count, f->cap, 64);
  f->slots[f->count] = (slot){buf, owned, NULL, 0};
  ptr_map_put(&f->index, v.ptr, (int)f->count++);
}

static rtr_buffer *frame_get(const frame *f, MlirValue v) {
  int i = ptr_map_get(&f->index, v.ptr);
  return i < 0 ? NULL : f->slots[i].buf;
}

/* ---- helpers ------------------------------------------------------------------------ */

typedef struct interp {
  MlirOperation module;
  const rtr_interp_options *opts;
  int depth;
  rtr_coll *coll; /* opts->coll, or `local` */
  rtr_coll local;
  uint64_t workspace; /* bytes the op that ran last allocated while it ran (attention's) */
} interp;

/* Completes the collective whose result is slot I, if it is still in flight: a
 * collective completes at its rt.wait, or at any earlier use of its result (a use reads
 * the data, so it may not see a partial result), or when its function ends. */
static int complete(interp *in, frame *f, size_t i, MlirOperation at) {
  if (!f->slots[i].req)
    return 0;
  char *err = NULL;
  void *req = f->slots[i].req;
  f->slots[i].req = NULL;
  int rc = in->coll->wait(in->coll, req, &err) ? -1 : 0;
  if (rc)
    rt_emit_error(at, "%s", err ? err : "");
  free(err);
  return rc;
}

/* Releases a frame; collectives still in flight (never used) complete first, in the
 * order they started, so no buffer is freed under a request. */
static int frame_free(interp *in, frame *f, MlirOperation at) {
  int rc = 0;
  for (size_t i = 0; i < f->count; i++)
    if (complete(in, f, i, at))
      rc = -1;
  for (size_t i = 0; i < f->count; i++) {
    if (in->opts->peak)
      in->opts->peak->live -= f->slots[i].bytes;
    if (f->slots[i].owned)
      rtr_buffer_free(f->slots[i].buf);
  }
  free(f->slots);
  ptr_map_free(&f->index);
  return rc;
}

void rtr_buffers_free(rtr_buffer **bufs, int n) {
  if (!bufs)
    return;
  for (int i = 0; i < n; i++)
    rtr_buffer_free(bufs[i]);
  free(bufs);
}

rtr_buffer *rtr_interp_buffer_for_type(MlirType type, bool promote_f64) {
  rtr_buffer *b = rtr_buffer_for_type(type);
  if (b && promote_f64 && rtr_elem_is_float(b->elem) && b->elem != RTR_F64) {
    rtr_buffer *p = rtr_buffer_new(RTR_F64, b->is_scalar, b->rank, b->dims);
    rtr_buffer_free(b);
    b = p;
  }
  return b;
}

/* Emits the size error of one value of type T at LOC; 1 if it was too big, else 0. */
static int check_size(MlirType t, MlirLocation loc, const char *what, intptr_t k) {
  rtr_buffer d;
  if (!rtr_buffer_describe(t, &d) || rtr_buffer_bytes(d.elem, d.rank, d.dims) >= 0)
    return 0; /* unsupported types are reported where they are run */
  char msg[320];
  rt_emit_error_at(loc, "%s #%ld: %s", what, (long)k, rtr_buffer_type_problem(t, msg, sizeof msg));
  return 1;
}

int rtr_check_sizes(MlirOperation module) {
  int bad = 0;
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f)) {
    MlirBlock entry = rt_func_entry_block(f);
    for (intptr_t k = 0; k < mlirBlockGetNumArguments(entry); k++) {
      MlirValue a = mlirBlockGetArgument(entry, k);
      bad += check_size(mlirValueGetType(a), mlirValueGetLocation(a), "argument", k);
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      for (intptr_t k = 0; k < mlirOperationGetNumResults(op); k++)
        bad += check_size(mlirValueGetType(mlirOperationGetResult(op, k)),
                          mlirOperationGetLocation(op), "result", k);
  }
  return bad ? -1 : 0;
}

int rtr_check_no_extern(MlirOperation module) {
  MlirOperation op = rt_find_op(module, RT_OP_EXTERN);
  if (mlirOperationIsNull(op))
    return 0;
  MlirStringRef name = rt_op_label(op);
  rt_emit_error(op, "remat-run cannot execute 'rt.extern' (%.*s): remat does not model it",
                (int)name.length, name.data);
  return -1;
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

/* A scalar attribute A as the one-element f64 or i64 buffer *V over *F or *I that
 * rtr_convert reads it from (an attribute's value converts as rt.convert converts);
 * false for another attribute. */
static bool attr_value(MlirAttribute a, double *f, int64_t *i, rtr_buffer *v) {
  if (!scalar_attr(a, f, i))
    return false;
  bool fl = mlirAttributeIsAFloat(a);
  *v = (rtr_buffer){.elem = fl ? RTR_F64 : RTR_I64,
                    .is_scalar = true,
                    .numel = 1,
                    .data = fl ? (void *)f : (void *)i};
  return true;
}

/* arith.constant / rt.full: fills out from a scalar, splat or dense elements attribute. */
static int fill_from_attr(MlirOperation op, MlirAttribute a, rtr_buffer *out) {
  double f;
  int64_t i;
  rtr_buffer v;
  if (mlirAttributeIsNull(a)) {
    rt_emit_error(op, "missing 'value' attribute");
    return -1;
  }
  if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a))
    a = mlirDenseElementsAttrGetSplatValue(a);
  if (attr_value(a, &f, &i, &v)) {
    rtr_convert(out, &v, false); /* one element: every element of out */
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
      if (!attr_value(mlirElementsAttrGetValue(a, out->rank, idx), &f, &i, &v))
        break;
      rtr_convert_elem(out, e, &v, 0, false);
      if (e == out->numel - 1)
        return 0;
    }
  }
  rt_emit_error(op, "unsupported constant value (expected a float, integer or dense "
                    "elements attribute)");
  return -1;
}

/* ---- ops ---------------------------------------------------------------------------- */

static int call_func(interp *in, MlirOperation func, rtr_buffer *const *args, int nargs,
                     rtr_buffer ***outs, int *nouts, MlirOperation at);

/* The elementwise operation an arith op names and its number of operands (*arity); -1
 * for none. (rt ops take theirs from the op table.) */
static int arith_ew(MlirOperation op, int *arity) {
  static const struct {
    const char *name;
    rtr_ew ew;
    int arity;
  } arith[] = {
      {"arith.addf", RTR_EW_ADD, 2},      {"arith.subf", RTR_EW_SUB, 2},
      {"arith.mulf", RTR_EW_MUL, 2},      {"arith.divf", RTR_EW_DIV, 2},
      {"arith.remf", RTR_EW_REM, 2},      {"arith.negf", RTR_EW_NEG, 1},
      {"arith.maximumf", RTR_EW_MAX, 2},  {"arith.minimumf", RTR_EW_MIN, 2},
      {"arith.addi", RTR_EW_ADD, 2},      {"arith.subi", RTR_EW_SUB, 2},
      {"arith.muli", RTR_EW_MUL, 2},      {"arith.divsi", RTR_EW_DIV, 2},
      {"arith.remsi", RTR_EW_REM, 2},     {"arith.andi", RTR_EW_AND, 2},
      {"arith.ori", RTR_EW_OR, 2},        {"arith.xori", RTR_EW_XOR, 2},
      {"arith.maxsi", RTR_EW_MAX, 2},     {"arith.minsi", RTR_EW_MIN, 2},
      {"arith.select", RTR_EW_SELECT, 3},
  };
  for (size_t k = 0; k < sizeof arith / sizeof *arith; k++)
    if (rt_op_named(op, arith[k].name))
      return *arity = arith[k].arity, (int)arith[k].ew;
  return -1;
}

static int apply_ew(MlirOperation op, rtr_ew ew, int arity, rtr_buffer *const *args, int nargs,
                    rtr_buffer **res, int nres) {
  if (nargs != arity || nres != 1) {
    rt_emit_error(op, "unexpected number of operands or results");
    return -1;
  }
  rtr_ew_apply(ew, nargs, res[0], (const rtr_buffer *const *)args);
  return 0;
}

static rtr_cmp cmp_of_rt(rt_op_id id, bool is_float) {
  switch (id) {
  case RT_OP_LT: return is_float ? RTR_CMP_OLT : RTR_CMP_SLT;
  case RT_OP_LE: return is_float ? RTR_CMP_OLE : RTR_CMP_SLE;
  case RT_OP_GT: return is_float ? RTR_CMP_OGT : RTR_CMP_SGT;
  case RT_OP_GE: return is_float ? RTR_CMP_OGE : RTR_CMP_SGE;
  case RT_OP_EQ: return is_float ? RTR_CMP_OEQ : RTR_CMP_EQ;
  case RT_OP_NE: return is_float ? RTR_CMP_UNE : RTR_CMP_NE;
#define RT_CMP(...)
#define RT_OP(ID, ...) case RT_OP_##ID:
#include "rt_ops.def"
  case RT_OP_NONE: break;
  }
  remat_fatal("'%s' is not a comparison", rt_op_name(id));
}

/* The element type the operands of a compare are read in: the first tensor operand's
 * (a scalar converts to it), else the first operand's. */
static rtr_elem compare_domain(rtr_buffer *const *args, int n) {
  for (int k = 0; k < n; k++)
    if (!args[k]->is_scalar)
      return args[k]->elem;
  return args[0]->elem;
}

static bool is_cast(MlirOperation op, bool *src_unsigned) {
  static const char *signed_casts[] = {"arith.extf",      "arith.truncf", "arith.sitofp",
                                       "arith.fptosi",    "arith.extsi",  "arith.trunci",
                                       "arith.index_cast"};
  static const char *unsigned_casts[] = {"arith.uitofp", "arith.extui", "arith.index_castui"};
  for (size_t k = 0; k < sizeof signed_casts / sizeof *signed_casts; k++)
    if (rt_op_named(op, signed_casts[k]))
      return *src_unsigned = false, true;
  for (size_t k = 0; k < sizeof unsigned_casts / sizeof *unsigned_casts; k++)
    if (rt_op_named(op, unsigned_casts[k]))
      return *src_unsigned = true, true;
  return false;
}

static int exec_compare(rt_op_id id, rtr_buffer *const *args, int nargs, rtr_buffer **res) {
  rtr_elem dom = compare_domain(args, nargs);
  rtr_cmp_apply(cmp_of_rt(id, rtr_elem_is_float(dom)), dom, res[0], args[0], args[1]);
  return 0;
}

/* An rt op: generated cases from the op table (rt_ops.def), then the others. */
/* rtr_matmul and rtr_conv allocate temporaries as big as their operands, rtr_attention its
 * workspace: the program sized them, so failing is an error at the op
 * (runtime/buffer.h), not an abort. */
static int temporaries_failed(MlirOperation op) {
  rt_emit_error(op, "out of memory for the temporaries of this op");
  return -1;
}

int rtr_index_error_report(MlirOperation op, const rtr_index_error *e) {
  remat_shape s = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 1)));
  char at[RT_MAX_RANK * 24 + 4];
  size_t n = 0;
  int64_t p = e->pos, c[RT_MAX_RANK];
  for (int k = s.rank - 1; k >= 0; k--) {
    c[k] = s.d[k] ? p % s.d[k] : 0;
    p = s.d[k] ? p / s.d[k] : 0;
  }
  at[n++] = '[';
  for (int k = 0; k < s.rank; k++)
    n += (size_t)snprintf(at + n, sizeof at - n, "%s%lld", k ? ", " : "", (long long)c[k]);
  snprintf(at + n, sizeof at - n, "]");
  rt_emit_error(op, "'%s' index %lld at %s of the indices is out of range [0, %lld)",
                rt_op_name(rt_op_lookup(op)), (long long)e->value, at, (long long)e->bound);
  return -1;
}

static int exec_rt(interp *in, MlirOperation op, rt_op_id id, rtr_buffer *const *args, int nargs,
                   rtr_buffer **res, int nres) {
  int64_t a64[RT_MAX_RANK], b64[RT_MAX_RANK];
  switch (id) {
#define RT_EW(ID, name, kind, arity, rule, ew, ...) \
  case RT_OP_##ID:                                  \
    return apply_ew(op, RTR_EW_##ew, arity, args, nargs, res, nres);
#define RT_MATH(ID, name, kind, arity, rule, ew, f32, f64, ...) \
  case RT_OP_##ID:                                              \
    rtr_math_apply(res[0], args[0], f32, f64);                  \
    return 0;
#define RT_CMP(ID, ...) \
  case RT_OP_##ID:      \
    return exec_compare(id, args, nargs, res);
#define RT_OP(...)
#include "rt_ops.def"
  case RT_OP_CONVERT: rtr_convert(res[0], args[0], false); return 0;
  case RT_OP_FULL: return fill_from_attr(op, attr(op, "value"), res[0]);
  case RT_OP_BROADCAST:
    rt_get_i64_array(op, "dims", a64, RT_MAX_RANK);
    rtr_broadcast(res[0], args[0], a64);
    return 0;
  case RT_OP_RESHAPE:
    memcpy(res[0]->data, args[0]->data, (size_t)res[0]->numel * rtr_elem_size(res[0]->elem));
    return 0;
  case RT_OP_TRANSPOSE:
    rt_get_i64_array(op, "perm", a64, RT_MAX_RANK);
    rtr_transpose(res[0], args[0], a64);
    return 0;
  case RT_OP_SLICE:
    rt_get_i64_array(op, "start", a64, RT_MAX_RANK);
    rt_get_i64_array(op, "stride", b64, RT_MAX_RANK);
    rtr_slice(res[0], args[0], a64, b64);
    return 0;
  case RT_OP_CONCAT: {
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    rtr_concat(res[0], (const rtr_buffer *const *)args, nargs, (int)dim);
    return 0;
  }
  case RT_OP_IOTA: {
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    rtr_iota(res[0], (int)dim);
    return 0;
  }
  case RT_OP_SUM:
  case RT_OP_AMAX: {
    int n = rt_get_i64_array(op, "dims", a64, RT_MAX_RANK);
    rtr_reduce(res[0], args[0], a64, n < 0 ? 0 : n,
               id == RT_OP_SUM ? RTR_REDUCE_SUM : RTR_REDUCE_MAX);
    return 0;
  }
  case RT_OP_MATMUL:
    if (rtr_matmul(res[0], args[0], args[1], in->opts->matmul_block,
                   !mlirAttributeIsNull(attr(op, "transpose_a")),
                   !mlirAttributeIsNull(attr(op, "transpose_b"))))
      return temporaries_failed(op);
    return 0;
  case RT_OP_UNIFORM_PHILOX: {
    double lo = 0, hi = 1;
    rt_get_f64(op, "lo", &lo);
    rt_get_f64(op, "hi", &hi);
    rtr_uniform_philox(res[0], (uint64_t)rtr_buffer_get_i(args[0], 0),
                       (uint64_t)rtr_buffer_get_i(args[1], 0), lo, hi);
    return 0;
  }
  case RT_OP_ALL_GATHER:
  case RT_OP_REDUCE_SCATTER:
  case RT_OP_ALL_REDUCE:
    /* Started by start_collective (call_func); never reaches here. */
    remat_fatal("collective not started through the backend");
  case RT_OP_WAIT:
    memcpy(res[0]->data, args[0]->data, (size_t)res[0]->numel * rtr_elem_size(res[0]->elem));
    return 0;
  case RT_OP_GATHER:
  case RT_OP_SCATTER_ADD: {
    int64_t dim = 0;
    rtr_index_error e;
    rt_get_i64(op, "dim", &dim);
    int rc = id == RT_OP_GATHER ? rtr_gather(res[0], args[0], args[1], (int)dim, &e)
                                : rtr_scatter_add(res[0], args[0], args[1], args[2], (int)dim, &e);
    return rc ? rtr_index_error_report(op, &e) : 0;
  }
  case RT_OP_ARGMAX: {
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    rtr_argmax(res[0], args[0], (int)dim);
    return 0;
  }
  case RT_OP_CONV:
  case RT_OP_CONV_GRAD_INPUT:
  case RT_OP_CONV_GRAD_WEIGHT: {
    rt_conv_geom g;
    if (!rt_conv_geom_of(op, &g))
      remat_fatal("conv geometry of a verified op");
    rtr_conv_kind kind = id == RT_OP_CONV              ? RTR_CONV
                         : id == RT_OP_CONV_GRAD_INPUT ? RTR_CONV_GRAD_INPUT
                                                       : RTR_CONV_GRAD_WEIGHT;
    return rtr_conv(res[0], args[0], args[1], &g, kind) ? temporaries_failed(op) : 0;
  }
  case RT_OP_ATTENTION:
  case RT_OP_ATTENTION_GRAD: {
    rt_attention a;
    if (!rt_attention_of(op, &a))
      remat_fatal("attention operands of a verified op");
    bool narrow = mlirTypeIsAF32(rt_element_type(mlirValueGetType(mlirOperationGetOperand(op, 0))));
    return rtr_attention(res, (const rtr_buffer *const *)args, &a, narrow, &in->workspace)
               ? temporaries_failed(op)
               : 0;
  }
  case RT_OP_EXTERN: remat_fatal("an rt.extern passed rtr_check_no_extern");
  case RT_OP_NONE: break;
  }
  remat_fatal("'%s' reached the rt dispatch", rt_op_name(id));
}

/* Executes one op with operand buffers ARGS into freshly allocated RES. */
static int exec_op(interp *in, MlirOperation op, rtr_buffer *const *args, int nargs,
                   rtr_buffer **res, int nres) {
  rt_op_id id = rt_op_lookup(op);
  if (id != RT_OP_NONE)
    return exec_rt(in, op, id, args, nargs, res, nres);
  int arity = 0, ew = arith_ew(op, &arity);
  bool src_unsigned;
  if (ew >= 0)
    return apply_ew(op, (rtr_ew)ew, arity, args, nargs, res, nres);
  if (rt_op_named(op, "arith.cmpf") || rt_op_named(op, "arith.cmpi")) {
    int64_t p;
    if (!rt_get_i64(op, "predicate", &p) || p < 0 || p > 15) {
      rt_emit_error(op, "invalid comparison predicate");
      return -1;
    }
    if (rt_op_named(op, "arith.cmpi")) {
      if (p > 9) {
        rt_emit_error(op, "invalid comparison predicate");
        return -1;
      }
      p += RTR_CMP_EQ;
    }
    rtr_cmp_apply((rtr_cmp)p, args[0]->elem, res[0], args[0], args[1]);
    return 0;
  }
  if (is_cast(op, &src_unsigned)) {
    rtr_convert(res[0], args[0], src_unsigned);
    return 0;
  }
  if (rt_op_named(op, "arith.constant"))
    return fill_from_attr(op, attr(op, "value"), res[0]);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  rt_emit_error(op,
                "cannot execute '%.*s': not an rt, arith or func operation the runtime "
                "knows",
                (int)name.length, name.data);
  return -1;
}

/* func.call OP: its callee walked like any function (rtr_callee, rtr_check_returned:
 * walk.c's checks), or handed to call_kernel when it is a kernel. */
static int exec_call(interp *in, MlirOperation op, rtr_buffer *const *args, int nargs,
                     rtr_buffer **res, int nres) {
  MlirOperation f = rtr_callee(in->module, op);
  if (mlirOperationIsNull(f))
    return -1;
  if (in->opts->call_kernel && rt_func_is_kernel(f))
    return in->opts->call_kernel(in->opts->ctx, op, f, (const rtr_buffer *const *)args, nargs, res,
                                 nres);
  rtr_buffer **outs = NULL;
  int nouts = 0;
  if (call_func(in, f, args, nargs, &outs, &nouts, op))
    return -1;
  if (rtr_check_returned(op, f, (const rtr_buffer *const *)outs, nouts,
                         (const rtr_buffer *const *)res, nres)) {
    rtr_buffers_free(outs, nouts);
    return -1;
  }
  for (int k = 0; k < nres; k++)
    memcpy(res[k]->data, outs[k]->data, (size_t)res[k]->numel * rtr_elem_size(res[k]->elem));
  rtr_buffers_free(outs, nouts);
  return 0;
}

/* The view op makes of src: the op applied to the indices of src's elements in its base
 * buffer gives, per element of the result, the base element it reads (the same loops as
 * the copy, so the same semantics). */
static rtr_buffer *make_view(interp *in, MlirOperation op, const rtr_buffer *src) {
  const rtr_buffer *base = src->view_map ? src->view_src : src;
  remat_shape s = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  /* The index maps are i64 per element: 8 bytes where the tensor may have 1, so they can
   * pass the size limit (or the memory) that the tensor itself fits. */
  rtr_buffer *idx = rtr_buffer_new(RTR_I64, false, src->rank, src->dims);
  rtr_buffer *out = idx ? rtr_buffer_new(RTR_I64, false, s.rank, s.d) : NULL;
  rtr_buffer *view = NULL;
  if (!out) {
    char tb[128];
    rt_emit_error(op,
                  "out of memory for the index maps (8 bytes per element) of a view "
                  "'%s'",
                  rt_type_str(mlirValueGetType(mlirOperationGetResult(op, 0)), tb, sizeof tb));
    rtr_buffer_free(idx);
    return NULL;
  }
  for (int64_t i = 0; i < src->numel; i++)
    ((int64_t *)idx->data)[i] = src->view_map ? src->view_map[i] : i;
  if (exec_op(in, op, &idx, 1, &out, 1) == 0) {
    view = rtr_buffer_view(base, s.rank, s.d, out->data);
    out->data = NULL;
    if (in->opts->views)
      (*in->opts->views)++;
  }
  rtr_buffer_free(idx);
  rtr_buffer_free(out);
  return view;
}

/* Starts a collective through the backend; *req is its request while in flight. */
static int start_collective(interp *in, MlirOperation op, const rtr_coll_op *cop,
                            rtr_buffer *const *args, int nargs, rtr_buffer *const *res, int nres,
                            void **req) {
  *req = NULL;
  if (nargs != 1 || nres != 1) {
    rt_emit_error(op, "unexpected number of operands or results");
    return -1;
  }
  char *err = NULL;
  int rc = rtr_coll_check_group(in->coll, cop, &err) ||
                   in->coll->start(in->coll, cop, args[0], res[0], req, &err)
               ? -1
               : 0;
  if (rc)
    rt_emit_error(op, "%s", err ? err : "");
  free(err);
  return rc;
}

/* ---- the measured peak (rtr_peak, interp.h) ----------------------------------------- */

/* Bytes a buffer holds of its own: none for an alias or a view. */
static uint64_t data_bytes(const rtr_buffer *b) {
  return b && b->data && !b->borrowed ? (uint64_t)b->numel * rtr_elem_size(b->elem) : 0;
}

/* Whether the walk makes OP's result borrow its operand's buffer: a reshape of a tensor
 * is an alias, and with lazy_views a transpose, slice or broadcast is a view (call_func
 * decides the same way from the operand's buffer, whose rank is its type's). */
static bool borrows(const interp *in, MlirOperation op) {
  if (mlirOperationGetNumOperands(op) != 1 || mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, 0))))
    return false;
  rt_op_id id = rt_op_lookup(op);
  return id == RT_OP_RESHAPE || (in->opts->lazy_views && rt_op_is_view(id));
}

/* When each value of a block dies: DEAD[T] holds the values whose last use is op T (a
 * func.return's is the number of ops before it; a result nothing reads dies at its own
 * op), extended through aliases and views to the last use of any value that borrows its
 * buffer. Values never used (arguments) have none; LAST maps each value to its op. */
typedef struct deaths {
  ptr_map last;
  int *start;        /* [n+2]: the values of op T are vals[start[T] .. start[T+1]) */
  const void **vals; /* MlirValue.ptr */
} deaths;

static void deaths_free(deaths *d) {
  ptr_map_free(&d->last);
  free(d->start);
  free(d->vals);
}

/* A reverse walk extends each source to the last use of what borrows it, so a chain of
 * aliases extends its root. */
static void deaths_of(const interp *in, MlirBlock entry, deaths *d) {
  ptr_map *last = &d->last;
  ptr_map_init(last, 64);
  MlirOperation *ops = NULL;
  int n = 0, cap = 0, nvals = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), n++) {
    XGROW(ops, n, cap, 64);
    ops[n] = op;
    for (intptr_t k = 0; k < mlirOperationGetNumResults(op); k++)
      ptr_map_put(last, mlirOperationGetResult(op, k).ptr, n);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
      ptr_map_put(last, mlirOperationGetOperand(op, k).ptr, n);
    nvals += (int)mlirOperationGetNumResults(op);
  }
  for (int i = n - 1; i >= 0; i--)
    if (borrows(in, ops[i])) {
      const void *src = mlirOperationGetOperand(ops[i], 0).ptr;
      int r = ptr_map_get(last, mlirOperationGetResult(ops[i], 0).ptr);
      if (r > ptr_map_get(last, src))
        ptr_map_put(last, src, r);
    }
  /* bucket the values by the op they die at (counting sort) */
  intptr_t nargs = mlirBlockGetNumArguments(entry);
  nvals += (int)nargs;
  d->start = xcalloc((size_t)n + 2, sizeof *d->start);
  d->vals = xcalloc((size_t)nvals + 1, sizeof *d->vals);
  const void **all = xcalloc((size_t)nvals + 1, sizeof *all);
  int m = 0;
  for (intptr_t k = 0; k < nargs; k++)
    all[m++] = mlirBlockGetArgument(entry, k).ptr;
  for (int i = 0; i < n; i++)
    for (intptr_t k = 0; k < mlirOperationGetNumResults(ops[i]); k++)
      all[m++] = mlirOperationGetResult(ops[i], k).ptr;
  for (int k = 0; k < m; k++) {
    int t = ptr_map_get(last, all[k]);
    if (t >= 0)
      d->start[t + 1]++;
  }
  for (int t = 0; t <= n; t++)
    d->start[t + 1] += d->start[t];
  int *fill = xcalloc((size_t)n + 1, sizeof *fill);
  for (int k = 0; k < m; k++) {
    int t = ptr_map_get(last, all[k]);
    if (t >= 0)
      d->vals[d->start[t] + fill[t]++] = all[k];
  }
  free(fill);
  free(all);
  free(ops);
}

/* Counts VAL's buffer (slot of FR) as live: BYTES of it. */
static void peak_count(rtr_peak *pk, frame *fr, MlirValue val, uint64_t bytes) {
  fr->slots[ptr_map_get(&fr->index, val.ptr)].bytes = bytes;
  pk->live += bytes;
}

/* After op T (at OP) ran: its live bytes may be the peak; then every value that dies at
 * it is released: its bytes leave the count and a buffer the frame owns is freed (a
 * collective still writing it completes first). */
static int peak_step(interp *in, frame *fr, const deaths *d, MlirOperation op, int t) {
  rtr_peak *pk = in->opts->peak;
  pk->ops++;
  if (mlirOperationIsNull(pk->at) || pk->live > pk->peak) {
    pk->peak = pk->live;
    pk->at = op;
  }
  int rc = 0;
  for (int k = d->start[t]; k < d->start[t + 1]; k++) {
    int i = ptr_map_get(&fr->index, d->vals[k]);
    if (i < 0 || !fr->slots[i].buf || ptr_map_get(&d->last, d->vals[k]) != t)
      continue; /* (a parameter: kept) */
    if (complete(in, fr, (size_t)i, op))
      rc = -1;
    pk->live -= fr->slots[i].bytes;
    fr->slots[i].bytes = 0;
    if (fr->slots[i].owned)
      rtr_buffer_free(fr->slots[i].buf);
    fr->slots[i].buf = NULL;
  }
  return rc;
}

/* An immediate of the estimate: a scalar constant (arith.constant of a scalar type). */
static bool is_immediate(MlirOperation op, const rtr_buffer *res) {
  return res->is_scalar && mlirOperationGetNumOperands(op) == 0 &&
         rt_op_named(op, "arith.constant");
}

/* One call's walk (walk.h): its frame, the arrays of the current op, where the outputs
 * go. */
typedef struct call {
  interp *in;
  frame fr;
  rtr_peak *pk;
  deaths dd;
  rtr_buffer **ops, **res; /* of the current op; grown as needed */
  rtr_buffer **copies;     /* dense copies of the current op's view operands */
  intptr_t cap;
  rtr_buffer ***outs;
  int *nouts;
} call;

static void call_reserve(void *ctx, intptr_t no, intptr_t nr) {
  call *c = ctx;
  if (no > c->cap || nr > c->cap) {
    c->cap = no > nr ? no : nr;
    c->ops = xrealloc(c->ops, (size_t)c->cap, sizeof *c->ops);
    c->res = xrealloc(c->res, (size_t)c->cap, sizeof *c->res);
    c->copies = xrealloc(c->copies, (size_t)c->cap, sizeof *c->copies);
  }
}

static int call_operand(void *ctx, MlirOperation op, intptr_t k, MlirValue v) {
  call *c = ctx;
  c->ops[k] = frame_get(&c->fr, v);
  if (!c->ops[k])
    return 1;
  return complete(c->in, &c->fr, (size_t)ptr_map_get(&c->fr.index, v.ptr), op) ? -1 : 0;
}

static int call_return(void *ctx, MlirOperation op, intptr_t no) {
  call *c = ctx;
  int rc = 0;
  rtr_buffer **ops = c->ops;
  *c->outs = xcalloc((size_t)no + 1, sizeof **c->outs);
  for (intptr_t k = 0; k < no && !rc; k++) {
    if (ops[k]->view_map && c->in->opts->view_copies) /* a view returned is copied */
      (*c->in->opts->view_copies)++;
    if (!((*c->outs)[k] = rtr_buffer_clone(ops[k]))) {
      char tb[128];
      rt_emit_error(op, "out of memory for a copy of result #%ld ('%s')", (long)k,
                    rtr_buffer_type_str(ops[k], tb, sizeof tb));
      rtr_buffers_free(*c->outs, (int)k);
      *c->outs = NULL;
      rc = -1;
    }
  }
  *c->nouts = rc ? 0 : (int)no;
  return rc;
}

static int call_exec(void *ctx, MlirOperation op, intptr_t no, intptr_t nr, int t) {
  call *c = ctx;
  interp *in = c->in;
  frame *fr = &c->fr;
  rtr_peak *pk = c->pk;
  rtr_buffer **ops = c->ops, **res = c->res, **copies = c->copies;
  int rc = 0;
  rt_op_id vid = rt_op_lookup(op);
  if (in->opts->lazy_views && no == 1 && nr == 1 && !ops[0]->is_scalar && rt_op_is_view(vid) &&
      (vid != RT_OP_RESHAPE || ops[0]->view_map)) {
    res[0] = make_view(in, op, ops[0]);
    if (!res[0])
      return -1;
    if (in->opts->trace)
      in->opts->trace(in->opts->trace_ctx, op, res, 1);
    frame_put(fr, mlirOperationGetResult(op, 0), res[0], true);
    return pk && peak_step(in, fr, &c->dd, op, t) ? -1 : 0;
  }
  /* Only rt.matmul (and other views) read a view in place; anything else gets a dense
   * copy for this op. */
  int ncopies = 0;
  if (vid != RT_OP_MATMUL)
    for (intptr_t k = 0; k < no && !rc; k++)
      if (ops[k]->view_map) {
        if (in->opts->view_copies)
          (*in->opts->view_copies)++;
        rtr_buffer *cp = rtr_buffer_clone(ops[k]);
        if (!cp) {
          char tb[128];
          rt_emit_error(op, "out of memory for a dense copy of operand #%ld ('%s')", (long)k,
                        rtr_buffer_type_str(ops[k], tb, sizeof tb));
          rc = -1;
        } else
          ops[k] = copies[ncopies++] = cp;
      }
  if (rc) {
    for (int k = 0; k < ncopies; k++)
      rtr_buffer_free(copies[k]);
    return -1;
  }
  if (rt_op_lookup(op) == RT_OP_RESHAPE && no == 1 && nr == 1 && !ops[0]->is_scalar) {
    /* A reshape is an alias of its operand's buffer: no copy (docs/design.md). */
    remat_shape s = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
    res[0] = rtr_buffer_alias(ops[0], s.rank, s.d);
    if (in->opts->trace)
      in->opts->trace(in->opts->trace_ctx, op, res, 1);
    frame_put(fr, mlirOperationGetResult(op, 0), res[0], true);
    return pk && peak_step(in, fr, &c->dd, op, t) ? -1 : 0;
  }
  for (intptr_t k = 0; k < nr; k++) {
    MlirType ty = mlirValueGetType(mlirOperationGetResult(op, k));
    res[k] = rtr_interp_buffer_for_type(ty, in->opts->promote_f64);
    if (!res[k]) {
      char msg[320];
      rt_emit_error(op, "result #%ld: %s", (long)k, rtr_buffer_type_problem(ty, msg, sizeof msg));
      rc = -1;
      for (intptr_t j = 0; j < k; j++)
        rtr_buffer_free(res[j]);
      break;
    }
  }
  if (rc) {
    for (int k = 0; k < ncopies; k++)
      rtr_buffer_free(copies[k]);
    return -1;
  }
  int done = 0;
  void *req = NULL;
  rtr_coll_op cop;
  if (rtr_coll_op_of(op, &cop)) {
    done = start_collective(in, op, &cop, ops, (int)no, res, (int)nr, &req) ? -1 : 1;
    /* A backend may read its input until the wait; a dense copy of a view is freed
     * below, so that collective completes now. */
    if (done > 0 && req && ncopies > 0) {
      char *err = NULL;
      void *r = req;
      req = NULL;
      if (in->coll->wait(in->coll, r, &err)) {
        rt_emit_error(op, "%s", err ? err : "");
        done = -1;
      }
      free(err);
    }
  } else if (in->opts->host_op)
    done = in->opts->host_op(in->opts->ctx, op, ops, (int)no, res, (int)nr);
  if (done < 0)
    rc = -1;
  else if (done == 0 && rt_op_named(op, "func.call"))
    rc = exec_call(in, op, ops, (int)no, res, (int)nr);
  else if (done == 0)
    rc = exec_op(in, op, ops, (int)no, res, (int)nr);
  if (!rc && in->opts->trace)
    in->opts->trace(in->opts->trace_ctx, op, res, (int)nr);
  /* the dense copies and the op's workspace are live while the op runs */
  uint64_t copy_bytes = in->workspace;
  in->workspace = 0;
  for (int k = 0; k < ncopies; k++) {
    copy_bytes += data_bytes(copies[k]);
    rtr_buffer_free(copies[k]);
  }
  for (intptr_t k = 0; k < nr; k++) {
    if (rc)
      rtr_buffer_free(res[k]);
    else {
      MlirValue v = mlirOperationGetResult(op, k);
      frame_put(fr, v, res[k], true);
      if (k == 0 && req)
        fr->slots[ptr_map_get(&fr->index, v.ptr)].req = req;
      if (pk)
        peak_count(pk, fr, v, is_immediate(op, res[k]) ? 0 : data_bytes(res[k]));
    }
  }
  if (pk && !rc) {
    pk->live += copy_bytes;
    rc = peak_step(in, fr, &c->dd, op, t);
    pk->live -= copy_bytes;
  }
  return rc;
}

static int call_func(interp *in, MlirOperation func, rtr_buffer *const *args, int nargs,
                     rtr_buffer ***outs, int *nouts, MlirOperation at) {
  if (rtr_check_call(func, args, nargs, in->opts->promote_f64, in->depth, at))
    return -1;
  MlirBlock entry = rt_func_entry_block(func);
  bool top = in->depth == 0;
  in->depth++;
  call c = {.in = in,
            .fr = {.slots = NULL},
            .pk = in->opts->peak,
            .dd = {{0}, NULL, NULL},
            .outs = outs,
            .nouts = nouts};
  ptr_map_init(&c.fr.index, 64);
  rtr_peak *pk = c.pk;
  if (pk)
    deaths_of(in, entry, &c.dd);
  if (pk && top)
    pk->live += pk->base;
  for (int k = 0; k < nargs; k++) {
    MlirValue a = mlirBlockGetArgument(entry, k);
    frame_put(&c.fr, a, args[k], false);
    /* the run's own arguments: rt.param and rt.buffer ones (persistent state, as the
     * estimate counts them) throughout, the others until their last use; a callee's are
     * its caller's */
    if (pk && top &&
        (rt_func_arg_has_attr(func, k, "rt.param") || rt_func_arg_has_attr(func, k, "rt.buffer"))) {
      peak_count(pk, &c.fr, a, data_bytes(args[k]));
      ptr_map_put(&c.dd.last, a.ptr, INT32_MAX); /* the op of no T: never released */
    } else if (pk && top && ptr_map_get(&c.dd.last, a.ptr) >= 0)
      peak_count(pk, &c.fr, a, data_bytes(args[k]));
  }
  rtr_block_walk w = {&c, call_reserve, call_operand, call_return, call_exec};
  bool returned;
  int rc = rtr_walk_block(func, &w, &returned);
  if (frame_free(in, &c.fr, func))
    rc = -1;
  if (pk)
    deaths_free(&c.dd);
  if (pk && top)
    pk->live -= pk->base;
  free(c.ops);
  free(c.res);
  free(c.copies);
  if (rc && *outs) {
    rtr_buffers_free(*outs, *nouts);
    *outs = NULL;
    *nouts = 0;
  }
  in->depth--;
  return rc;
}

int rtr_interp_run(MlirOperation module, MlirOperation func, const rtr_interp_options *opts,
                   rtr_buffer *const *inputs, int num_inputs, rtr_buffer ***outputs,
                   int *num_outputs) {
  rtr_interp_options none = {.promote_f64 = false};
  interp in = {module, opts ? opts : &none, 0, NULL, {0}, 0};
  rtr_coll_local_init(&in.local);
  in.coll = in.opts->coll ? in.opts->coll : &in.local;
  *outputs = NULL;
  *num_outputs = 0;
  return call_func(&in, func, inputs, num_inputs, outputs, num_outputs, func);
}

int rtr_interp_exec_op(MlirOperation module, MlirOperation op, const rtr_interp_options *opts,
                       rtr_buffer *const *args, int nargs, rtr_buffer *const *results,
                       int nresults) {
  rtr_interp_options none = {.promote_f64 = false};
  interp in = {module, opts ? opts : &none, 0, NULL, {0}, 0};
  rtr_coll_local_init(&in.local);
  in.coll = in.opts->coll ? in.opts->coll : &in.local;
  rtr_buffer **res = (rtr_buffer **)results;
  int done = in.opts->host_op ? in.opts->host_op(in.opts->ctx, op, args, nargs, res, nresults) : 0;
  if (done)
    return done < 0 ? -1 : 0;
  if (rt_op_named(op, "func.call"))
    return exec_call(&in, op, args, nargs, res, nresults);
  return exec_op(&in, op, args, nargs, res, nresults);
}
