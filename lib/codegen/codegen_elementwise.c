/* codegen_elementwise.c: one element of an elementwise, compare, select, convert or full
 * op, and the arith scalar ops a kernel may hold. Semantics (docs/design.md, "Fusion,
 * codegen and PTX"): floats are IEEE in the compute type, f16/bf16 rounded after each op;
 * max/min propagate NaN (llvm.maximum/minimum); integers wrap, divide toward zero with
 * x/0 = 0, max/min/compare signed (i1 unsigned: false < true). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

/* Operand i at idx, in the compute type of element type `want`. A scalar is converted as
 * rt.convert would, but to f32 for f16/bf16 (not rounded first: the op is computed in
 * f32, as the reference interpreter does). A tensor of another type (the i64 domain
 * below) is sign-extended (i1: zero-extended). */
static LLVMValueRef operand_as(cg_kernel *k, MlirOperation op, intptr_t i, LLVMValueRef idx,
                               MlirType want) {
  MlirValue v = mlirOperationGetOperand(op, i);
  MlirType t = rt_element_type(mlirValueGetType(v));
  if (cg_is_half(want))
    want = mlirF32TypeGet(mlirTypeGetContext(want));
  return cg_convert(k->m, cg_value_at(k, v, idx), t, want);
}

/* Integer ops with a scalar operand of another type run in i64 and wrap to the element
 * width at the end: what the reference interpreter does for every integer op (for
 * operands of the element's own type both are the same). */
static bool needs_i64_domain(MlirOperation op, MlirType e) {
  if (cg_is_float(e))
    return false;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (!mlirTypeIsATensor(t) && !mlirTypeEqual(t, e))
      return true;
  }
  return false;
}

/* Element type of the first tensor operand (the verifier guarantees one). */
static MlirType tensor_element(MlirOperation op, intptr_t from) {
  for (intptr_t i = from, n = mlirOperationGetNumOperands(op); i < n; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsATensor(t))
      return mlirShapedTypeGetElementType(t);
  }
  return rt_element_type(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* Integer division toward zero; x / 0 = 0 and MIN / -1 = MIN (wrapping), so never UB. */
static LLVMValueRef int_div(cg_module *m, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0), minus1 = LLVMConstAllOnes(t);
  LLVMValueRef is0 = LLVMBuildICmp(m->b, LLVMIntEQ, b, zero, "");
  LLVMValueRef ism1 = LLVMBuildICmp(m->b, LLVMIntEQ, b, minus1, "");
  LLVMValueRef safe =
      LLVMBuildSelect(m->b, LLVMBuildOr(m->b, is0, ism1, ""), LLVMConstInt(t, 1, 0), b, "");
  LLVMValueRef q = LLVMBuildSDiv(m->b, a, safe, "");
  q = LLVMBuildSelect(m->b, ism1, LLVMBuildSub(m->b, zero, a, ""), q, "");
  return LLVMBuildSelect(m->b, is0, zero, q, "");
}

/* The float function of op ID's row (rt_ops.def) in the element type's width: its libm
 * function on the host, its libdevice one on nvptx64, called on ARGS. */
static LLVMValueRef row_fn(cg_module *m, rt_op_id id, bool wide, LLVMValueRef *args, unsigned n) {
  const char *name = m->target == REMAT_TARGET_HOST ? rt_op_libm(id, wide)
                                                    : rt_op_libdevice(id, wide);
  if (!name)
    remat_fatal("rt_ops.def: row '%s' names no function for this target", rt_op_name(id));
  return cg_call_float(m, name, args, n);
}

/* A float function of an RT_MATH row. */
static LLVMValueRef math(cg_module *m, bool fl, rt_op_id id, bool wide, LLVMValueRef x) {
  if (!fl)
    remat_fatal("float function %s on an integer (the verifier rejects it)", rt_op_name(id));
  return row_fn(m, id, wide, &x, 1);
}

/* clamp(x, 0, RT_HARD_CAP) as the runtime computes it (ordered compares: NaN and -0 pass
 * through), and x + RT_HARD_OFFSET. */
static LLVMValueRef hard_clamp(cg_module *m, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef zero = LLVMConstReal(t, 0.0), cap = LLVMConstReal(t, RT_HARD_CAP);
  LLVMValueRef hi = LLVMBuildSelect(m->b, LLVMBuildFCmp(m->b, LLVMRealOGT, x, cap, ""), cap, x, "");
  return LLVMBuildSelect(m->b, LLVMBuildFCmp(m->b, LLVMRealOLT, x, zero, ""), zero, hi, "");
}
static LLVMValueRef hard_shift(cg_module *m, LLVMValueRef x) {
  return LLVMBuildFAdd(m->b, x, LLVMConstReal(LLVMTypeOf(x), RT_HARD_OFFSET), "");
}

/* One element of an RT_EW or RT_MATH op (rt_ops.def) from its operands' values X, Y (Y
 * unused for unary ops), computed in the compute type of element type E, the domain. */
static LLVMValueRef ew_element(cg_module *m, rt_op_id id, MlirType e, LLVMValueRef x,
                               LLVMValueRef y) {
  bool fl = cg_is_float(e), i1 = cg_is_i1(e), wide = mlirTypeIsAF64(e);
  bool host = m->target == REMAT_TARGET_HOST;
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef xy[2] = {x, y};
  switch (id) {
  case RT_OP_ADD: return fl ? LLVMBuildFAdd(m->b, x, y, "") : LLVMBuildAdd(m->b, x, y, "");
  case RT_OP_SUB: return fl ? LLVMBuildFSub(m->b, x, y, "") : LLVMBuildSub(m->b, x, y, "");
  case RT_OP_MUL: return fl ? LLVMBuildFMul(m->b, x, y, "") : LLVMBuildMul(m->b, x, y, "");
  case RT_OP_DIV: return fl ? LLVMBuildFDiv(m->b, x, y, "") : int_div(m, x, y);
  case RT_OP_MAX:
    return cg_intrinsic(m, fl ? "llvm.maximum" : i1 ? "llvm.umax" : "llvm.smax", t, xy, 2);
  case RT_OP_MIN:
    return cg_intrinsic(m, fl ? "llvm.minimum" : i1 ? "llvm.umin" : "llvm.smin", t, xy, 2);
  case RT_OP_POW:
    if (fl)
      return row_fn(m, id, wide, xy, 2);
    if (i1) /* a^0 = 1, a^1 = a */
      return LLVMBuildOr(m->b, x, LLVMBuildNot(m->b, y, ""), "");
    return cg_ipow(m, x, y);
  case RT_OP_NEG:
    return fl ? LLVMBuildFNeg(m->b, x, "") : LLVMBuildSub(m->b, LLVMConstInt(t, 0, 0), x, "");
  case RT_OP_ABS: {
    if (fl)
      return cg_intrinsic(m, "llvm.fabs", t, &x, 1);
    if (i1)
      return x;
    LLVMValueRef args[2] = {x, LLVMConstInt(m->i1, 0, 0)}; /* abs(MIN) = MIN */
    return cg_intrinsic(m, "llvm.abs", t, args, 2);
  }
  case RT_OP_SQRT:
    if (!fl)
      break;
    return cg_intrinsic(m, "llvm.sqrt", t, &x, 1);
  case RT_OP_RSQRT:
    if (!fl)
      break;
    if (!host)
      return row_fn(m, id, wide, &x, 1);
    return LLVMBuildFDiv(m->b, LLVMConstReal(t, 1.0), cg_intrinsic(m, "llvm.sqrt", t, &x, 1), "");
  case RT_OP_SOFTPLUS: { /* x above the threshold, else log1p(exp(x)): the rows' functions */
    if (!fl)
      break;
    LLVMValueRef above =
        LLVMBuildFCmp(m->b, LLVMRealOGT, x, LLVMConstReal(t, RT_SOFTPLUS_THRESHOLD), "");
    LLVMValueRef ex = row_fn(m, RT_OP_EXP, wide, &x, 1);
    return LLVMBuildSelect(m->b, above, x, row_fn(m, RT_OP_LOG1P, wide, &ex, 1), "");
  }
  case RT_OP_HARDSWISH: /* x * clamp(x + 3, 0, 6) / 6, the runtime's order */
    if (!fl)
      break;
    return LLVMBuildFDiv(m->b, LLVMBuildFMul(m->b, x, hard_clamp(m, hard_shift(m, x)), ""),
                         LLVMConstReal(t, RT_HARD_CAP), "");
  case RT_OP_HARDSIGMOID: /* clamp(x + 3, 0, 6) / 6 */
    if (!fl)
      break;
    return LLVMBuildFDiv(m->b, hard_clamp(m, hard_shift(m, x)), LLVMConstReal(t, RT_HARD_CAP), "");
  case RT_OP_RELU6:
    if (!fl)
      break;
    return hard_clamp(m, x);
  case RT_OP_MISH: { /* x * tanh(log1p(exp(x))): the rows' functions */
    if (!fl)
      break;
    LLVMValueRef v = row_fn(m, RT_OP_EXP, wide, &x, 1);
    v = row_fn(m, RT_OP_LOG1P, wide, &v, 1);
    v = row_fn(m, RT_OP_TANH, wide, &v, 1);
    return LLVMBuildFMul(m->b, x, v, "");
  }
  case RT_OP_SELECT: /* cg_elementwise */ break;
#define RT_MATH(ID, ...) \
  case RT_OP_##ID:       \
    return math(m, fl, id, wide, x);
#define RT_OP(...)
#include "rt_ops.def"
#define RT_EW(...)
#define RT_MATH(...)
#define RT_OP(ID, ...) case RT_OP_##ID:
#include "rt_ops.def"
  case RT_OP_NONE: break;
  }
  remat_fatal("'%s' is not an elementwise op of %s", rt_op_name(id), fl ? "floats" : "integers");
}

static LLVMValueRef compare(cg_module *m, rt_op_id id, MlirType e, LLVMValueRef a, LLVMValueRef b) {
  LLVMRealPredicate fp = LLVMRealPredicateFalse;
  LLVMIntPredicate sp = LLVMIntEQ, up = LLVMIntEQ; /* signed, unsigned (i1: false < true) */
  switch (id) {
  case RT_OP_LT: fp = LLVMRealOLT, sp = LLVMIntSLT, up = LLVMIntULT; break;
  case RT_OP_LE: fp = LLVMRealOLE, sp = LLVMIntSLE, up = LLVMIntULE; break;
  case RT_OP_GT: fp = LLVMRealOGT, sp = LLVMIntSGT, up = LLVMIntUGT; break;
  case RT_OP_GE: fp = LLVMRealOGE, sp = LLVMIntSGE, up = LLVMIntUGE; break;
  case RT_OP_EQ: fp = LLVMRealOEQ, sp = LLVMIntEQ, up = LLVMIntEQ; break;
  case RT_OP_NE: fp = LLVMRealUNE, sp = LLVMIntNE, up = LLVMIntNE; break;
#define RT_CMP(...)
#define RT_OP(ID, ...) case RT_OP_##ID:
#include "rt_ops.def"
  case RT_OP_NONE: remat_fatal("'%s' is not a comparison", rt_op_name(id));
  }
  if (cg_is_float(e))
    return LLVMBuildFCmp(m->b, fp, a, b, "");
  return LLVMBuildICmp(m->b, cg_is_i1(e) ? up : sp, a, b, "");
}

/* rt.full's value attribute in the result's element type, converted as rt.convert
 * converts (an integer attribute as an i64 value; i1 attributes read 0/1). */
static LLVMValueRef full_value(cg_kernel *k, MlirOperation op, MlirType e) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsAFloat(a))
    return cg_float_const(k->m, e, mlirFloatAttrGetValueDouble(a));
  if (mlirAttributeIsAInteger(a) || mlirAttributeIsABool(a)) {
    MlirType at = mlirAttributeGetType(a);
    int64_t v = mlirAttributeIsABool(a) ? mlirBoolAttrGetValue(a)
                : mlirTypeIsAInteger(at) && mlirIntegerTypeGetWidth(at) == 1
                    ? (int64_t)(mlirIntegerAttrGetValueUInt(a) & 1)
                    : mlirIntegerAttrGetValueInt(a);
    MlirType i64 = mlirIntegerTypeGet(mlirTypeGetContext(e), 64);
    return cg_convert(k->m, cg_i64(k->m, v), i64, e);
  }
  rt_emit_error(op, "'rt.full' value must be a float or integer attribute");
  k->failed = true;
  return LLVMGetUndef(cg_compute_type(k->m, e));
}

LLVMValueRef cg_elementwise(cg_kernel *k, MlirOperation op, LLVMValueRef idx) {
  cg_module *m = k->m;
  rt_op_id id = rt_op_lookup(op);
  MlirType re = rt_element_type(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (id == RT_OP_FULL)
    return full_value(k, op, re);
  if (id == RT_OP_CONVERT) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    return cg_convert(m, cg_value_at(k, in, idx), rt_element_type(mlirValueGetType(in)), re);
  }
  if (id == RT_OP_SELECT) {
    MlirType i1 = mlirIntegerTypeGet(mlirTypeGetContext(re), 1);
    LLVMValueRef c = operand_as(k, op, 0, idx, i1);
    LLVMValueRef a = operand_as(k, op, 1, idx, re);
    LLVMValueRef b = operand_as(k, op, 2, idx, re);
    return LLVMBuildSelect(m->b, c, a, b, "");
  }
  MlirType e = tensor_element(op, 0);
  if (rt_op_arity(id) == 1) {
    LLVMValueRef x = operand_as(k, op, 0, idx, e);
    return cg_round(m, e, ew_element(m, id, e, x, x));
  }
  MlirType d = needs_i64_domain(op, e) ? mlirIntegerTypeGet(mlirTypeGetContext(e), 64) : e;
  /* operands in order (one declarator after the other: C sequences them) */
  LLVMValueRef a = operand_as(k, op, 0, idx, d);
  LLVMValueRef b = operand_as(k, op, 1, idx, d);
  if (rt_op_kind_of(id) == RT_KIND_COMPARE)
    return compare(m, id, d, a, b);
  if (cg_is_float(e))
    return cg_round(m, e, ew_element(m, id, d, a, b));
  LLVMValueRef r = ew_element(m, id, d, a, b);
  return mlirTypeEqual(d, e) ? r : LLVMBuildTrunc(m->b, r, cg_compute_type(m, e), "");
}

/* ---- arith scalar ops -------------------------------------------------------------- */

/* The arith ops a kernel may hold (scalar arithmetic the fusion pulls in). */
typedef enum arith_op {
  ARITH_CONSTANT,
  ARITH_ADDF,
  ARITH_SUBF,
  ARITH_MULF,
  ARITH_DIVF,
  ARITH_NEGF,
  ARITH_ADDI,
  ARITH_SUBI,
  ARITH_MULI,
  ARITH_EXTF,
  ARITH_TRUNCF,
  ARITH_SITOFP,
  ARITH_EXTSI,
  ARITH_TRUNCI,
  ARITH_COUNT
} arith_op;

static const char *const arith_names[ARITH_COUNT] = {
    [ARITH_CONSTANT] = "arith.constant", [ARITH_ADDF] = "arith.addf",
    [ARITH_SUBF] = "arith.subf",         [ARITH_MULF] = "arith.mulf",
    [ARITH_DIVF] = "arith.divf",         [ARITH_NEGF] = "arith.negf",
    [ARITH_ADDI] = "arith.addi",         [ARITH_SUBI] = "arith.subi",
    [ARITH_MULI] = "arith.muli",         [ARITH_EXTF] = "arith.extf",
    [ARITH_TRUNCF] = "arith.truncf",     [ARITH_SITOFP] = "arith.sitofp",
    [ARITH_EXTSI] = "arith.extsi",       [ARITH_TRUNCI] = "arith.trunci",
};

/* ARITH_COUNT when OP is none of them. */
static arith_op arith_of(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (int i = 0; i < ARITH_COUNT; i++)
    if (rt_str_eq(name, arith_names[i]))
      return (arith_op)i;
  return ARITH_COUNT;
}

bool cg_arith_supported(MlirOperation op) {
  if (arith_of(op) == ARITH_COUNT || mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return rt_type_is_scalar(t) && rt_element_type_is_supported(t);
}

LLVMValueRef cg_arith(cg_kernel *k, MlirOperation op) {
  cg_module *m = k->m;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  arith_op which = arith_of(op);
  if (which == ARITH_CONSTANT) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
    if (mlirAttributeIsAFloat(a))
      return cg_float_const(m, t, mlirFloatAttrGetValueDouble(a));
    if (mlirAttributeIsAInteger(a))
      return cg_int_const(m, t, mlirIntegerAttrGetValueInt(a));
    rt_emit_error(op, "'arith.constant' in a kernel must be a scalar float or integer");
    k->failed = true;
    return LLVMGetUndef(cg_compute_type(m, t));
  }
  MlirValue v0 = mlirOperationGetOperand(op, 0);
  LLVMValueRef a = cg_value_at(k, v0, NULL);
  LLVMValueRef b = mlirOperationGetNumOperands(op) > 1
                       ? cg_value_at(k, mlirOperationGetOperand(op, 1), NULL)
                       : NULL;
  switch (which) {
  case ARITH_ADDF: return cg_round(m, t, LLVMBuildFAdd(m->b, a, b, ""));
  case ARITH_SUBF: return cg_round(m, t, LLVMBuildFSub(m->b, a, b, ""));
  case ARITH_MULF: return cg_round(m, t, LLVMBuildFMul(m->b, a, b, ""));
  case ARITH_DIVF: return cg_round(m, t, LLVMBuildFDiv(m->b, a, b, ""));
  case ARITH_NEGF: return cg_round(m, t, LLVMBuildFNeg(m->b, a, ""));
  case ARITH_ADDI: return LLVMBuildAdd(m->b, a, b, "");
  case ARITH_SUBI: return LLVMBuildSub(m->b, a, b, "");
  case ARITH_MULI: return LLVMBuildMul(m->b, a, b, "");
  case ARITH_EXTSI: return LLVMBuildSExt(m->b, a, cg_compute_type(m, t), "");
  case ARITH_TRUNCI: return LLVMBuildTrunc(m->b, a, cg_compute_type(m, t), "");
  case ARITH_EXTF:
  case ARITH_TRUNCF:
  case ARITH_SITOFP: return cg_convert(m, a, mlirValueGetType(v0), t);
  case ARITH_CONSTANT:
  case ARITH_COUNT: break;
  }
  remat_fatal("arith op %d in a kernel (check_body admits only these)", (int)which);
}
