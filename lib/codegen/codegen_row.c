/* codegen_row.c: reductions, as row kernels and as reductions of host functions.
 *
 * A row is one element of the kept shape K; its len elements are the reduced coordinates
 * of S in row-major order. Every reduction of a kernel reduces one row structure (checked
 * by codegen_kernel.c). Per row: the reductions run in phases (a reduction whose input
 * reads another one's result runs in a later phase), then the epilogue stores the outputs.
 *
 * The reduction order is fixed (codegen.h, docs/design.md) so that both targets and the
 * reference interpreter (lib/runtime/ops.c) agree bit for bit: lane t of 256 accumulates
 * e_t, e_{t+256}, ... sequentially from the initial value, then the lanes combine as a
 * block of 8 warps does with shuffles (16, 8, 4, 2, 1 inside a warp, then 4, 2, 1 across
 * the warps' first lanes). On nvptx64 a lane is a thread of a 256-thread block and the
 * combination is shfl.sync.down plus shared memory; on the host a loop plays the lanes and
 * the tree runs on an array.
 *
 * Accumulation: f16/bf16/f32 in f32 (rounded once at the end), f64 in f64; sum from +0.0,
 * amax from -inf with NaN propagating (llvm.maximum); integers wrap, amax signed from MIN;
 * the i1 sum is xor, the i1 amax or. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

#define LANES REMAT_REDUCE_LANES
#define WARP REMAT_REDUCE_WARP

/* ---- structure ---------------------------------------------------------------------- */

cg_row cg_row_of(MlirOperation op) {
  cg_row r;
  memset(&r, 0, sizeof r);
  r.s = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  int64_t dims[RT_MAX_RANK];
  int nd = rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
  for (int i = 0; i < nd; i++)
    if (dims[i] >= 0 && dims[i] < r.s.rank)
      r.reduced[dims[i]] = true;
  int64_t stride[RT_MAX_RANK], acc = 1;
  for (int d = r.s.rank - 1; d >= 0; d--) {
    stride[d] = acc;
    acc *= r.s.d[d];
  }
  r.rows = r.len = 1;
  for (int d = 0; d < r.s.rank; d++) {
    if (r.reduced[d]) {
      r.rstride[r.rshape.rank] = stride[d];
      r.rshape.d[r.rshape.rank++] = r.s.d[d];
      r.len *= r.s.d[d];
    } else {
      r.kstride[r.kshape.rank] = stride[d];
      r.kshape.d[r.kshape.rank++] = r.s.d[d];
      r.rows *= r.s.d[d];
    }
  }
  return r;
}

bool cg_row_eq(const cg_row *a, const cg_row *b) {
  return a->s.rank == b->s.rank && !memcmp(a->s.d, b->s.d, sizeof(int64_t) * (size_t)a->s.rank) &&
         !memcmp(a->reduced, b->reduced, sizeof(bool) * (size_t)a->s.rank);
}

/* ---- accumulation ------------------------------------------------------------------- */

typedef struct reduction {
  MlirOperation op;
  bool sum;
  MlirType elem; /* element type of the input */
  LLVMTypeRef acc_t;
  int phase;
  LLVMValueRef lanes; /* host: [LANES x acc] */
  LLVMValueRef smem;  /* nvptx64: shared [WARP/4 + 1 x acc]: one slot per warp, result */
  LLVMValueRef acc;   /* the lane's running value (phi in the element loop) */
  LLVMValueRef result;
} reduction;

static LLVMValueRef init_value(const reduction *r) {
  if (cg_is_float(r->elem))
    return LLVMConstReal(r->acc_t, r->sum ? 0.0 : -__builtin_inf());
  if (r->sum || cg_is_i1(r->elem))
    return LLVMConstInt(r->acc_t, 0, 0);
  unsigned w = LLVMGetIntTypeWidth(r->acc_t); /* signed minimum */
  return LLVMConstInt(r->acc_t, 1ull << (w - 1), 0);
}

static LLVMValueRef combine(cg_module *m, const reduction *r, LLVMValueRef acc, LLVMValueRef x) {
  LLVMValueRef ax[2] = {acc, x};
  if (cg_is_float(r->elem))
    return r->sum ? LLVMBuildFAdd(m->b, acc, x, "")
                  : cg_intrinsic(m, "llvm.maximum", LLVMTypeOf(acc), ax, 2);
  if (cg_is_i1(r->elem)) /* the i1 sum wraps (xor), the max is or */
    return r->sum ? LLVMBuildXor(m->b, acc, x, "") : LLVMBuildOr(m->b, acc, x, "");
  return r->sum ? LLVMBuildAdd(m->b, acc, x, "")
                : cg_intrinsic(m, "llvm.smax", LLVMTypeOf(acc), ax, 2);
}

/* ---- loops -------------------------------------------------------------------------- */

/* A counted loop `for (iv = from; iv < to; iv += step)`: loop_open leaves the builder in
 * the header (the caller adds its phis), loop_cond emits the test and enters the body,
 * loop_close branches back and leaves the builder after the loop. */
typedef struct loop {
  LLVMBasicBlockRef pre, header, body, exit;
  LLVMValueRef iv, step;
} loop;

static void loop_open(cg_module *m, loop *l, LLVMValueRef from, LLVMValueRef step,
                      const char *name) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(m->b));
  l->pre = LLVMGetInsertBlock(m->b);
  l->header = LLVMAppendBasicBlockInContext(m->ctx, fn, name);
  l->body = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  l->exit = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  l->step = step;
  LLVMBuildBr(m->b, l->header);
  LLVMPositionBuilderAtEnd(m->b, l->header);
  l->iv = LLVMBuildPhi(m->b, m->i64, name);
  LLVMAddIncoming(l->iv, &from, &l->pre, 1);
}

/* After the caller's phis: the exit test, builder in the body. */
static void loop_cond(cg_module *m, loop *l, LLVMValueRef to) {
  LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntSLT, l->iv, to, ""), l->body, l->exit);
  LLVMPositionBuilderAtEnd(m->b, l->body);
}

/* Closes the loop from the current block; returns that block (for the phis). */
static LLVMBasicBlockRef loop_close(cg_module *m, loop *l) {
  LLVMValueRef next = LLVMBuildNSWAdd(m->b, l->iv, l->step, "");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(m->b);
  LLVMBuildBr(m->b, l->header);
  LLVMAddIncoming(l->iv, &next, &from, 1);
  LLVMMoveBasicBlockAfter(l->exit, from);
  LLVMPositionBuilderAtEnd(m->b, l->exit);
  return from;
}

/* S index of element j of the current row: base + sum of j's reduced coords x strides. */
static LLVMValueRef s_index(cg_module *m, const cg_row *row, LLVMValueRef base, LLVMValueRef j) {
  LLVMValueRef c[RT_MAX_RANK], at = base;
  cg_delinearize(m, &row->rshape, j, c);
  for (int d = 0; d < row->rshape.rank; d++) {
    if (row->rshape.d[d] == 1)
      continue;
    LLVMValueRef t =
        row->rstride[d] == 1 ? c[d] : LLVMBuildMul(m->b, c[d], cg_i64(m, row->rstride[d]), "");
    at = LLVMIsAConstantInt(at) && LLVMConstIntGetZExtValue(at) == 0
             ? t
             : LLVMBuildAdd(m->b, at, t, "");
  }
  return at;
}

/* Accumulates the reductions of one phase over the elements j = lane, lane + 256, ...
 * of the current row; leaves each r->acc the lane's value. */
static void accumulate(cg_kernel *k, const cg_row *row, LLVMValueRef base, reduction *rs, int n,
                       LLVMValueRef lane) {
  cg_module *m = k->m;
  loop l;
  loop_open(m, &l, lane, cg_i64(m, LANES), "j");
  LLVMValueRef *phis = xcalloc((size_t)(n), sizeof *phis);
  for (int i = 0; i < n; i++) {
    phis[i] = LLVMBuildPhi(m->b, rs[i].acc_t, "acc");
    LLVMValueRef init = init_value(&rs[i]);
    LLVMAddIncoming(phis[i], &init, &l.pre, 1);
  }
  loop_cond(m, &l, cg_i64(m, row->len));
  int mark = k->num_memo;
  k->s_idx = s_index(m, row, base, l.iv);
  LLVMValueRef *next = xcalloc((size_t)(n), sizeof *next);
  for (int i = 0; i < n; i++) {
    LLVMValueRef x = cg_value_at(k, mlirOperationGetOperand(rs[i].op, 0), k->s_idx);
    next[i] = combine(m, &rs[i], phis[i], x);
  }
  k->s_idx = NULL;
  k->num_memo = mark; /* values of the loop body do not dominate what follows */
  LLVMBasicBlockRef from = loop_close(m, &l);
  for (int i = 0; i < n; i++) {
    LLVMAddIncoming(phis[i], &next[i], &from, 1);
    rs[i].acc = phis[i];
  }
  free(next);
  free(phis);
}

/* Host: the lanes, then the tree, on an array per reduction. */
static LLVMValueRef lane_ptr(cg_module *m, const reduction *r, LLVMValueRef i) {
  LLVMValueRef idx[2] = {cg_i64(m, 0), i};
  return LLVMBuildGEP2(m->b, LLVMArrayType2(r->acc_t, LANES), r->lanes, idx, 2, "");
}

/* `internal void @remat.tree.<sum|max>.<type>(ptr lanes)`: the lanes' combination in
 * the fixed order, once per module and kind; the result is left in lane 0. */
static LLVMValueRef tree_helper(cg_module *m, const reduction *r) {
  char name[64], tb[16];
  LLVMTypeRef t = r->acc_t;
  if (t == m->f32)
    snprintf(tb, sizeof tb, "f32");
  else if (t == m->f64)
    snprintf(tb, sizeof tb, "f64");
  else
    snprintf(tb, sizeof tb, "i%u", LLVMGetIntTypeWidth(t));
  snprintf(name, sizeof name, "remat.tree.%s.%s", r->sum ? "sum" : "max", tb);
  LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
  if (f)
    return f;
  LLVMTypeRef fty = LLVMFunctionType(m->void_t, &m->ptr, 1, 0);
  f = LLVMAddFunction(m->mod, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(m->b);
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, f, "entry"));
  reduction h = *r;
  h.lanes = LLVMGetParam(f, 0);
  LLVMBuilderRef b = m->b;
  loop w;
  loop_open(m, &w, cg_i64(m, 0), cg_i64(m, WARP), "warp");
  loop_cond(m, &w, cg_i64(m, LANES));
  for (int off = WARP / 2; off >= 1; off /= 2)
    for (int l = 0; l < off; l++) {
      LLVMValueRef pa = lane_ptr(m, &h, l ? LLVMBuildAdd(b, w.iv, cg_i64(m, l), "") : w.iv);
      LLVMValueRef pb = lane_ptr(m, &h, LLVMBuildAdd(b, w.iv, cg_i64(m, l + off), ""));
      LLVMValueRef a = LLVMBuildLoad2(b, t, pa, ""), c = LLVMBuildLoad2(b, t, pb, "");
      LLVMBuildStore(b, combine(m, &h, a, c), pa);
    }
  loop_close(m, &w);
  for (int off = LANES / WARP / 2; off >= 1; off /= 2)
    for (int l = 0; l < off; l++) {
      LLVMValueRef pa = lane_ptr(m, &h, cg_i64(m, WARP * l));
      LLVMValueRef pb = lane_ptr(m, &h, cg_i64(m, WARP * (l + off)));
      LLVMValueRef a = LLVMBuildLoad2(b, t, pa, ""), c = LLVMBuildLoad2(b, t, pb, "");
      LLVMBuildStore(b, combine(m, &h, a, c), pa);
    }
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(m->b, saved);
  return f;
}

static void host_tree(cg_module *m, reduction *r) {
  LLVMTypeRef fty = LLVMFunctionType(m->void_t, &m->ptr, 1, 0);
  LLVMBuildCall2(m->b, fty, tree_helper(m, r), &r->lanes, 1, "");
  r->result = LLVMBuildLoad2(m->b, r->acc_t, lane_ptr(m, r, cg_i64(m, 0)), "");
}

/* nvptx64: shfl.sync.down of any accumulator type (64-bit values in two halves, narrow
 * integers widened to i32). */
static LLVMValueRef shfl_down(cg_module *m, LLVMValueRef v, int off) {
  LLVMBuilderRef b = m->b;
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef mask = LLVMConstInt(m->i32, 0xffffffffu, 0),
               o = LLVMConstInt(m->i32, (unsigned)off, 0);
  LLVMValueRef clamp = LLVMConstInt(m->i32, WARP - 1, 0);
  if (t == m->f32) {
    LLVMValueRef a[4] = {mask, v, o, clamp};
    return cg_intrinsic(m, "llvm.nvvm.shfl.sync.down.f32", NULL, a, 4);
  }
  if (t == m->f64 || t == m->i64) {
    LLVMValueRef x = t == m->f64 ? LLVMBuildBitCast(b, v, m->i64, "") : v;
    LLVMValueRef lo = LLVMBuildTrunc(b, x, m->i32, "");
    LLVMValueRef hi = LLVMBuildTrunc(b, LLVMBuildLShr(b, x, cg_i64(m, 32), ""), m->i32, "");
    LLVMValueRef a[4] = {mask, lo, o, clamp};
    lo = cg_intrinsic(m, "llvm.nvvm.shfl.sync.down.i32", NULL, a, 4);
    a[1] = hi;
    hi = cg_intrinsic(m, "llvm.nvvm.shfl.sync.down.i32", NULL, a, 4);
    x = LLVMBuildOr(b, LLVMBuildZExt(b, lo, m->i64, ""),
                    LLVMBuildShl(b, LLVMBuildZExt(b, hi, m->i64, ""), cg_i64(m, 32), ""), "");
    return t == m->f64 ? LLVMBuildBitCast(b, x, m->f64, "") : x;
  }
  LLVMValueRef x = t == m->i32 ? v : LLVMBuildZExt(b, v, m->i32, "");
  LLVMValueRef a[4] = {mask, x, o, clamp};
  x = cg_intrinsic(m, "llvm.nvvm.shfl.sync.down.i32", NULL, a, 4);
  return t == m->i32 ? x : LLVMBuildTrunc(b, x, t, "");
}

static void barrier(cg_module *m) {
  LLVMValueRef zero = LLVMConstInt(m->i32, 0, 0);
  cg_intrinsic(m, "llvm.nvvm.barrier.cta.sync.aligned.all", NULL, &zero, 1);
}

/* if (cond) { store v to p } */
static void store_if(cg_module *m, LLVMValueRef cond, LLVMValueRef v, LLVMValueRef p) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(m->b));
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  LLVMBuildCondBr(m->b, cond, then, join);
  LLVMPositionBuilderAtEnd(m->b, then);
  LLVMBuildStore(m->b, v, p);
  LLVMBuildBr(m->b, join);
  LLVMPositionBuilderAtEnd(m->b, join);
}

static LLVMValueRef smem_ptr(cg_module *m, const reduction *r, LLVMValueRef i) {
  LLVMValueRef idx[2] = {cg_i64(m, 0), i};
  return LLVMBuildGEP2(m->b, LLVMArrayType2(r->acc_t, LANES / WARP + 1), r->smem, idx, 2, "");
}

/* nvptx64: the block's lanes combined into r->result (every thread gets it). */
static void block_reduce(cg_module *m, reduction *r, LLVMValueRef lane, LLVMValueRef warp) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef v = r->acc;
  for (int off = WARP / 2; off >= 1; off /= 2)
    v = combine(m, r, v, shfl_down(m, v, off));
  LLVMValueRef lane0 = LLVMBuildICmp(b, LLVMIntEQ, lane, cg_i64(m, 0), "");
  store_if(m, lane0, v, smem_ptr(m, r, warp));
  barrier(m);
  /* Warp 0 combines the warps' values (lanes past the last warp hold the initial value,
   * which only lanes that are not read combine with). */
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
  LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, warp, cg_i64(m, 0), ""), first, join);
  LLVMPositionBuilderAtEnd(b, first);
  int nw = LANES / WARP;
  LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, lane, cg_i64(m, nw), "");
  LLVMValueRef slot = LLVMBuildAnd(b, lane, cg_i64(m, nw - 1), "");
  LLVMValueRef w = LLVMBuildSelect(b, in, LLVMBuildLoad2(b, r->acc_t, smem_ptr(m, r, slot), ""),
                                   init_value(r), "");
  for (int off = nw / 2; off >= 1; off /= 2)
    w = combine(m, r, w, shfl_down(m, w, off));
  store_if(m, lane0, w, smem_ptr(m, r, cg_i64(m, nw)));
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  barrier(m);
  r->result = LLVMBuildLoad2(b, r->acc_t, smem_ptr(m, r, cg_i64(m, nw)), "");
}

/* ---- the row kernel ----------------------------------------------------------------- */

static LLVMValueRef sreg(cg_module *m, const char *name) {
  return LLVMBuildZExt(m->b, cg_intrinsic(m, name, NULL, NULL, 0), m->i64, "");
}

/* Phase of each reduction: 1 + the highest phase among the reductions its input reads
 * (through any op of the kernel). level[] holds, per op of the body in order, the phase
 * its value needs; the body is in program order, so one pass suffices. */
static int value_level(MlirValue v, MlirOperation *ops, const int *level, int n) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], def))
      return level[i];
  return 0;
}

static void assign_phases(cg_kernel *k, reduction *rs, int nred, MlirOperation *kops, int nk,
                          int *klevel) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(k->body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  MlirOperation *ops = xcalloc((size_t)n + 1, sizeof *ops);
  int *level = xcalloc((size_t)n + 1, sizeof *level);
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(k->body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    ops[i] = op;
    int lv = 0;
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++) {
      int l = value_level(mlirOperationGetOperand(op, a), ops, level, i);
      lv = l > lv ? l : lv;
    }
    rt_op_id id = rt_op_lookup(op);
    level[i] = id == RT_OP_SUM || id == RT_OP_AMAX ? lv + 1 : lv;
  }
  for (int r = 0; r < nred; r++)
    rs[r].phase = value_level(mlirOperationGetResult(rs[r].op, 0), ops, level, n);
  for (int j = 0; j < nk; j++)
    klevel[j] = value_level(mlirOperationGetResult(kops[j], 0), ops, level, n);
  free(level);
  free(ops);
}

/* The K-shaped ops whose reductions are complete after phase p, at the current row. */
static void eval_kops(cg_kernel *k, MlirOperation *kops, const int *klevel, int nk, int p) {
  for (int j = 0; j < nk; j++)
    if (klevel[j] <= p)
      cg_value_at(k, mlirOperationGetResult(kops[j], 0), k->row_idx);
}

LLVMValueRef cg_reduction_at(cg_kernel *k, MlirValue v, LLVMValueRef idx) {
  for (int i = k->num_memo - 1; i >= 0; i--)
    if (k->memo[i].value == v.ptr && k->memo[i].index == idx)
      return k->memo[i].result;
  MlirOperation op = mlirOpResultGetOwner(v);
  rt_emit_error(op, "a kernel reads this reduction's result at another row than its own "
                    "(only broadcasts back along the reduced dims fuse)");
  k->failed = true;
  return LLVMGetUndef(cg_compute_type(k->m, rt_element_type(mlirValueGetType(v))));
}

static void memo_put(cg_kernel *k, MlirValue v, LLVMValueRef idx, LLVMValueRef r) {
  XGROW(k->memo, k->num_memo, k->cap_memo, 64);
  k->memo[k->num_memo++] = (cg_memo){v.ptr, idx, r};
}

static bool is_s(const cg_row *row, MlirValue v) {
  remat_shape s = rt_shape_of(mlirValueGetType(v));
  return s.rank == row->s.rank && !memcmp(s.d, row->s.d, sizeof(int64_t) * (size_t)s.rank);
}

void cg_emit_rows(cg_kernel *k, const cg_row *row, MlirOperation *reds, int nred,
                  MlirOperation *kops, int nkops, MlirValue *outs, LLVMValueRef *out_params,
                  int nout) {
  cg_module *m = k->m;
  LLVMBuilderRef b = m->b;
  bool host = m->target == REMAT_TARGET_HOST;
  k->row = row;
  reduction *rs = xcalloc((size_t)nred + 1, sizeof *rs);
  int *klevel = xcalloc((size_t)nkops + 1, sizeof *klevel);
  int phases = 0;
  size_t nlen;
  const char *fname = LLVMGetValueName2(k->fn, &nlen);
  for (int i = 0; i < nred; i++) {
    rs[i].op = reds[i];
    rs[i].sum = rt_op_lookup(reds[i]) == RT_OP_SUM;
    rs[i].elem = rt_element_type(mlirValueGetType(mlirOperationGetOperand(reds[i], 0)));
    rs[i].acc_t = cg_compute_type(m, rs[i].elem);
    if (host)
      rs[i].lanes = LLVMBuildAlloca(b, LLVMArrayType2(rs[i].acc_t, LANES), "lanes");
    else {
      char *name = xasprintf("%.*s.smem%d", (int)nlen, fname, i); /* any length */
      LLVMTypeRef at = LLVMArrayType2(rs[i].acc_t, LANES / WARP + 1);
      rs[i].smem = LLVMAddGlobalInAddressSpace(m->mod, at, name, 3);
      free(name);
      LLVMSetInitializer(rs[i].smem, LLVMGetUndef(at));
      LLVMSetLinkage(rs[i].smem, LLVMInternalLinkage);
    }
  }
  if (nred == 1 && nkops == 0)
    rs[0].phase = 1; /* a host reduction: its body is the host function */
  else
    assign_phases(k, rs, nred, kops, nkops, klevel);
  for (int i = 0; i < nred; i++)
    phases = rs[i].phase > phases ? rs[i].phase : phases;

  /* The row loop: host rows [begin, end); nvptx64 one block per row, grid-stride. */
  LLVMValueRef tid = NULL, lane = NULL, warp = NULL;
  cg_loop rl;
  if (host)
    cg_loop_open(m, k->fn, row->rows, &rl);
  else {
    LLVMValueRef fn = k->fn;
    tid = sreg(m, "llvm.nvvm.read.ptx.sreg.tid.x");
    LLVMValueRef ntid = sreg(m, "llvm.nvvm.read.ptx.sreg.ntid.x");
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(m->ctx, fn, "bad_block");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, ntid, cg_i64(m, LANES), ""), bad, ok);
    LLVMPositionBuilderAtEnd(b, bad);
    cg_intrinsic(m, "llvm.trap", NULL, NULL, 0);
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, ok);
    lane = LLVMBuildAnd(b, tid, cg_i64(m, WARP - 1), "lane");
    warp = LLVMBuildLShr(b, tid, cg_i64(m, 5), "warp");
    cg_loop_open_rows(m, fn, row->rows, &rl);
  }
  k->row_idx = rl.iv;
  int row_mark = k->num_memo;
  LLVMValueRef kc[RT_MAX_RANK], base = cg_i64(m, 0);
  cg_delinearize(m, &row->kshape, rl.iv, kc);
  for (int d = 0; d < row->kshape.rank; d++) {
    if (row->kshape.d[d] == 1)
      continue;
    LLVMValueRef t = row->kstride[d] == 1 ? kc[d]
                                          : LLVMBuildMul(b, kc[d], cg_i64(m, row->kstride[d]), "");
    base = LLVMIsAConstantInt(base) ? t : LLVMBuildAdd(b, base, t, "");
  }

  for (int p = 1; p <= phases; p++) {
    eval_kops(k, kops, klevel, nkops, p - 1);
    reduction *ph = xcalloc((size_t)nred, sizeof *ph);
    int n = 0;
    for (int i = 0; i < nred; i++)
      if (rs[i].phase == p)
        ph[n++] = rs[i];
    if (host) {
      loop lanes;
      loop_open(m, &lanes, cg_i64(m, 0), cg_i64(m, 1), "lane");
      loop_cond(m, &lanes, cg_i64(m, LANES));
      accumulate(k, row, base, ph, n, lanes.iv);
      for (int i = 0; i < n; i++)
        LLVMBuildStore(b, ph[i].acc, lane_ptr(m, &ph[i], lanes.iv));
      loop_close(m, &lanes);
      for (int i = 0; i < n; i++)
        host_tree(m, &ph[i]);
    } else {
      accumulate(k, row, base, ph, n, tid);
      for (int i = 0; i < n; i++)
        block_reduce(m, &ph[i], lane, warp);
    }
    for (int i = 0; i < n; i++)
      memo_put(k, mlirOperationGetResult(ph[i].op, 0), k->row_idx,
               cg_round(m, ph[i].elem, ph[i].result));
    free(ph);
  }

  /* Epilogue: outputs of shape S per element of the row, the others (shape K) once. */
  eval_kops(k, kops, klevel, nkops, phases);
  bool any_s = false;
  for (int o = 0; o < nout; o++) {
    if (is_s(row, outs[o])) {
      any_s = true;
      continue;
    }
    MlirType e = rt_element_type(mlirValueGetType(outs[o]));
    LLVMValueRef v = cg_value_at(k, outs[o], k->row_idx);
    if (host)
      cg_store(m, e, out_params[o], k->row_idx, v);
    else {
      LLVMValueRef fn = k->fn;
      LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
      LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(m->ctx, fn, "");
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, tid, cg_i64(m, 0), ""), then, join);
      LLVMPositionBuilderAtEnd(b, then);
      cg_store(m, e, out_params[o], k->row_idx, v);
      LLVMBuildBr(b, join);
      LLVMPositionBuilderAtEnd(b, join);
    }
  }
  if (any_s) {
    loop el;
    loop_open(m, &el, host ? cg_i64(m, 0) : tid, cg_i64(m, host ? 1 : LANES), "e");
    loop_cond(m, &el, cg_i64(m, row->len));
    int mark = k->num_memo;
    k->s_idx = s_index(m, row, base, el.iv);
    for (int o = 0; o < nout; o++)
      if (is_s(row, outs[o]))
        cg_store(m, rt_element_type(mlirValueGetType(outs[o])), out_params[o], k->s_idx,
                 cg_value_at(k, outs[o], k->s_idx));
    k->s_idx = NULL;
    k->num_memo = mark;
    loop_close(m, &el);
  }
  k->num_memo = row_mark;
  k->row_idx = NULL;
  cg_loop_close(m, &rl);
  free(klevel);
  free(rs);
}

/* ---- reductions of host functions --------------------------------------------------- */

int cg_emit_reduction(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out) {
  MlirType in_t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType out_t = mlirValueGetType(mlirOperationGetResult(op, 0));
  cg_row row = cg_row_of(op);
  out->name = xstrdup(name);
  out->kind = REMAT_CG_REDUCTION;
  out->source = op;
  out->numel = row.rows;
  out->row_len = row.len;
  out->num_params = 2;
  out->params = xcalloc(2, sizeof *out->params);
  out->params[0] = (remat_cg_param){in_t, false};
  out->params[1] = (remat_cg_param){out_t, true};

  bool host = m->target == REMAT_TARGET_HOST;
  LLVMTypeRef ptypes[4] = {m->ptr, m->ptr, m->i64, m->i64};
  LLVMValueRef fn =
      LLVMAddFunction(m->mod, name, LLVMFunctionType(m->void_t, ptypes, host ? 4 : 2, 0));
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  LLVMSetValueName2(LLVMGetParam(fn, 0), "in0", 3);
  LLVMSetValueName2(LLVMGetParam(fn, 1), "out0", 4);
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));

  MlirValue input = mlirOperationGetOperand(op, 0), result = mlirOperationGetResult(op, 0);
  LLVMValueRef in_param = LLVMGetParam(fn, 0), out_param = LLVMGetParam(fn, 1);
  cg_kernel k;
  memset(&k, 0, sizeof k);
  k.m = m;
  k.fn = fn;
  k.body = mlirOperationGetBlock(op);
  k.ext = &input;
  k.ext_params = &in_param;
  k.num_ext = 1;
  cg_emit_rows(&k, &row, &op, 1, NULL, 0, &result, &out_param, 1);
  LLVMBuildRetVoid(m->b);
  free(k.memo);
  if (host)
    cg_emit_packed(m, fn, out);
  return k.failed ? -1 : 0;
}
