/* codegen_indexing.c: rt.gather, rt.scatter_add and rt.argmax of a host function, each
 * a function of its own (`<fn>_i<N>`, docs/design.md "Indexing ops"). They are not fused:
 * their reads go where the data sends them, which the lazy per-element evaluation of
 * kernels (an index rewritten by views) does not express, and scatter_add's iteration
 * space is not its result's.
 *
 * Parameters: the op's operands (buffer pointers), the result buffer, then the error
 * record `err` (a tensor<3xi64>, zeroed by the caller); on the host (begin, end) last.
 * Iterations:
 *   gather       one per element of the result (= of the indices);
 *   scatter_add  one per position p of the non-dim coordinates: copies base's line
 *                through p into the result, then adds upd's line through p in
 *                ascending dim order: every target gets its additions in the row-major
 *                order of the reference, with no other iteration touching it;
 *   argmax       one per result element, a scan along dim.
 * An index outside [0, bound) is not read or written through: the iteration records
 * err = {1, index, position in the indices} when no smaller position is recorded yet,
 * so a single host call [0, numel) reports the first bad index in row-major order, as
 * the reference does (on nvptx64 threads race for the record: some bad index wins). */
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

/* Sizes around dimension dim of a shape: outer (dims before), mid (dim), inner (after). */
typedef struct around {
  int64_t outer, mid, inner;
} around;

static around around_of(MlirType t, int64_t dim) {
  remat_shape s = rt_shape_of(t);
  around a = {1, s.d[dim], 1};
  for (int k = 0; k < dim; k++)
    a.outer *= s.d[k];
  for (int k = (int)dim + 1; k < s.rank; k++)
    a.inner *= s.d[k];
  return a;
}

static LLVMValueRef err_slot(cg_module *m, LLVMValueRef err, int k) {
  LLVMValueRef i = cg_i64(m, k);
  return LLVMBuildGEP2(m->b, m->i64, err, &i, 1, "");
}

/* The index at position pos of the indices (element type ie) as an i64; branches to a
 * block that records an out-of-range index in err and continues after the access. The
 * builder is left where the index is known to be in [0, bound); *done is the block the
 * caller branches to when its access is over (both paths meet there). */
static LLVMValueRef checked_index(cg_module *m, LLVMValueRef fn, MlirType ie, LLVMValueRef idx,
                                  LLVMValueRef pos, int64_t bound, LLVMValueRef err,
                                  LLVMBasicBlockRef *done) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef v = cg_load(m, ie, idx, pos);
  if (LLVMTypeOf(v) != m->i64)
    v = LLVMBuildSExt(b, v, m->i64, "");
  /* one unsigned compare: a negative index is a huge unsigned one */
  LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntULT, v, cg_i64(m, bound), "");
  LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(m->ctx, fn, "in.range");
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(m->ctx, fn, "out.of.range");
  LLVMBasicBlockRef rec = LLVMAppendBasicBlockInContext(m->ctx, fn, "record");
  *done = LLVMAppendBasicBlockInContext(m->ctx, fn, "index.done");
  LLVMBuildCondBr(b, ok, in, bad);
  LLVMPositionBuilderAtEnd(b, bad);
  LLVMValueRef flag = LLVMBuildLoad2(b, m->i64, err_slot(m, err, 0), "");
  LLVMValueRef prev = LLVMBuildLoad2(b, m->i64, err_slot(m, err, 2), "");
  LLVMValueRef first = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, flag, cg_i64(m, 0), ""),
                                   LLVMBuildICmp(b, LLVMIntSLT, pos, prev, ""), "");
  LLVMBuildCondBr(b, first, rec, *done);
  LLVMPositionBuilderAtEnd(b, rec);
  LLVMBuildStore(b, cg_i64(m, 1), err_slot(m, err, 0));
  LLVMBuildStore(b, v, err_slot(m, err, 1));
  LLVMBuildStore(b, pos, err_slot(m, err, 2));
  LLVMBuildBr(b, *done);
  LLVMPositionBuilderAtEnd(b, in);
  return v;
}

static LLVMValueRef mul_add(cg_module *m, LLVMValueRef a, int64_t s, LLVMValueRef c) {
  return LLVMBuildNSWAdd(m->b, LLVMBuildNSWMul(m->b, a, cg_i64(m, s), ""), c, "");
}

/* r[i] = src[(o * mid + idx[i]) * inner + n] for i = (o, j, n). */
static void gather_body(cg_module *m, LLVMValueRef fn, MlirOperation op, LLVMValueRef *p,
                        LLVMValueRef i, int64_t dim) {
  MlirType st = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType it = mlirValueGetType(mlirOperationGetOperand(op, 1));
  around s = around_of(st, dim), x = around_of(it, dim);
  LLVMBuilderRef b = m->b;
  LLVMBasicBlockRef done;
  LLVMValueRef v = checked_index(m, fn, rt_element_type(it), p[1], i, s.mid, p[3], &done);
  LLVMValueRef o = LLVMBuildSDiv(b, i, cg_i64(m, x.mid * x.inner), "");
  LLVMValueRef n = LLVMBuildSRem(b, i, cg_i64(m, x.inner), "");
  LLVMValueRef at = mul_add(m, mul_add(m, o, s.mid, v), s.inner, n);
  MlirType e = rt_element_type(st);
  cg_store(m, e, p[2], i, cg_load(m, e, p[0], at));
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
}

/* Iteration q = (o, n) of the non-dim positions: the result's line through q is base's,
 * then upd's line through q is added to it in ascending order along dim. */
static void scatter_body(cg_module *m, LLVMValueRef fn, MlirOperation op, LLVMValueRef *p,
                         LLVMValueRef q, int64_t dim) {
  MlirType bt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType it = mlirValueGetType(mlirOperationGetOperand(op, 1));
  around s = around_of(bt, dim), x = around_of(it, dim);
  MlirType e = rt_element_type(bt);
  LLVMBuilderRef b = m->b;
  LLVMValueRef o = LLVMBuildSDiv(b, q, cg_i64(m, s.inner), "");
  LLVMValueRef n = LLVMBuildSRem(b, q, cg_i64(m, s.inner), "");
  LLVMValueRef base_line = LLVMBuildNSWMul(b, o, cg_i64(m, s.mid * s.inner), "");
  base_line = LLVMBuildNSWAdd(b, base_line, n, "");
  LLVMValueRef upd_line = LLVMBuildNSWMul(b, o, cg_i64(m, x.mid * x.inner), "");
  upd_line = LLVMBuildNSWAdd(b, upd_line, n, "");
  cg_loop c;
  cg_loop_open_serial(m, fn, s.mid, &c);
  LLVMValueRef j = c.iv;
  LLVMValueRef at = mul_add(m, j, s.inner, base_line);
  cg_store(m, e, p[3], at, cg_load(m, e, p[0], at));
  cg_loop_close(m, &c);
  cg_loop u;
  cg_loop_open_serial(m, fn, x.mid, &u);
  LLVMValueRef k = u.iv;
  LLVMValueRef pos = mul_add(m, k, x.inner, upd_line);
  LLVMBasicBlockRef done;
  LLVMValueRef v = checked_index(m, fn, rt_element_type(it), p[1], pos, s.mid, p[4], &done);
  LLVMValueRef t = mul_add(m, v, s.inner, base_line);
  LLVMValueRef acc = cg_load(m, e, p[3], t), add = cg_load(m, e, p[2], pos);
  LLVMValueRef sum = cg_is_float(e) ? LLVMBuildFAdd(b, acc, add, "") /* i1: add is xor */
                                    : LLVMBuildAdd(b, acc, add, "");
  cg_store(m, e, p[3], t, sum); /* f16/bf16: the store rounds, as the reference */
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  cg_loop_close(m, &u);
}

/* r[q] = the first j maximizing x[(o * mid + j) * inner + n], q = (o, n); a NaN is the
 * maximum: once one is found nothing replaces it. */
static void argmax_body(cg_module *m, LLVMValueRef fn, MlirOperation op, LLVMValueRef *p,
                        LLVMValueRef q, int64_t dim) {
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  around s = around_of(xt, dim);
  MlirType e = rt_element_type(xt);
  LLVMBuilderRef b = m->b;
  LLVMValueRef o = LLVMBuildSDiv(b, q, cg_i64(m, s.inner), "");
  LLVMValueRef n = LLVMBuildSRem(b, q, cg_i64(m, s.inner), "");
  LLVMValueRef line = mul_add(m, o, s.mid * s.inner, n);
  LLVMValueRef first = cg_load(m, e, p[0], line);
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(m->ctx, fn, "scan");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(m->ctx, fn, "scan.body");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(m->ctx, fn, "scan.exit");
  LLVMBuildBr(b, header);
  LLVMPositionBuilderAtEnd(b, header);
  LLVMValueRef j = LLVMBuildPhi(b, m->i64, "j");
  LLVMValueRef best = LLVMBuildPhi(b, m->i64, "best");
  LLVMValueRef mx = LLVMBuildPhi(b, LLVMTypeOf(first), "max");
  LLVMValueRef one = cg_i64(m, 1), zero = cg_i64(m, 0);
  LLVMAddIncoming(j, &one, &entry, 1);
  LLVMAddIncoming(best, &zero, &entry, 1);
  LLVMAddIncoming(mx, &first, &entry, 1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, j, cg_i64(m, s.mid), ""), body, exit);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef v = cg_load(m, e, p[0], mul_add(m, j, s.inner, line));
  LLVMValueRef take;
  if (cg_is_float(e)) { /* (v > max || v is NaN) && max is not NaN */
    LLVMValueRef gt = LLVMBuildFCmp(b, LLVMRealOGT, v, mx, "");
    LLVMValueRef vnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
    LLVMValueRef mord = LLVMBuildFCmp(b, LLVMRealORD, mx, mx, "");
    take = LLVMBuildAnd(b, LLVMBuildOr(b, gt, vnan, ""), mord, "");
  } else /* signed; i1 is 0/1 */
    take = LLVMBuildICmp(b, cg_is_i1(e) ? LLVMIntUGT : LLVMIntSGT, v, mx, "");
  LLVMValueRef nbest = LLVMBuildSelect(b, take, j, best, "");
  LLVMValueRef nmx = LLVMBuildSelect(b, take, v, mx, "");
  LLVMValueRef nj = LLVMBuildNSWAdd(b, j, one, "");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, header);
  LLVMAddIncoming(j, &nj, &from, 1);
  LLVMAddIncoming(best, &nbest, &from, 1);
  LLVMAddIncoming(mx, &nmx, &from, 1);
  LLVMPositionBuilderAtEnd(b, exit);
  MlirType i64 = rt_element_type(mlirValueGetType(mlirOperationGetResult(op, 0)));
  cg_store(m, i64, p[1], q, best);
}

int cg_emit_indexing(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out) {
  rt_op_id id = rt_op_lookup(op);
  int64_t dim = 0;
  rt_get_i64(op, "dim", &dim);
  int nin = (int)mlirOperationGetNumOperands(op);
  bool has_err = id != RT_OP_ARGMAX;
  int np = nin + 1 + has_err;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  out->name = xstrdup(name);
  out->kind = REMAT_CG_INDEXING;
  out->source = op;
  out->num_params = np;
  out->params = xcalloc((size_t)np, sizeof *out->params);
  for (int k = 0; k < nin; k++)
    out->params[k] = (remat_cg_param){mlirValueGetType(mlirOperationGetOperand(op, k)), false};
  out->params[nin] = (remat_cg_param){rt, true};
  if (has_err) {
    MlirContext ctx = mlirOperationGetContext(op);
    int64_t three = 3;
    out->params[nin + 1] = (remat_cg_param){
        mlirRankedTensorTypeGet(1, &three, mlirIntegerTypeGet(ctx, 64), mlirAttributeGetNull()),
        true};
  }
  int64_t numel;
  if (id == RT_OP_SCATTER_ADD) {
    around s = around_of(rt, dim);
    numel = s.outer * s.inner;
  } else
    rt_type_numel(rt, &numel);
  out->numel = numel;

  bool host = m->target == REMAT_TARGET_HOST;
  LLVMTypeRef ptypes[8];
  for (int k = 0; k < np; k++)
    ptypes[k] = m->ptr;
  ptypes[np] = ptypes[np + 1] = m->i64;
  LLVMValueRef fn = LLVMAddFunction(
      m->mod, name, LLVMFunctionType(m->void_t, ptypes, (unsigned)np + 2 * host, 0));
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  LLVMValueRef p[6];
  for (int k = 0; k < np; k++)
    p[k] = LLVMGetParam(fn, (unsigned)k);
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));
  cg_loop l;
  cg_loop_open(m, fn, numel, &l);
  if (id == RT_OP_GATHER)
    gather_body(m, fn, op, p, l.iv, dim);
  else if (id == RT_OP_SCATTER_ADD)
    scatter_body(m, fn, op, p, l.iv, dim);
  else
    argmax_body(m, fn, op, p, l.iv, dim);
  cg_loop_close(m, &l);
  LLVMBuildRetVoid(m->b);
  if (host)
    cg_emit_packed(m, fn, out);
  return 0;
}
