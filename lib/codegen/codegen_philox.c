/* codegen_philox.c: rt.uniform_philox computed in the kernel, bit for bit as lib/numeric/philox.c:
 *   key = (lo32(seed), hi32(seed)), counter = (lo32(offset), hi32(offset), lo32(i/4),
 *   hi32(i/4)), bits = Philox4x32-10(counter, key)[i % 4];
 *   u = (float)bits * 2^-32 + 2^-33, u == 1 ? 0 : u; value = llvm.fma.f32(u, hi - lo, lo);
 *   f16/bf16: value rounded, a value equal to rounded hi becomes rounded lo.
 * The generator is an internal always-inline function; its 32x32->64 products are
 * mul.hi.u32/mul.lo.u32 on nvptx64 and one 64-bit multiply on the host. No mask ever leaves a kernel:
 * the backward recomputes from seed and offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

static LLVMValueRef c32(cg_module *m, uint32_t v) { return LLVMConstInt(m->i32, v, 0); }

static LLVMValueRef hi32(cg_module *m, LLVMValueRef x64) {
  return LLVMBuildTrunc(m->b, LLVMBuildLShr(m->b, x64, cg_i64(m, 32), ""), m->i32, "");
}

/* High and low halves of the 32x32->64 product x * mult. On nvptx64 the high half is
 * llvm.nvvm.mulhi.ui (mul.hi.u32): from zext/mul/lshr, InstCombine widens the whole round
 * to 64-bit arithmetic and the backend loses the 32-bit form. */
static void mul_hi_lo(cg_module *m, LLVMValueRef x, uint32_t mult, LLVMValueRef *hi,
                      LLVMValueRef *lo) {
  LLVMBuilderRef b = m->b;
  if (m->target == REMAT_TARGET_NVPTX64) {
    LLVMValueRef args[2] = {x, c32(m, mult)};
    *hi = cg_intrinsic(m, "llvm.nvvm.mulhi.ui", NULL, args, 2);
    *lo = LLVMBuildMul(b, x, c32(m, mult), "");
    return;
  }
  LLVMValueRef p =
      LLVMBuildMul(b, LLVMBuildZExt(b, x, m->i64, ""), LLVMConstInt(m->i64, mult, 0), "");
  *hi = hi32(m, p);
  *lo = LLVMBuildTrunc(b, p, m->i32, "");
}

/* internal i32 @remat.philox.bits(i64 seed, i64 offset, i64 index) */
static LLVMValueRef bits_helper(cg_module *m) {
  const char *name = "remat.philox.bits";
  LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
  if (f)
    return f;
  LLVMTypeRef params[3] = {m->i64, m->i64, m->i64};
  f = LLVMAddFunction(m->mod, name, LLVMFunctionType(m->i32, params, 3, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(m->ctx, inl, 0));
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(m->b);
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, f, "entry"));
  LLVMBuilderRef b = m->b;
  LLVMValueRef seed = LLVMGetParam(f, 0), offset = LLVMGetParam(f, 1), index = LLVMGetParam(f, 2);
  LLVMValueRef block = LLVMBuildLShr(b, index, cg_i64(m, 2), "block");
  LLVMValueRef k0 = LLVMBuildTrunc(b, seed, m->i32, ""), k1 = hi32(m, seed);
  LLVMValueRef c[4] = {LLVMBuildTrunc(b, offset, m->i32, ""), hi32(m, offset),
                       LLVMBuildTrunc(b, block, m->i32, ""), hi32(m, block)};
  for (int round = 0; round < 10; round++) {
    if (round > 0) {
      k0 = LLVMBuildAdd(b, k0, c32(m, 0x9E3779B9u), "");
      k1 = LLVMBuildAdd(b, k1, c32(m, 0xBB67AE85u), "");
    }
    LLVMValueRef hi0, lo0, hi1, lo1;
    mul_hi_lo(m, c[0], 0xD2511F53u, &hi0, &lo0);
    mul_hi_lo(m, c[2], 0xCD9E8D57u, &hi1, &lo1);
    c[0] = LLVMBuildXor(b, LLVMBuildXor(b, hi1, c[1], ""), k0, "");
    c[2] = LLVMBuildXor(b, LLVMBuildXor(b, hi0, c[3], ""), k1, "");
    c[1] = lo1;
    c[3] = lo0;
  }
  LLVMValueRef word = LLVMBuildTrunc(b, LLVMBuildAnd(b, index, cg_i64(m, 3), ""), m->i32, "word");
  LLVMValueRef r = c[3];
  for (int w = 2; w >= 0; w--)
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, word, c32(m, (uint32_t)w), ""), c[w], r, "");
  LLVMBuildRet(b, r);
  LLVMPositionBuilderAtEnd(m->b, saved);
  return f;
}

LLVMValueRef cg_philox_f32(cg_module *m, LLVMValueRef seed, LLVMValueRef offset, LLVMValueRef idx,
                           double lo, double hi) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef args[3] = {seed, offset, idx};
  LLVMValueRef f = bits_helper(m);
  LLVMTypeRef params[3] = {m->i64, m->i64, m->i64};
  LLVMValueRef bits = LLVMBuildCall2(b, LLVMFunctionType(m->i32, params, 3, 0), f, args, 3, "bits");

  LLVMValueRef u = LLVMBuildUIToFP(b, bits, m->f32, "");
  u = LLVMBuildFMul(b, u, LLVMConstReal(m->f32, 0x1p-32), ""); /* exact */
  u = LLVMBuildFAdd(b, u, LLVMConstReal(m->f32, 0x1p-33), "");
  LLVMValueRef one = LLVMBuildFCmp(b, LLVMRealOEQ, u, LLVMConstReal(m->f32, 1.0), "");
  u = LLVMBuildSelect(b, one, LLVMConstReal(m->f32, 0.0), u, "u");
  /* lo and hi rounded to f32 as C's (float) does; the range rounds in f32. */
  float lo_f = (float)lo, hi_f = (float)hi, range = hi_f - lo_f;
  LLVMValueRef fma_args[3] = {u, LLVMConstReal(m->f32, range), LLVMConstReal(m->f32, lo_f)};
  return cg_intrinsic(m, "llvm.fma", m->f32, fma_args, 3);
}

LLVMValueRef cg_philox(cg_kernel *k, MlirOperation op, LLVMValueRef idx) {
  cg_module *m = k->m;
  LLVMBuilderRef b = m->b;
  MlirType e = rt_element_type(mlirValueGetType(mlirOperationGetResult(op, 0)));
  double lo = 0, hi = 0;
  rt_get_f64(op, "lo", &lo);
  rt_get_f64(op, "hi", &hi);
  LLVMValueRef seed = cg_value_at(k, mlirOperationGetOperand(op, 0), NULL);
  LLVMValueRef offset = cg_value_at(k, mlirOperationGetOperand(op, 1), NULL);
  LLVMValueRef v = cg_philox_f32(m, seed, offset, idx, lo, hi);
  if (!cg_is_half(e))
    return v;
  float lo_f = (float)lo, hi_f = (float)hi;
  LLVMValueRef r = cg_round(m, e, v);
  LLVMValueRef hi_r = cg_round(m, e, LLVMConstReal(m->f32, hi_f));
  LLVMValueRef lo_r = cg_round(m, e, LLVMConstReal(m->f32, lo_f));
  return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, r, hi_r, ""), lo_r, r, "");
}
