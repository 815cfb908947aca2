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

static LLVMValueRef binary_float(cg_module *m, rt_op_id id, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef ab[2] = {a, b};
  bool f64 = LLVMTypeOf(a) == m->f64;
  switch (id) {
  case RT_OP_ADD: return LLVMBuildFAdd(m->b, a, b, "");
  case RT_OP_SUB: return LLVMBuildFSub(m->b, a, b, "");
  case RT_OP_MUL: return LLVMBuildFMul(m->b, a, b, "");
  case RT_OP_DIV: return LLVMBuildFDiv(m->b, a, b, "");
  case RT_OP_MAX: return cg_intrinsic(m, "llvm.maximum", LLVMTypeOf(a), ab, 2);
  case RT_OP_MIN: return cg_intrinsic(m, "llvm.minimum", LLVMTypeOf(a), ab, 2);
  case RT_OP_POW: return cg_libm(m, f64 ? "pow" : "powf", ab, 2);
  default: remat_fatal("not a binary op");
  }
}

static LLVMValueRef binary_int(cg_module *m, rt_op_id id, bool i1, LLVMValueRef a,
                               LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef ab[2] = {a, b}, zero = LLVMConstInt(t, 0, 0), minus1 = LLVMConstAllOnes(t);
  switch (id) {
  case RT_OP_ADD: return LLVMBuildAdd(m->b, a, b, "");
  case RT_OP_SUB: return LLVMBuildSub(m->b, a, b, "");
  case RT_OP_MUL: return LLVMBuildMul(m->b, a, b, "");
  case RT_OP_DIV: {
    /* Toward zero; x / 0 = 0 and MIN / -1 = MIN (wrapping), so never UB. */
    LLVMValueRef is0 = LLVMBuildICmp(m->b, LLVMIntEQ, b, zero, "");
    LLVMValueRef ism1 = LLVMBuildICmp(m->b, LLVMIntEQ, b, minus1, "");
    LLVMValueRef safe = LLVMBuildSelect(m->b, LLVMBuildOr(m->b, is0, ism1, ""),
                                        LLVMConstInt(t, 1, 0), b, "");
    LLVMValueRef q = LLVMBuildSDiv(m->b, a, safe, "");
    q = LLVMBuildSelect(m->b, ism1, LLVMBuildSub(m->b, zero, a, ""), q, "");
    return LLVMBuildSelect(m->b, is0, zero, q, "");
  }
  case RT_OP_MAX: return cg_intrinsic(m, i1 ? "llvm.umax" : "llvm.smax", t, ab, 2);
  case RT_OP_MIN: return cg_intrinsic(m, i1 ? "llvm.umin" : "llvm.smin", t, ab, 2);
  case RT_OP_POW:
    if (i1) /* a^0 = 1, a^1 = a */
      return LLVMBuildOr(m->b, a, LLVMBuildNot(m->b, b, ""), "");
    return cg_ipow(m, a, b);
  default: remat_fatal("not a binary op");
  }
}

static LLVMValueRef unary(cg_module *m, rt_op_id id, MlirType e, LLVMValueRef x) {
  bool f64 = mlirTypeIsAF64(e);
  LLVMTypeRef t = LLVMTypeOf(x);
  if (!cg_is_float(e)) {
    if (id == RT_OP_NEG)
      return LLVMBuildSub(m->b, LLVMConstInt(t, 0, 0), x, "");
    if (id == RT_OP_ABS) {
      if (cg_is_i1(e))
        return x;
      LLVMValueRef args[2] = {x, LLVMConstInt(m->i1, 0, 0)}; /* abs(MIN) = MIN */
      return cg_intrinsic(m, "llvm.abs", t, args, 2);
    }
    remat_fatal("float-only unary op on an integer (the verifier rejects it)");
  }
  const char *fn = NULL;
  switch (id) {
  case RT_OP_NEG: return LLVMBuildFNeg(m->b, x, "");
  case RT_OP_ABS: return cg_intrinsic(m, "llvm.fabs", t, &x, 1);
  case RT_OP_SQRT: return cg_intrinsic(m, "llvm.sqrt", t, &x, 1);
  case RT_OP_RSQRT:
    if (m->target == REMAT_TARGET_NVPTX64)
      return cg_libm(m, f64 ? "rsqrt" : "rsqrtf", &x, 1);
    return LLVMBuildFDiv(m->b, LLVMConstReal(t, 1.0), cg_intrinsic(m, "llvm.sqrt", t, &x, 1), "");
  case RT_OP_EXP: fn = f64 ? "exp" : "expf"; break;
  case RT_OP_LOG: fn = f64 ? "log" : "logf"; break;
  case RT_OP_TANH: fn = f64 ? "tanh" : "tanhf"; break;
  case RT_OP_ERF: fn = f64 ? "erf" : "erff"; break;
  case RT_OP_SIN: fn = f64 ? "sin" : "sinf"; break;
  case RT_OP_COS: fn = f64 ? "cos" : "cosf"; break;
  default: remat_fatal("not a unary op");
  }
  return cg_libm(m, fn, &x, 1);
}

static LLVMValueRef compare(cg_module *m, rt_op_id id, MlirType e, LLVMValueRef a,
                            LLVMValueRef b) {
  static const LLVMRealPredicate fp[] = {LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
                                         LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE};
  static const LLVMIntPredicate sp[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
                                        LLVMIntSGE, LLVMIntEQ,  LLVMIntNE};
  static const LLVMIntPredicate up[] = {LLVMIntULT, LLVMIntULE, LLVMIntUGT,
                                        LLVMIntUGE, LLVMIntEQ,  LLVMIntNE};
  int i = (int)(id - RT_OP_LT);
  if (cg_is_float(e))
    return LLVMBuildFCmp(m->b, fp[i], a, b, "");
  return LLVMBuildICmp(m->b, cg_is_i1(e) ? up[i] : sp[i], a, b, "");
}

/* rt.full's value attribute in the result's element type. */
static LLVMValueRef full_value(cg_kernel *k, MlirOperation op, MlirType e) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsAFloat(a))
    return cg_float_const(k->m, e, mlirFloatAttrGetValueDouble(a));
  if (mlirAttributeIsAInteger(a))
    return cg_int_const(k->m, e, mlirIntegerAttrGetValueInt(a));
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
  if (rt_op_arity(id) == 1)
    return cg_round(m, e, unary(m, id, e, operand_as(k, op, 0, idx, e)));
  MlirType d = needs_i64_domain(op, e) ? mlirIntegerTypeGet(mlirTypeGetContext(e), 64) : e;
  /* operands in order (one declarator after the other: C sequences them) */
  LLVMValueRef a = operand_as(k, op, 0, idx, d);
  LLVMValueRef b = operand_as(k, op, 1, idx, d);
  if (rt_op_kind_of(id) == RT_KIND_COMPARE)
    return compare(m, id, d, a, b);
  if (cg_is_float(e))
    return cg_round(m, e, binary_float(m, id, a, b));
  LLVMValueRef r = binary_int(m, id, cg_is_i1(d), a, b);
  return mlirTypeEqual(d, e) ? r : LLVMBuildTrunc(m->b, r, cg_compute_type(m, e), "");
}

/* ---- arith scalar ops -------------------------------------------------------------- */

static const char *const arith_ops[] = {
    "arith.constant", "arith.addf",  "arith.subf",   "arith.mulf",  "arith.divf",
    "arith.negf",     "arith.addi",  "arith.subi",   "arith.muli",  "arith.extf",
    "arith.truncf",   "arith.sitofp", "arith.extsi", "arith.trunci", NULL};

static int arith_index(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (int i = 0; arith_ops[i]; i++)
    if (rt_str_eq(name, arith_ops[i]))
      return i;
  return -1;
}

bool cg_arith_supported(MlirOperation op) {
  if (arith_index(op) < 0 || mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return rt_type_is_scalar(t) && rt_element_type_is_supported(t);
}

LLVMValueRef cg_arith(cg_kernel *k, MlirOperation op) {
  cg_module *m = k->m;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int i = arith_index(op);
  if (i == 0) {
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
  LLVMValueRef r;
  switch (i) {
  case 1: r = LLVMBuildFAdd(m->b, a, b, ""); break;
  case 2: r = LLVMBuildFSub(m->b, a, b, ""); break;
  case 3: r = LLVMBuildFMul(m->b, a, b, ""); break;
  case 4: r = LLVMBuildFDiv(m->b, a, b, ""); break;
  case 5: r = LLVMBuildFNeg(m->b, a, ""); break;
  case 6: return LLVMBuildAdd(m->b, a, b, "");
  case 7: return LLVMBuildSub(m->b, a, b, "");
  case 8: return LLVMBuildMul(m->b, a, b, "");
  case 12: return LLVMBuildSExt(m->b, a, cg_compute_type(m, t), "");
  case 13: return LLVMBuildTrunc(m->b, a, cg_compute_type(m, t), "");
  default: /* extf truncf sitofp */
    return cg_convert(m, a, mlirValueGetType(v0), t);
  }
  return cg_round(m, t, r);
}
