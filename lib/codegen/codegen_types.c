/* codegen_types.c: element types in kernels: compute types, loads and stores of the
 * storage formats, rt.convert semantics, and f16/bf16 rounding done with integer ops so
 * that every target gets the bits of lib/numeric/half.c (round to nearest even, quiet NaN keeping
 * the top payload bits, subnormals kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "half.h"
#include "rt.h"

bool cg_is_float(MlirType e) { return mlirTypeIsAFloat(e); }
bool cg_is_half(MlirType e) { return mlirTypeIsAF16(e) || mlirTypeIsABF16(e); }
bool cg_is_i1(MlirType e) { return mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 1; }

LLVMTypeRef cg_compute_type(cg_module *m, MlirType e) {
  if (mlirTypeIsAF32(e) || cg_is_half(e))
    return m->f32;
  if (mlirTypeIsAF64(e))
    return m->f64;
  if (mlirTypeIsAInteger(e))
    return LLVMIntTypeInContext(m->ctx, mlirIntegerTypeGetWidth(e));
  remat_fatal("no compute type for an unsupported element type");
}

/* The type an element has in memory. */
static LLVMTypeRef storage_type(cg_module *m, MlirType e) {
  if (cg_is_half(e))
    return m->i16;
  if (cg_is_i1(e))
    return m->i8;
  return cg_compute_type(m, e);
}

LLVMValueRef cg_i64(cg_module *m, int64_t v) {
  return LLVMConstInt(m->i64, (unsigned long long)v, 1);
}
static LLVMValueRef i32c(cg_module *m, uint32_t v) { return LLVMConstInt(m->i32, v, 0); }

static LLVMValueRef element_ptr(cg_module *m, MlirType e, LLVMValueRef base, LLVMValueRef idx) {
  return LLVMBuildGEP2(m->b, storage_type(m, e), base, &idx, 1, "");
}

LLVMValueRef cg_load(cg_module *m, MlirType e, LLVMValueRef base, LLVMValueRef idx) {
  LLVMValueRef v = LLVMBuildLoad2(m->b, storage_type(m, e), element_ptr(m, e, base, idx), "");
  if (mlirTypeIsAF16(e))
    return cg_f16_bits_to_f32(m, v);
  if (mlirTypeIsABF16(e))
    return cg_bf16_bits_to_f32(m, v);
  if (cg_is_i1(e))
    return LLVMBuildICmp(m->b, LLVMIntNE, v, LLVMConstInt(m->i8, 0, 0), "");
  return v;
}

/* If v is `call @widen(i16 bits)`, the bits: a rounded value is stored as it was. */
static LLVMValueRef widened_from(LLVMValueRef v, const char *widen) {
  if (!LLVMIsACallInst(v))
    return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(v);
  size_t n;
  const char *name = LLVMGetValueName2(callee, &n);
  return n == strlen(widen) && !memcmp(name, widen, n) ? LLVMGetOperand(v, 0) : NULL;
}

void cg_store(cg_module *m, MlirType e, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v) {
  LLVMValueRef bits;
  if (mlirTypeIsAF16(e))
    v = (bits = widened_from(v, "remat.f16.to.f32")) ? bits : cg_f32_to_f16_bits(m, v);
  else if (mlirTypeIsABF16(e))
    v = (bits = widened_from(v, "remat.bf16.to.f32")) ? bits : cg_f32_to_bf16_bits(m, v);
  else if (cg_is_i1(e))
    v = LLVMBuildZExt(m->b, v, m->i8, "");
  LLVMBuildStore(m->b, v, element_ptr(m, e, base, idx));
}

LLVMValueRef cg_round(cg_module *m, MlirType e, LLVMValueRef v) {
  if (cg_is_half(e) && LLVMIsAConstantFP(v)) { /* constants round here, as lib/half.c */
    LLVMBool lost;
    float x = (float)LLVMConstRealGetDouble(v, &lost);
    x = mlirTypeIsAF16(e) ? f16_bits_to_f32(f32_to_f16_bits(x))
                          : bf16_bits_to_f32(f32_to_bf16_bits(x));
    return LLVMConstReal(m->f32, x);
  }
  if (mlirTypeIsAF16(e))
    return cg_f16_bits_to_f32(m, cg_f32_to_f16_bits(m, v));
  if (mlirTypeIsABF16(e))
    return cg_bf16_bits_to_f32(m, cg_f32_to_bf16_bits(m, v));
  return v;
}

/* ---- f16 / bf16 on integers --------------------------------------------------------- */

static LLVMValueRef sel(cg_module *m, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(m->b, c, a, b, "");
}

/* magnitude >> shift rounded to nearest even on the dropped bits; shift in [1, 31]. */
static LLVMValueRef shift_round_even(cg_module *m, LLVMValueRef mag, LLVMValueRef shift) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef one = i32c(m, 1);
  LLVMValueRef kept = LLVMBuildLShr(b, mag, shift, "");
  LLVMValueRef mask = LLVMBuildSub(b, LLVMBuildShl(b, one, shift, ""), one, "");
  LLVMValueRef dropped = LLVMBuildAnd(b, mag, mask, "");
  LLVMValueRef half = LLVMBuildShl(b, one, LLVMBuildSub(b, shift, one, ""), "");
  LLVMValueRef above = LLVMBuildICmp(b, LLVMIntUGT, dropped, half, "");
  LLVMValueRef tie = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, dropped, half, ""),
                                  LLVMBuildTrunc(b, kept, m->i1, ""), "");
  LLVMValueRef up = LLVMBuildOr(b, above, tie, "");
  return LLVMBuildAdd(b, kept, LLVMBuildZExt(b, up, m->i32, ""), "");
}

static LLVMValueRef f32_to_f16_body(cg_module *m, LLVMValueRef x) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef bits = LLVMBuildBitCast(b, x, m->i32, "");
  LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, i32c(m, 16), ""), i32c(m, 0x8000), "");
  LLVMValueRef exp = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, i32c(m, 23), ""), i32c(m, 0xff), "");
  LLVMValueRef frac = LLVMBuildAnd(b, bits, i32c(m, 0x7fffff), "");
  LLVMValueRef inf = LLVMBuildOr(b, sign, i32c(m, 0x7c00), "");
  /* NaN: quiet, top 9 payload bits kept. */
  LLVMValueRef nan = LLVMBuildOr(b, LLVMBuildOr(b, sign, i32c(m, 0x7e00), ""),
                                 LLVMBuildLShr(b, frac, i32c(m, 13), ""), "");
  /* Normal: rebias (127 -> 15) and drop 13 bits; a carry moves into the exponent. */
  LLVMValueRef e16 = LLVMBuildSub(b, exp, i32c(m, 112), "");
  LLVMValueRef normal = LLVMBuildOr(
      b, sign,
      shift_round_even(m, LLVMBuildOr(b, LLVMBuildShl(b, e16, i32c(m, 23), ""), frac, ""),
                       i32c(m, 13)),
      "");
  /* Subnormal: (2^23 + frac) >> (126 - exp), for shifts 14..24; beyond: signed zero. */
  LLVMValueRef shift = LLVMBuildSub(b, i32c(m, 126), exp, "");
  LLVMValueRef shift_ok = LLVMBuildICmp(b, LLVMIntULE, shift, i32c(m, 24), "");
  LLVMValueRef safe_shift = sel(m, shift_ok, shift, i32c(m, 24));
  LLVMValueRef sub = LLVMBuildOr(
      b, sign, shift_round_even(m, LLVMBuildOr(b, frac, i32c(m, 0x800000), ""), safe_shift), "");
  LLVMValueRef small =
      sel(m, LLVMBuildAnd(b, shift_ok, LLVMBuildICmp(b, LLVMIntNE, exp, i32c(m, 0), ""), ""), sub,
          sign);
  /* exp is 0..255 so e16 (as signed) is -112..143. */
  LLVMValueRef r = sel(m, LLVMBuildICmp(b, LLVMIntSGE, e16, i32c(m, 1), ""), normal, small);
  r = sel(m, LLVMBuildICmp(b, LLVMIntSGE, e16, i32c(m, 31), ""), inf, r);
  LLVMValueRef is_special = LLVMBuildICmp(b, LLVMIntEQ, exp, i32c(m, 0xff), "");
  LLVMValueRef special = sel(m, LLVMBuildICmp(b, LLVMIntEQ, frac, i32c(m, 0), ""), inf, nan);
  r = sel(m, is_special, special, r);
  return LLVMBuildTrunc(b, r, m->i16, "");
}

static LLVMValueRef f16_to_f32_body(cg_module *m, LLVMValueRef h) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef w = LLVMBuildZExt(b, h, m->i32, "");
  LLVMValueRef sign = LLVMBuildShl(b, LLVMBuildAnd(b, w, i32c(m, 0x8000), ""), i32c(m, 16), "");
  LLVMValueRef exp = LLVMBuildAnd(b, LLVMBuildLShr(b, w, i32c(m, 10), ""), i32c(m, 0x1f), "");
  LLVMValueRef frac = LLVMBuildAnd(b, w, i32c(m, 0x3ff), "");
  LLVMValueRef frac13 = LLVMBuildShl(b, frac, i32c(m, 13), "");
  LLVMValueRef special = LLVMBuildOr(b, LLVMBuildOr(b, sign, i32c(m, 0x7f800000), ""), frac13, "");
  LLVMValueRef normal = LLVMBuildOr(
      b,
      LLVMBuildOr(b, sign, LLVMBuildShl(b, LLVMBuildAdd(b, exp, i32c(m, 112), ""), i32c(m, 23), ""),
                  ""),
      frac13, "");
  /* Zero or subnormal: frac * 2^-24, exact in f32. */
  LLVMValueRef mag =
      LLVMBuildFMul(b, LLVMBuildUIToFP(b, frac, m->f32, ""), LLVMConstReal(m->f32, 0x1p-24), "");
  LLVMValueRef sub = LLVMBuildOr(b, LLVMBuildBitCast(b, mag, m->i32, ""), sign, "");
  LLVMValueRef r = sel(m, LLVMBuildICmp(b, LLVMIntEQ, exp, i32c(m, 0), ""), sub, normal);
  r = sel(m, LLVMBuildICmp(b, LLVMIntEQ, exp, i32c(m, 0x1f), ""), special, r);
  return LLVMBuildBitCast(b, r, m->f32, "");
}

static LLVMValueRef f32_to_bf16_body(cg_module *m, LLVMValueRef x) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef bits = LLVMBuildBitCast(b, x, m->i32, "");
  LLVMValueRef is_nan = LLVMBuildICmp(b, LLVMIntUGT, LLVMBuildAnd(b, bits, i32c(m, 0x7fffffff), ""),
                                      i32c(m, 0x7f800000), "");
  LLVMValueRef nan = LLVMBuildOr(b, LLVMBuildLShr(b, bits, i32c(m, 16), ""), i32c(m, 0x40), "");
  LLVMValueRef r = sel(m, is_nan, nan, shift_round_even(m, bits, i32c(m, 16)));
  return LLVMBuildTrunc(b, r, m->i16, "");
}

static LLVMValueRef bf16_to_f32_body(cg_module *m, LLVMValueRef h) {
  LLVMValueRef w = LLVMBuildShl(m->b, LLVMBuildZExt(m->b, h, m->i32, ""), i32c(m, 16), "");
  return LLVMBuildBitCast(m->b, w, m->f32, "");
}

/* Each conversion is an internal always-inline function (`remat.f32.to.f16`, ...): the
 * kernels' IR stays readable and O3 inlines them. */
static LLVMValueRef call_helper(cg_module *m, const char *name, LLVMTypeRef ret, LLVMValueRef arg,
                                LLVMValueRef (*body)(cg_module *, LLVMValueRef)) {
  LLVMTypeRef param = LLVMTypeOf(arg), fty = LLVMFunctionType(ret, &param, 1, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
  if (!f) {
    f = LLVMAddFunction(m->mod, name, fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(m->ctx, inl, 0));
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(m->b);
    LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, f, "entry"));
    LLVMBuildRet(m->b, body(m, LLVMGetParam(f, 0)));
    LLVMPositionBuilderAtEnd(m->b, saved);
  }
  return LLVMBuildCall2(m->b, fty, f, &arg, 1, "");
}

LLVMValueRef cg_f32_to_f16_bits(cg_module *m, LLVMValueRef x) {
  return call_helper(m, "remat.f32.to.f16", m->i16, x, f32_to_f16_body);
}
LLVMValueRef cg_f16_bits_to_f32(cg_module *m, LLVMValueRef h) {
  return call_helper(m, "remat.f16.to.f32", m->f32, h, f16_to_f32_body);
}
LLVMValueRef cg_f32_to_bf16_bits(cg_module *m, LLVMValueRef x) {
  return call_helper(m, "remat.f32.to.bf16", m->i16, x, f32_to_bf16_body);
}
LLVMValueRef cg_bf16_bits_to_f32(cg_module *m, LLVMValueRef h) {
  return call_helper(m, "remat.bf16.to.f32", m->f32, h, bf16_to_f32_body);
}

/* ---- conversions ------------------------------------------------------------------- */

LLVMValueRef cg_convert(cg_module *m, LLVMValueRef v, MlirType from, MlirType to) {
  LLVMBuilderRef b = m->b;
  if (mlirTypeEqual(from, to))
    return v;
  LLVMTypeRef tt = cg_compute_type(m, to);
  if (cg_is_float(from) && cg_is_float(to)) {
    /* f64 -> f16/bf16 rounds through f32, as (float) then half.c does. */
    if (mlirTypeIsAF64(from))
      v = LLVMBuildFPTrunc(b, v, m->f32, "");
    if (mlirTypeIsAF64(to))
      return LLVMBuildFPExt(b, v, m->f64, "");
    return cg_round(m, to, v);
  }
  if (!cg_is_float(from) && cg_is_float(to)) {
    LLVMTypeRef via = mlirTypeIsAF64(to) ? m->f64 : m->f32;
    v = cg_is_i1(from) ? LLVMBuildUIToFP(b, v, via, "") : LLVMBuildSIToFP(b, v, via, "");
    return cg_round(m, to, v);
  }
  if (cg_is_i1(to)) /* nonzero is true; NaN too, as in C */
    return cg_is_float(from)
               ? LLVMBuildFCmp(b, LLVMRealUNE, v, LLVMConstReal(LLVMTypeOf(v), 0), "")
               : LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
  if (cg_is_float(from)) { /* toward zero, saturating, NaN -> 0: never poison */
    LLVMTypeRef types[2] = {tt, LLVMTypeOf(v)};
    unsigned id = LLVMLookupIntrinsicID("llvm.fptosi.sat", 15);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m->mod, id, types, 2);
    return LLVMBuildCall2(b, LLVMIntrinsicGetType(m->ctx, id, types, 2), f, &v, 1, "");
  }
  unsigned wf = mlirIntegerTypeGetWidth(from), wt = mlirIntegerTypeGetWidth(to);
  if (wf == 1)
    return LLVMBuildZExt(b, v, tt, "");
  if (wf < wt)
    return LLVMBuildSExt(b, v, tt, "");
  return LLVMBuildTrunc(b, v, tt, "");
}

LLVMValueRef cg_float_const(cg_module *m, MlirType e, double value) {
  return cg_convert(m, LLVMConstReal(m->f64, value), mlirF64TypeGet(mlirTypeGetContext(e)), e);
}

LLVMValueRef cg_int_const(cg_module *m, MlirType e, int64_t value) {
  if (mlirTypeIsAInteger(e)) { /* wraps to the width: i1 keeps the low bit */
    unsigned w = mlirIntegerTypeGetWidth(e);
    unsigned long long bits = (unsigned long long)value;
    return LLVMConstInt(cg_compute_type(m, e), w < 64 ? bits & ((1ull << w) - 1) : bits, 0);
  }
  MlirType i64 = mlirIntegerTypeGet(mlirTypeGetContext(e), 64);
  return cg_convert(m, cg_i64(m, value), i64, e);
}
