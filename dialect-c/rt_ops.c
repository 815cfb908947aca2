/* rt_ops.c: the op table of the rt dialect and the helpers every pass shares (kinds,
 * shapes, byte sizes, attributes, rt.policy, diagnostics). */
#include "rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

static const struct {
  const char *name;
  size_t length; /* of name: rt_op_lookup compares lengths before bytes */
  rt_op_kind kind;
  int arity;
  rt_type_rule rule;
  const char *libm[2], *libdevice[2]; /* f32, f64; "0": none */
  bool expensive, inexact, view, alias;
} rt_ops[RT_OP_COUNT] = {
    [RT_OP_NONE] = {"", 0, RT_KIND_NONE, 0, RT_RULE_ANY, {"0", "0"}, {"0", "0"}, 0, 0, 0, 0},
#define RT_OP(ID, name, kind, arity, rule, ew, f32, f64, d32, d64, exp, inexact, view, alias)    \
  [RT_OP_##ID] = {                                                                               \
      name, sizeof(name) - 1, RT_KIND_##kind, arity, RT_RULE_##rule, {#f32, #f64}, {#d32, #d64}, \
      exp,  inexact,          view,           alias},
#include "rt_ops.def"
};

/* An RT_MATH row is a libm/libdevice call: inexact and expensive. The compiler names a
 * row that says otherwise. */
#define RT_MATH(ID, name, kind, arity, rule, ew, f32, f64, d32, d64, exp, inexact, ...) \
  _Static_assert((exp) == 1 && (inexact) == 1,                                          \
                 "rt_ops.def: RT_MATH row " #ID " must have exp 1 and inexact 1");
#define RT_OP(...)
#include "rt_ops.def"

bool rt_str_eq(MlirStringRef s, const char *c) {
  size_t n = strlen(c);
  return s.length == n && memcmp(s.data, c, n) == 0;
}

MlirStringRef rt_str(const char *s) { return mlirStringRefCreateFromCString(s); }

bool rt_op_named(MlirOperation op, const char *name) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

MlirNamedAttribute rt_named_attr(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, rt_str(name)), a);
}

MlirOperation rt_kernel_func(MlirContext ctx, MlirLocation loc, const char *name, MlirBlock body,
                             intptr_t nrets, const MlirValue *rets) {
  MlirOperationState rs = mlirOperationStateGet(rt_str("func.return"), loc);
  mlirOperationStateAddOperands(&rs, nrets, rets);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&rs));
  intptr_t nargs = mlirBlockGetNumArguments(body);
  MlirType *in = xcalloc((size_t)nargs + 1, sizeof *in);
  MlirType *out = xcalloc((size_t)nrets + 1, sizeof *out);
  for (intptr_t a = 0; a < nargs; a++)
    in[a] = mlirValueGetType(mlirBlockGetArgument(body, a));
  for (intptr_t r = 0; r < nrets; r++)
    out[r] = mlirValueGetType(rets[r]);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute attrs[] = {
      rt_named_attr(ctx, "sym_name", mlirStringAttrGet(ctx, rt_str(name))),
      rt_named_attr(ctx, "function_type",
                    mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, in, nrets, out))),
      rt_named_attr(ctx, "sym_visibility", mlirStringAttrGet(ctx, rt_str("private"))),
      rt_named_attr(ctx, "rt.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirOperationState fs = mlirOperationStateGet(rt_str("func.func"), loc);
  mlirOperationStateAddAttributes(&fs, 4, attrs);
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  free(in);
  free(out);
  return mlirOperationCreate(&fs);
}

bool rt_op_has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, rt_str(name)));
}

bool rt_func_is_kernel(MlirOperation op) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, rt_str("rt.kernel")));
}

MlirAttribute rt_dict_at(MlirContext ctx, MlirAttribute array, intptr_t i) {
  if (!mlirAttributeIsNull(array) && mlirAttributeIsAArray(array) &&
      i < mlirArrayAttrGetNumElements(array)) {
    MlirAttribute d = mlirArrayAttrGetElement(array, i);
    if (mlirAttributeIsADictionary(d))
      return d;
  }
  return mlirDictionaryAttrGet(ctx, 0, NULL);
}

bool rt_broadcast_row_aligned(MlirOperation op, const remat_shape *s, const bool *reduced) {
  remat_shape out = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  remat_shape in = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  if (!remat_shape_eq(&out, s))
    return false;
  int64_t dims[RT_MAX_RANK];
  rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
  int k = 0;
  for (int d = 0; d < in.rank; d++) {
    if (in.d[d] == 1)
      continue;
    while (k < out.rank && (reduced[k] || out.d[k] == 1))
      k++;
    if (k >= out.rank || dims[d] != k)
      return false;
    k++;
  }
  while (k < out.rank && (reduced[k] || out.d[k] == 1))
    k++;
  return k == out.rank;
}

rt_op_id rt_op_from_name(const char *name) {
  for (int i = 1; i < RT_OP_COUNT; i++)
    if (!strcmp(rt_ops[i].name, name) || !strcmp(rt_ops[i].name + 3, name))
      return (rt_op_id)i;
  return RT_OP_NONE;
}

rt_op_id rt_op_lookup(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length < 4 || memcmp(name.data, "rt.", 3) != 0)
    return RT_OP_NONE;
  /* Passes call this per op, often several times: no strlen per table row (it was 15% of
   * --remat-mincut on a small graph, perf). */
  for (int i = 1; i < RT_OP_COUNT; i++)
    if (name.length == rt_ops[i].length && !memcmp(name.data, rt_ops[i].name, name.length))
      return (rt_op_id)i;
  return RT_OP_NONE;
}

typedef struct find_op {
  rt_op_id id;
  MlirOperation found;
} find_op;

static MlirWalkResult find_op_visit(MlirOperation op, void *ud) {
  find_op *f = ud;
  if (rt_op_lookup(op) != f->id)
    return MlirWalkResultAdvance;
  f->found = op;
  return MlirWalkResultInterrupt;
}

MlirOperation rt_find_op(MlirOperation op, rt_op_id id) {
  find_op f = {id, {NULL}};
  mlirOperationWalk(op, find_op_visit, &f, MlirWalkPreOrder);
  return f.found;
}

const char *rt_op_name(rt_op_id id) { return rt_ops[id].name; }
rt_op_kind rt_op_kind_of(rt_op_id id) { return rt_ops[id].kind; }
int rt_op_arity(rt_op_id id) { return rt_ops[id].arity; }
bool rt_op_expensive(rt_op_id id) { return rt_ops[id].expensive; }
bool rt_op_inexact(rt_op_id id) { return rt_ops[id].inexact; }
rt_type_rule rt_op_rule(rt_op_id id) { return rt_ops[id].rule; }

bool rt_op_is_view(rt_op_id id) { return rt_ops[id].view; }
bool rt_op_is_alias(rt_op_id id) { return rt_ops[id].alias; }

static const char *function_named(const char *name) { return strcmp(name, "0") ? name : NULL; }
const char *rt_op_libm(rt_op_id id, bool wide) { return function_named(rt_ops[id].libm[wide]); }
const char *rt_op_libdevice(rt_op_id id, bool wide) {
  return function_named(rt_ops[id].libdevice[wide]);
}

const char *rt_op_kind_name(rt_op_kind kind) {
  static const char *names[RT_KIND_COUNT] = {[RT_KIND_NONE] = "none",
#define RT_KIND_NAME(ID, name) [RT_KIND_##ID] = name,
                                             RT_OP_KINDS(RT_KIND_NAME, RT_KIND_NAME)
#undef RT_KIND_NAME
  };
  return names[kind];
}

/* ---- types ---- */

bool rt_type_is_static_tensor(MlirType type) {
  return mlirTypeIsARankedTensor(type) && mlirShapedTypeHasStaticShape(type);
}

bool rt_type_is_scalar(MlirType type) {
  return mlirTypeIsAF32(type) || mlirTypeIsAF64(type) || mlirTypeIsAF16(type) ||
         mlirTypeIsABF16(type) ||
         (mlirTypeIsAInteger(type) && mlirIntegerTypeIsSignless(type) &&
          mlirIntegerTypeGetWidth(type) <= 64);
}

bool rt_type_is_number(MlirType type) { return mlirTypeIsAInteger(type) || mlirTypeIsAFloat(type); }

int rt_element_bytes(MlirType t) {
  unsigned w = mlirTypeIsAInteger(t) ? mlirIntegerTypeGetWidth(t)
               : mlirTypeIsAFloat(t) ? mlirFloatTypeGetWidth(t)
                                     : 0;
  return w == 0 ? -1 : (int)((w + 7) / 8); /* i1 is stored as a byte */
}

bool rt_element_type_is_supported(MlirType t) {
  if (mlirTypeIsAF32(t) || mlirTypeIsAF64(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t))
    return true;
  if (!mlirTypeIsAInteger(t) || !mlirIntegerTypeIsSignless(t))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(t);
  return w == 1 || w == 8 || w == 32 || w == 64;
}

MlirType rt_element_type(MlirType type) {
  return mlirTypeIsAShaped(type) ? mlirShapedTypeGetElementType(type) : type;
}

remat_shape rt_shape_of(MlirType type) {
  remat_shape s = {0, {0}};
  if (!mlirTypeIsARankedTensor(type))
    return s;
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank > RT_MAX_RANK)
    remat_fatal("rank %ld above %d (the verifier rejects it)", (long)rank, RT_MAX_RANK);
  s.rank = (int)rank;
  for (int i = 0; i < s.rank; i++)
    s.d[i] = mlirShapedTypeGetDimSize(type, i);
  return s;
}

int rt_type_numel(MlirType type, int64_t *numel) {
  *numel = 1;
  if (rt_type_is_number(type))
    return 0;
  if (!rt_type_is_static_tensor(type))
    return -1;
  int64_t n = 1;
  for (intptr_t i = 0, r = mlirShapedTypeGetRank(type); i < r; i++) {
    int64_t d = mlirShapedTypeGetDimSize(type, i);
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return -1;
  }
  *numel = n;
  return 0;
}

int rt_type_bytes(MlirType type, uint64_t *bytes) {
  int64_t numel;
  int eb = rt_element_bytes(rt_element_type(type));
  *bytes = 0;
  if (eb < 0 || rt_type_numel(type, &numel) != 0)
    return -1;
  uint64_t b;
  if (__builtin_mul_overflow((uint64_t)numel, (uint64_t)eb, &b))
    return -1;
  *bytes = b;
  return 0;
}

int rt_value_bytes(MlirValue value, uint64_t *bytes) {
  return rt_type_bytes(mlirValueGetType(value), bytes);
}

/* Appends printed text to a fixed buffer, truncating. */
struct str_sink {
  char *buf;
  size_t cap, len;
};

static void str_sink_append(MlirStringRef str, void *ud) {
  struct str_sink *s = ud;
  size_t room = s->cap - 1 - s->len, n = str.length < room ? str.length : room;
  memcpy(s->buf + s->len, str.data, n);
  s->len += n;
  s->buf[s->len] = 0;
}

char *rt_type_str(MlirType type, char *buf, size_t cap) {
  struct str_sink s = {buf, cap, 0};
  buf[0] = 0;
  mlirTypePrint(type, str_sink_append, &s);
  return buf;
}

/* ---- attributes ---- */

static MlirAttribute attr_named(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

int rt_get_i64_array(MlirOperation op, const char *name, int64_t *out, int cap) {
  MlirAttribute a = attr_named(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a))
    return -1;
  int n = (int)mlirDenseArrayGetNumElements(a);
  for (int i = 0; i < n && i < cap; i++)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return n;
}

bool rt_get_i64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a = attr_named(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

bool rt_get_f64(MlirOperation op, const char *name, double *out) {
  MlirAttribute a = attr_named(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFloat(a))
    return false;
  *out = mlirFloatAttrGetValueDouble(a);
  return true;
}

/* ---- rt.extern ---- */

MlirStringRef rt_op_label(MlirOperation op) {
  if (rt_op_named(op, "rt.extern")) {
    MlirAttribute a = attr_named(op, "name");
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
        mlirStringAttrGetValue(a).length > 0)
      return mlirStringAttrGetValue(a);
  }
  return mlirIdentifierStr(mlirOperationGetName(op));
}

rt_extern_recompute rt_extern_recompute_of(MlirOperation op) {
  static const char *const names[] = {"once", "pure", "forward"};
  MlirAttribute a = attr_named(op, "recompute");
  if (mlirAttributeIsNull(a))
    return RT_EXTERN_ONCE;
  if (mlirAttributeIsAString(a))
    for (int k = RT_EXTERN_ONCE; k <= RT_EXTERN_FORWARD; k++)
      if (rt_str_eq(mlirStringAttrGetValue(a), names[k]))
        return (rt_extern_recompute)k;
  return RT_EXTERN_INVALID;
}

double rt_extern_flops(MlirOperation op) {
  int64_t f;
  return rt_get_i64(op, "flops", &f) && f > 0 ? (double)f : 0;
}

/* ---- rt.policy ---- */

static const char *policy_names[] = {
    "", "must_save", "prefer_save", "must_recompute", "prefer_recompute", ""};

rt_policy rt_policy_get(MlirOperation op) {
  MlirAttribute a =
      mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("rt.policy"));
  if (mlirAttributeIsNull(a))
    return RT_POLICY_NONE;
  if (!mlirAttributeIsAString(a))
    return RT_POLICY_INVALID;
  MlirStringRef v = mlirStringAttrGetValue(a);
  for (int p = RT_POLICY_MUST_SAVE; p <= RT_POLICY_PREFER_RECOMPUTE; p++)
    if (rt_str_eq(v, policy_names[p]))
      return (rt_policy)p;
  return RT_POLICY_INVALID;
}

void rt_policy_set(MlirOperation op, rt_policy policy) {
  MlirStringRef key = mlirStringRefCreateFromCString("rt.policy");
  if (policy == RT_POLICY_NONE || policy == RT_POLICY_INVALID) {
    mlirOperationRemoveDiscardableAttributeByName(op, key);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, key, mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(policy_names[policy])));
}

const char *rt_policy_name(rt_policy policy) { return policy_names[policy]; }

bool rt_policy_is_save(rt_policy p) {
  return p == RT_POLICY_MUST_SAVE || p == RT_POLICY_PREFER_SAVE;
}

bool rt_policy_is_recompute(rt_policy p) {
  return p == RT_POLICY_MUST_RECOMPUTE || p == RT_POLICY_PREFER_RECOMPUTE;
}

/* ---- functions ---- */

bool rt_func_num_outputs(MlirOperation func, int64_t *n) {
  return rt_get_i64(func, "rt.num_outputs", n);
}

MlirAttribute rt_func_arg_attr(MlirOperation func, intptr_t arg, const char *name) {
  MlirAttribute all = attr_named(func, "arg_attrs");
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      arg >= mlirArrayAttrGetNumElements(all))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(all, arg);
  if (!mlirAttributeIsADictionary(dict))
    return (MlirAttribute){NULL};
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

bool rt_func_arg_has_attr(MlirOperation func, intptr_t arg, const char *name) {
  return !mlirAttributeIsNull(rt_func_arg_attr(func, arg, name));
}

bool rt_func_arg_range(MlirOperation func, intptr_t arg, int64_t *lo, int64_t *hi) {
  MlirAttribute r = rt_func_arg_attr(func, arg, "rt.range");
  if (mlirAttributeIsNull(r) || !mlirAttributeIsADenseI64Array(r) ||
      mlirDenseArrayGetNumElements(r) != 2)
    return false;
  *lo = mlirDenseI64ArrayGetElement(r, 0);
  *hi = mlirDenseI64ArrayGetElement(r, 1);
  return *lo < *hi;
}

MlirBlock rt_func_entry_block(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  return mlirRegionGetFirstBlock(body);
}

/* OP or the first func.func with a body after it in its block. */
static MlirOperation defined_func_from(MlirOperation op) {
  while (!mlirOperationIsNull(op) &&
         (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") ||
          mlirBlockIsNull(rt_func_entry_block(op))))
    op = mlirOperationGetNextInBlock(op);
  return op;
}

MlirOperation rt_func_first(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  return defined_func_from(mlirBlockGetFirstOperation(body));
}

MlirOperation rt_func_next(MlirOperation func) {
  return defined_func_from(mlirOperationGetNextInBlock(func));
}

MlirStringRef rt_func_name(MlirOperation func) {
  MlirAttribute a = attr_named(func, "sym_name");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirStringRefCreate("", 0);
  return mlirStringAttrGetValue(a);
}

/* ---- diagnostics ---- */

/* The message at any length (names may be long). */
static void emit_v(MlirLocation loc, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *msg = xmalloc(n < 0 ? 1 : (size_t)n + 1);
  vsnprintf(msg, n < 0 ? 1 : (size_t)n + 1, fmt, ap);
  mlirEmitError(loc, msg);
  free(msg);
}

void rt_emit_error_at(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_v(loc, fmt, ap);
  va_end(ap);
}

void rt_emit_error(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_v(mlirOperationGetLocation(op), fmt, ap);
  va_end(ap);
}

bool rt_conv_geom_of(MlirOperation op, rt_conv_geom *g) {
  rt_op_id id = rt_op_lookup(op);
  MlirType t[3] = {mlirValueGetType(mlirOperationGetOperand(op, 0)),
                   mlirValueGetType(mlirOperationGetOperand(op, 1)),
                   mlirValueGetType(mlirOperationGetResult(op, 0))};
  /* which of (operand 0, operand 1, result) is x, w, y */
  int xi = id == RT_OP_CONV_GRAD_INPUT ? 2 : 0, wi = id == RT_OP_CONV_GRAD_WEIGHT ? 2 : 1,
      yi = 3 - xi - wi;
  for (int i = 0; i < 3; i++)
    if (!rt_type_is_static_tensor(t[i]))
      return false;
  remat_shape x = rt_shape_of(t[xi]), w = rt_shape_of(t[wi]), y = rt_shape_of(t[yi]);
  int n = x.rank - 2;
  if (n < 1 || n > 3 || w.rank != x.rank || y.rank != x.rank)
    return false;
  *g = (rt_conv_geom){.n = n, .batch = x.d[0], .in_ch = x.d[1], .out_ch = w.d[0]};
  if (rt_get_i64_array(op, "stride", g->stride, 3) != n ||
      rt_get_i64_array(op, "padding", g->pad, 3) != n ||
      rt_get_i64_array(op, "dilation", g->dil, 3) != n || !rt_get_i64(op, "groups", &g->groups))
    return false;
  for (int k = 0; k < n; k++)
    g->in[k] = x.d[k + 2], g->k[k] = w.d[k + 2], g->out[k] = y.d[k + 2];
  return true;
}

double rt_conv_flops(MlirOperation op) {
  rt_conv_geom g;
  if (!rt_conv_geom_of(op, &g) || g.groups < 1)
    return 0;
  double f = 2.0 * (double)g.batch * (double)g.out_ch * (double)(g.in_ch / g.groups);
  for (int k = 0; k < g.n; k++)
    f *= (double)g.out[k] * (double)g.k[k];
  return f;
}

double rt_op_flops(MlirOperation op) {
  rt_op_id id = rt_op_lookup(op);
  if (id == RT_OP_MATMUL) { /* 2*B*M*N*K = 2 * numel(a) * N, however a and b are read */
    remat_shape a = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    remat_shape r = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
    return r.rank < 1 ? 0 : 2.0 * (double)remat_shape_numel(&a) * (double)r.d[r.rank - 1];
  }
  rt_attention a;
  if (rt_op_kind_of(id) == RT_KIND_ATTENTION)
    return rt_attention_of(op, &a) ? rt_attention_flops(&a) : 0;
  return id == RT_OP_EXTERN                  ? rt_extern_flops(op)
         : rt_op_kind_of(id) == RT_KIND_CONV ? rt_conv_flops(op)
                                             : 0;
}

int rt_attention_arity(bool grad, bool mask, bool dropout) {
  return (grad ? 6 : 3) + (mask ? 1 : 0) + (dropout ? 2 : 0);
}

int rt_attention_mask_of(MlirOperation op) {
  static const char *const names[] = {"keep", "drop", "add"};
  MlirAttribute a = attr_named(op, "mask");
  if (mlirAttributeIsNull(a))
    return RT_ATTENTION_MASK_NONE;
  if (mlirAttributeIsAString(a))
    for (int k = 0; k < 3; k++)
      if (rt_str_eq(mlirStringAttrGetValue(a), names[k]))
        return RT_ATTENTION_MASK_KEEP + k;
  return -1;
}

bool rt_attention_of(MlirOperation op, rt_attention *a) {
  rt_op_id id = rt_op_lookup(op);
  *a = (rt_attention){.grad = id == RT_OP_ATTENTION_GRAD, .mask_at = -1, .seed_at = -1};
  int mask = rt_attention_mask_of(op);
  a->dropout = rt_get_f64(op, "keep", &a->keep);
  a->causal = rt_get_i64(op, "causal", &a->diagonal);
  if (mask < 0 || !rt_get_f64(op, "scale", &a->scale) ||
      mlirOperationGetNumOperands(op) !=
          rt_attention_arity(a->grad, mask != RT_ATTENTION_MASK_NONE, a->dropout) ||
      mlirOperationGetNumResults(op) != (a->grad ? 3 : 2))
    return false;
  a->mask = (rt_attention_mask)mask;
  int at = a->grad ? 6 : 3;
  if (a->mask != RT_ATTENTION_MASK_NONE)
    a->mask_at = at++;
  if (a->dropout)
    a->seed_at = at;
  MlirType t[3];
  for (int i = 0; i < 3; i++)
    if (!rt_type_is_static_tensor(t[i] = mlirValueGetType(mlirOperationGetOperand(op, i))) ||
        mlirShapedTypeGetRank(t[i]) != 3)
      return false;
  remat_shape q = rt_shape_of(t[0]), k = rt_shape_of(t[1]), v = rt_shape_of(t[2]);
  a->n = q.d[0], a->sq = q.d[1], a->d = q.d[2], a->sk = k.d[1], a->dv = v.d[2];
  if (a->mask_at >= 0) {
    MlirType m = mlirValueGetType(mlirOperationGetOperand(op, a->mask_at));
    a->mask_batched = rt_type_is_static_tensor(m) && mlirShapedTypeGetRank(m) == 3;
  }
  return true;
}

uint64_t rt_attention_workspace(const rt_attention *a, int elem) {
  uint64_t bq = (uint64_t)(a->sq < RT_ATTENTION_BQ ? a->sq : RT_ATTENTION_BQ);
  uint64_t bk = (uint64_t)(a->sk < RT_ATTENTION_BK ? a->sk : RT_ATTENTION_BK);
  /* forward: the scores of a tile, m and l per row, the rows' accumulators; backward: D
   * per row, the probabilities and the score gradients of a tile */
  uint64_t n = a->grad ? bq + 2 * bq * bk : bq * bk + 2 * bq + bq * (uint64_t)a->dv;
  return n * (uint64_t)elem;
}

double rt_attention_flops(const rt_attention *a) {
  double pairs = 2.0 * (double)a->n * (double)a->sq * (double)a->sk;
  /* forward: q k^T and p v; backward: the scores again, dp = do v^T, dq, dk and dv */
  return a->grad ? pairs * (3.0 * (double)a->d + 2.0 * (double)a->dv)
                 : pairs * ((double)a->d + (double)a->dv);
}
