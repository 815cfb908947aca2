/* codegen_loop.c: the element loop every kernel and reduction runs in, per target, and
 * the host's `_packed` entry points.
 *   host:    for (i = max(begin, 0); i < min(end, numel); i++) (begin, end: last params)
 *   nvptx64: for (i = ctaid.x * ntid.x + tid.x; i < numel; i += ntid.x * nctaid.x) */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"

static LLVMValueRef sreg(cg_module *m, const char *name) {
  LLVMValueRef r = cg_intrinsic(m, name, NULL, NULL, 0);
  return LLVMBuildZExt(m->b, r, m->i64, "");
}

/* The blocks of every loop: for (iv = begin; iv < end; iv += l->step), the builder left
 * in the body. NAMES: the header, body and exit blocks and the induction variable. */
static void loop_blocks(cg_module *m, LLVMValueRef fn, LLVMValueRef begin, LLVMValueRef end,
                        const char *const names[4], cg_loop *l) {
  LLVMBuilderRef b = m->b;
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
  l->header = LLVMAppendBasicBlockInContext(m->ctx, fn, names[0]);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(m->ctx, fn, names[1]);
  l->exit = LLVMAppendBasicBlockInContext(m->ctx, fn, names[2]);
  LLVMBuildBr(b, l->header);
  LLVMPositionBuilderAtEnd(b, l->header);
  l->iv = LLVMBuildPhi(b, m->i64, names[3]);
  LLVMAddIncoming(l->iv, &begin, &entry, 1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, l->iv, end, ""), body, l->exit);
  LLVMPositionBuilderAtEnd(b, body);
}

void cg_loop_open(cg_module *m, LLVMValueRef fn, int64_t numel, cg_loop *l) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef begin, end = cg_i64(m, numel);
  if (m->target == REMAT_TARGET_HOST) {
    unsigned n = LLVMCountParams(fn);
    LLVMValueRef e = LLVMGetParam(fn, n - 1);
    LLVMValueRef bg = LLVMGetParam(fn, n - 2);
    LLVMSetValueName2(bg, "begin", 5);
    LLVMSetValueName2(e, "end", 3);
    /* Clamped into [0, numel]: safe for any range, and the trip count is known to be at
     * most numel, which keeps the vectorizer off loops of a few elements. */
    LLVMValueRef zero = cg_i64(m, 0);
    begin = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, bg, zero, ""), bg, zero, "");
    end = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, e, end, ""), e, end, "");
    l->step = cg_i64(m, 1);
  } else {
    LLVMValueRef tid = sreg(m, "llvm.nvvm.read.ptx.sreg.tid.x");
    LLVMValueRef ntid = sreg(m, "llvm.nvvm.read.ptx.sreg.ntid.x");
    LLVMValueRef ctaid = sreg(m, "llvm.nvvm.read.ptx.sreg.ctaid.x");
    LLVMValueRef nctaid = sreg(m, "llvm.nvvm.read.ptx.sreg.nctaid.x");
    begin = LLVMBuildAdd(b, LLVMBuildMul(b, ctaid, ntid, ""), tid, "");
    l->step = LLVMBuildMul(b, ntid, nctaid, "");
  }
  loop_blocks(m, fn, begin, end, (const char *[4]){"loop", "body", "exit", "i"}, l);
}

void cg_loop_open_rows(cg_module *m, LLVMValueRef fn, int64_t rows, cg_loop *l) {
  LLVMValueRef begin = sreg(m, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  l->step = sreg(m, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  loop_blocks(m, fn, begin, cg_i64(m, rows), (const char *[4]){"rows", "row", "exit", "r"}, l);
}

void cg_loop_open_between(cg_module *m, LLVMValueRef fn, LLVMValueRef begin, LLVMValueRef end,
                          cg_loop *l) {
  l->step = cg_i64(m, 1);
  loop_blocks(m, fn, begin, end, (const char *[4]){"for", "for.body", "for.exit", "j"}, l);
}

void cg_loop_open_serial(cg_module *m, LLVMValueRef fn, int64_t n, cg_loop *l) {
  cg_loop_open_between(m, fn, cg_i64(m, 0), cg_i64(m, n), l);
}

void cg_loop_close(cg_module *m, cg_loop *l) {
  LLVMValueRef next = LLVMBuildNSWAdd(m->b, l->iv, l->step, "");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(m->b);
  LLVMBuildBr(m->b, l->header);
  LLVMAddIncoming(l->iv, &next, &from, 1);
  LLVMMoveBasicBlockAfter(l->exit, LLVMGetLastBasicBlock(LLVMGetBasicBlockParent(from)));
  LLVMPositionBuilderAtEnd(m->b, l->exit);
}

void cg_emit_packed(cg_module *m, LLVMValueRef fn, const remat_cg_function *f) {
  char *name = xasprintf("%s_packed", f->name);
  LLVMTypeRef ptypes[3] = {m->ptr, m->i64, m->i64};
  LLVMValueRef w = LLVMAddFunction(m->mod, name, LLVMFunctionType(m->void_t, ptypes, 3, 0));
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, w, "entry"));
  int n = f->num_params;
  LLVMValueRef *args = xcalloc((size_t)n + 2, sizeof *args);
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  LLVMTypeRef *types = xcalloc((size_t)n + 2, sizeof *types);
  LLVMGetParamTypes(fty, types);
  for (int i = 0; i < n; i++) {
    LLVMValueRef idx = cg_i64(m, i);
    LLVMValueRef slot = LLVMBuildGEP2(m->b, m->ptr, LLVMGetParam(w, 0), &idx, 1, "");
    LLVMValueRef p = LLVMBuildLoad2(m->b, m->ptr, slot, "");
    /* tensors: the buffer pointer itself; scalars: a pointer to the value */
    args[i] = mlirTypeIsATensor(f->params[i].type) ? p : LLVMBuildLoad2(m->b, types[i], p, "");
  }
  args[n] = LLVMGetParam(w, 1);
  args[n + 1] = LLVMGetParam(w, 2);
  LLVMBuildCall2(m->b, fty, fn, args, (unsigned)(n + 2), "");
  LLVMBuildRetVoid(m->b);
  free(args);
  free(types);
  free(name);
}
