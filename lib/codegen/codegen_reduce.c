/* codegen_reduce.c: rt.sum / rt.amax of a host function -> `<hostfn>_r<N>(in, out)`.
 * One output element per loop iteration (host) or per GPU thread (grid-stride); its
 * reduced elements are visited in row-major order and accumulated sequentially, so the
 * host, the GPU and the reference interpreter agree bit for bit:
 *   f16/bf16/f32 accumulate in f32 (rounded once at the store), f64 in f64;
 *   sum starts from +0.0 (as the reference interpreter and PyTorch), amax from -inf and
 *   propagates NaN (llvm.maximum); integers wrap, amax signed from MIN; i1 sum wraps
 *   (xor), i1 amax is `or`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

static LLVMValueRef init_value(bool sum, MlirType e, LLVMTypeRef acc_t) {
  if (cg_is_float(e))
    return LLVMConstReal(acc_t, sum ? 0.0 : -__builtin_inf());
  if (sum || cg_is_i1(e))
    return LLVMConstInt(acc_t, 0, 0);
  unsigned w = LLVMGetIntTypeWidth(acc_t); /* signed minimum */
  return LLVMConstInt(acc_t, 1ull << (w - 1), 0);
}

static LLVMValueRef combine(cg_module *m, bool sum, MlirType e, LLVMValueRef acc, LLVMValueRef x) {
  LLVMValueRef ax[2] = {acc, x};
  if (cg_is_float(e))
    return sum ? LLVMBuildFAdd(m->b, acc, x, "") : cg_intrinsic(m, "llvm.maximum", LLVMTypeOf(acc), ax, 2);
  if (cg_is_i1(e)) /* the i1 sum wraps (xor), the max is or */
    return sum ? LLVMBuildXor(m->b, acc, x, "") : LLVMBuildOr(m->b, acc, x, "");
  return sum ? LLVMBuildAdd(m->b, acc, x, "") : cg_intrinsic(m, "llvm.smax", LLVMTypeOf(acc), ax, 2);
}

/* acc + x * scale, without the identities (readable -O0 IR). */
static LLVMValueRef add_scaled(cg_module *m, LLVMValueRef acc, LLVMValueRef x, int64_t scale) {
  if (scale != 1)
    x = LLVMBuildMul(m->b, x, cg_i64(m, scale), "");
  if (LLVMIsAConstantInt(acc) && LLVMConstIntGetSExtValue(acc) == 0)
    return x;
  return LLVMBuildAdd(m->b, acc, x, "");
}

int cg_emit_reduction(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out) {
  bool sum = rt_op_lookup(op) == RT_OP_SUM;
  MlirType in_t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType out_t = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType e = rt_element_type(in_t);
  remat_shape in = rt_shape_of(in_t), os = rt_shape_of(out_t);
  int64_t dims[RT_MAX_RANK];
  int nd = rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
  bool reduced[RT_MAX_RANK] = {false};
  for (int i = 0; i < nd; i++)
    reduced[dims[i]] = true;
  /* The reduced sub-shape, in the operand's dimension order (row-major visiting). */
  remat_shape rs = {0, {0}};
  int64_t stride[RT_MAX_RANK], rstride[RT_MAX_RANK], kstride[RT_MAX_RANK], s = 1;
  for (int d = in.rank - 1; d >= 0; d--) {
    stride[d] = s;
    s *= in.d[d];
  }
  int nk = 0;
  for (int d = 0; d < in.rank; d++) {
    if (reduced[d]) {
      rstride[rs.rank] = stride[d];
      rs.d[rs.rank++] = in.d[d];
    } else
      kstride[nk++] = stride[d];
  }

  out->name = xstrdup(name);
  out->kind = REMAT_CG_REDUCTION;
  out->source = op;
  out->numel = remat_shape_numel(&os);
  out->num_params = 2;
  out->params = xcalloc(2, sizeof *out->params);
  out->params[0] = (remat_cg_param){in_t, false};
  out->params[1] = (remat_cg_param){out_t, true};

  bool host = m->target == REMAT_TARGET_HOST;
  LLVMTypeRef ptypes[4] = {m->ptr, m->ptr, m->i64, m->i64};
  LLVMValueRef fn = LLVMAddFunction(m->mod, name, LLVMFunctionType(m->void_t, ptypes, host ? 4 : 2, 0));
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  LLVMSetValueName2(LLVMGetParam(fn, 0), "in0", 3);
  LLVMSetValueName2(LLVMGetParam(fn, 1), "out0", 4);
  LLVMBuilderRef b = m->b;
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));
  cg_loop loop;
  cg_loop_open(m, fn, out->numel, &loop);

  /* Base offset of this output element: its coordinates on the kept dimensions. */
  LLVMValueRef c[RT_MAX_RANK];
  cg_delinearize(m, &os, loop.iv, c);
  LLVMValueRef base = cg_i64(m, 0);
  for (int j = 0; j < nk; j++)
    base = add_scaled(m, base, c[j], kstride[j]);

  LLVMTypeRef acc_t = cg_compute_type(m, e);
  LLVMValueRef init = init_value(sum, e, acc_t), zero = cg_i64(m, 0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(m->ctx, fn, "reduce");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(m->ctx, fn, "reduce.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, fn, "reduce.done");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef r = LLVMBuildPhi(b, m->i64, "r"), acc = LLVMBuildPhi(b, acc_t, "acc");
  LLVMAddIncoming(r, &zero, &pre, 1);
  LLVMAddIncoming(acc, &init, &pre, 1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, r, cg_i64(m, remat_shape_numel(&rs)), ""), body, done);

  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef rc[RT_MAX_RANK];
  cg_delinearize(m, &rs, r, rc);
  LLVMValueRef at = base;
  for (int j = 0; j < rs.rank; j++)
    at = add_scaled(m, at, rc[j], rstride[j]);
  LLVMValueRef acc2 = combine(m, sum, e, acc, cg_load(m, e, LLVMGetParam(fn, 0), at));
  LLVMValueRef r2 = LLVMBuildNSWAdd(b, r, cg_i64(m, 1), "");
  LLVMBasicBlockRef last = LLVMGetInsertBlock(b);
  LLVMAddIncoming(r, &r2, &last, 1);
  LLVMAddIncoming(acc, &acc2, &last, 1);
  LLVMBuildBr(b, head);

  LLVMPositionBuilderAtEnd(b, done);
  cg_store(m, e, LLVMGetParam(fn, 1), loop.iv, cg_round(m, e, acc));
  cg_loop_close(m, &loop);
  LLVMBuildRetVoid(b);
  if (host)
    cg_emit_packed(m, fn, out);
  return 0;
}
