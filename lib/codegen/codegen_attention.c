/* codegen_attention.c: rt.attention and rt.attention_grad of a host function, each a
 * function of its own (`<fn>_a<N>`, docs/design.md "Attention: codegen"), in the order of
 * the reference (lib/runtime/attention_impl.h): every product rounded before it is added
 * (an fmul, then an fadd: mul.rn/add.rn in PTX), every sum sequential from +0, exp and
 * log the calls rt.exp and rt.log make (libm on the host, libdevice on nvptx64), the
 * dropout's uniforms codegen_philox.c's generator.
 *
 * Parameters: the op's operands (tensors as buffer pointers, the seed and offset i64 by
 * value), then its results; on the host (begin, end) last. Iterations (one GPU thread
 * each, any 1-D launch):
 *   rt.attention       N Sq: row r = (n, i) computes o_i and lse_i, the online softmax
 *                      over key tiles of RT_ATTENTION_BK ascending;
 *   rt.attention_grad  N Sq + N Sk: the first N Sq are the row pass, r = (n, i): D_i,
 *                      then dq_i over the keys ascending; the rest the column pass,
 *                      (n, j): dk_j and dv_j over the queries ascending, recomputing
 *                      each D_i (the same dot, the same bits) instead of reading the
 *                      row pass's, so the two passes need no order between them.
 * Each iteration keeps its own row (q_i and do_i, or k_j and v_j), its accumulators, and
 * in the forward one key tile's scores, m and l in private memory (allocas: registers
 * after promotion, local memory on the GPU for the arrays); q, k, v, o, do and the mask
 * are read from global memory as the keys (queries) go by. A masked position computes
 * nothing (no dot product, no exp). */
#include <math.h>
#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

/* The largest D and Dv: a thread keeps rows of them in private memory (7 rows of 1024 f64
 * are 56 KiB of the host's stack or the GPU's local memory). */
#define CG_ATTENTION_MAX_DIM 1024

typedef struct attn_fn {
  cg_module *m;
  LLVMValueRef fn;
  rt_attention a;
  MlirType elem, mask_elem;
  LLVMTypeRef t; /* f32 or f64 */
  bool wide;
  LLVMValueRef q, k, v, o, lse, dout, mask, seed, offset; /* parameters (NULL: absent) */
  LLVMValueRef scale, keep;                               /* in t */
  LLVMValueRef dot_acc;                                   /* the dot products' slot */
} attn_fn;

/* A row of a tensor: a private array (local) or buffer `base` from element `at`. */
typedef struct vec {
  LLVMValueRef base, at;
  bool local;
} vec;

static LLVMValueRef i64c(attn_fn *f, int64_t v) { return cg_i64(f->m, v); }

static LLVMValueRef add(attn_fn *f, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildNSWAdd(f->m->b, a, b, "");
}

static LLVMValueRef mul(attn_fn *f, LLVMValueRef a, int64_t c) {
  return LLVMBuildNSWMul(f->m->b, a, i64c(f, c), "");
}

static LLVMValueRef fconst(attn_fn *f, double v) { return LLVMConstReal(f->t, v); }

static LLVMValueRef slot_of(attn_fn *f, LLVMValueRef arr, LLVMValueRef e) {
  return LLVMBuildGEP2(f->m->b, f->t, arr, &e, 1, "");
}

static LLVMValueRef load_slot(attn_fn *f, LLVMValueRef slot) {
  return LLVMBuildLoad2(f->m->b, f->t, slot, "");
}

static LLVMValueRef at(attn_fn *f, vec x, LLVMValueRef e) {
  if (x.local)
    return load_slot(f, slot_of(f, x.base, e));
  return cg_load(f->m, f->elem, x.base, add(f, x.at, e));
}

/* A private array of n elements of t, in the entry block. */
static LLVMValueRef private_array(attn_fn *f, int64_t n, const char *name) {
  return LLVMBuildArrayAlloca(f->m->b, f->t, i64c(f, n > 0 ? n : 1), name);
}

/* An exp or log call, as rt.exp's and rt.log's. */
static LLVMValueRef math(attn_fn *f, rt_op_id id, LLVMValueRef x) {
  cg_module *m = f->m;
  const char *name = m->target == REMAT_TARGET_HOST ? rt_op_libm(id, f->wide)
                                                    : rt_op_libdevice(id, f->wide);
  if (!name)
    remat_fatal("rt_ops.def: row '%s' names no function for this target", rt_op_name(id));
  return cg_call_float(m, name, &x, 1);
}

/* Opens `if (cond)`; returns the block after it, for end_if. */
static LLVMBasicBlockRef begin_if(attn_fn *f, LLVMValueRef cond) {
  cg_module *m = f->m;
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "then");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "endif");
  LLVMBuildCondBr(m->b, cond, then, join);
  LLVMPositionBuilderAtEnd(m->b, then);
  return join;
}

static void end_if(attn_fn *f, LLVMBasicBlockRef join) {
  LLVMBuildBr(f->m->b, join);
  LLVMMoveBasicBlockAfter(join, LLVMGetInsertBlock(f->m->b));
  LLVMPositionBuilderAtEnd(f->m->b, join);
}

/* The dot product of x and y (n elements), sequential from +0, each product rounded. */
static LLVMValueRef dot(attn_fn *f, vec x, vec y, int64_t n) {
  LLVMBuilderRef b = f->m->b;
  LLVMBuildStore(b, fconst(f, 0.0), f->dot_acc);
  cg_loop l;
  cg_loop_open_serial(f->m, f->fn, n, &l);
  LLVMValueRef prod = LLVMBuildFMul(b, at(f, x, l.iv), at(f, y, l.iv), "prod");
  LLVMBuildStore(b, LLVMBuildFAdd(b, load_slot(f, f->dot_acc), prod, "sum"), f->dot_acc);
  cg_loop_close(f->m, &l);
  return load_slot(f, f->dot_acc);
}

/* acc[e] = acc[e] + c y[e] for e < n: each product rounded, then added. */
static void axpy(attn_fn *f, LLVMValueRef acc, LLVMValueRef c, vec y, int64_t n) {
  LLVMBuilderRef b = f->m->b;
  cg_loop l;
  cg_loop_open_serial(f->m, f->fn, n, &l);
  LLVMValueRef s = slot_of(f, acc, l.iv);
  LLVMValueRef prod = LLVMBuildFMul(b, c, at(f, y, l.iv), "prod");
  LLVMBuildStore(b, LLVMBuildFAdd(b, load_slot(f, s), prod, "sum"), s);
  cg_loop_close(f->m, &l);
}

/* dst[e] = src[e] for e < n (src a buffer row, dst private); fill[e] = value when src is
 * NULL. */
static void copy_row(attn_fn *f, LLVMValueRef dst, const vec *src, LLVMValueRef value, int64_t n) {
  cg_loop l;
  cg_loop_open_serial(f->m, f->fn, n, &l);
  LLVMBuildStore(f->m->b, src ? at(f, *src, l.iv) : value, slot_of(f, dst, l.iv));
  cg_loop_close(f->m, &l);
}

/* (n, i) of iteration r over n rows of len: r / len, r % len (len 0 has no iteration). */
static void split(attn_fn *f, LLVMValueRef r, int64_t len, LLVMValueRef *n, LLVMValueRef *i) {
  LLVMValueRef d = i64c(f, len > 0 ? len : 1);
  *n = LLVMBuildUDiv(f->m->b, r, d, "n");
  *i = LLVMBuildURem(f->m->b, r, d, "i");
}

/* Buffer row `row` of a tensor whose rows have len elements. */
static vec row_of(LLVMValueRef base, attn_fn *f, LLVMValueRef row, int64_t len) {
  return (vec){base, mul(f, row, len), false};
}

/* The mask's element of (n, i, j): [sq, sk] broadcasts over n. */
static LLVMValueRef mask_at(attn_fn *f, LLVMValueRef n, LLVMValueRef i, LLVMValueRef j) {
  LLVMValueRef r = f->a.mask_batched ? add(f, mul(f, n, f->a.sq), i) : i;
  return add(f, mul(f, r, f->a.sk), j);
}

/* Whether the predicate removes (i, j): past the causal diagonal, or an i1 mask's false
 * ("keep") or true ("drop"). */
static LLVMValueRef masked(attn_fn *f, LLVMValueRef n, LLVMValueRef i, LLVMValueRef j) {
  cg_module *m = f->m;
  LLVMValueRef r = LLVMConstInt(m->i1, 0, 0);
  if (f->a.causal)
    r = LLVMBuildICmp(m->b, LLVMIntSGT, LLVMBuildNSWSub(m->b, j, i, ""), i64c(f, f->a.diagonal),
                      ""); /* j > i + diagonal, without overflow */
  if (f->a.mask == RT_ATTENTION_MASK_KEEP || f->a.mask == RT_ATTENTION_MASK_DROP) {
    LLVMValueRef bit = cg_load(m, f->mask_elem, f->mask, mask_at(f, n, i, j));
    if (f->a.mask == RT_ATTENTION_MASK_KEEP)
      bit = LLVMBuildNot(m->b, bit, "");
    r = LLVMBuildOr(m->b, r, bit, "masked");
  }
  return r;
}

/* The score of (i, j) with q_i and k_j: dot x scale, + an additive mask's element. */
static LLVMValueRef score(attn_fn *f, vec qi, vec kj, LLVMValueRef n, LLVMValueRef i,
                          LLVMValueRef j) {
  LLVMBuilderRef b = f->m->b;
  LLVMValueRef s = LLVMBuildFMul(b, dot(f, qi, kj, f->a.d), f->scale, "s");
  if (f->a.mask == RT_ATTENTION_MASK_ADD)
    s = LLVMBuildFAdd(b, s, cg_load(f->m, f->elem, f->mask, mask_at(f, n, i, j)), "s");
  return s;
}

/* The dropout factor of (i, j): 1 when Philox element (n Sq + i) Sk + j is below keep,
 * else 0 (the unfused graph's rt.uniform_philox, rt.lt, rt.convert). */
static LLVMValueRef keep_factor(attn_fn *f, LLVMValueRef n, LLVMValueRef i, LLVMValueRef j) {
  cg_module *m = f->m;
  LLVMValueRef e = add(f, mul(f, add(f, mul(f, n, f->a.sq), i), f->a.sk), j);
  LLVMValueRef u = cg_philox_f32(m, f->seed, f->offset, e, 0.0, 1.0);
  if (f->wide)
    u = LLVMBuildFPExt(m->b, u, m->f64, "");
  LLVMValueRef below = LLVMBuildFCmp(m->b, LLVMRealOLT, u, f->keep, "");
  return LLVMBuildSelect(m->b, below, fconst(f, 1.0), fconst(f, 0.0), "z");
}

/* Row r = (n, i) of rt.attention: o_i and lse_i. */
static void forward_row(attn_fn *f, LLVMValueRef r, LLVMValueRef *slots) {
  cg_module *m = f->m;
  LLVMBuilderRef b = m->b;
  const rt_attention *a = &f->a;
  LLVMValueRef qrow = slots[0], S = slots[1], acc = slots[2], ms = slots[3], ls = slots[4],
               mts = slots[5];
  LLVMValueRef n, i;
  split(f, r, a->sq, &n, &i);
  vec qsrc = row_of(f->q, f, r, a->d), qi = {qrow, NULL, true};
  copy_row(f, qrow, &qsrc, NULL, a->d);
  LLVMBuildStore(b, fconst(f, -INFINITY), ms);
  LLVMBuildStore(b, fconst(f, 0.0), ls);
  copy_row(f, acc, NULL, fconst(f, 0.0), a->dv);
  cg_loop tl, jl, cl;
  int64_t ntiles = (a->sk + RT_ATTENTION_BK - 1) / RT_ATTENTION_BK;
  cg_loop_open_serial(m, f->fn, ntiles, &tl);
  LLVMValueRef j0 = mul(f, tl.iv, RT_ATTENTION_BK);
  LLVMValueRef full = add(f, j0, i64c(f, RT_ATTENTION_BK));
  LLVMValueRef j1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, full, i64c(f, a->sk), ""), full,
                                    i64c(f, a->sk), "j1");
  /* the tile's scores (-inf where masked) and its running max */
  LLVMBuildStore(b, load_slot(f, ms), mts);
  cg_loop_open_between(m, f->fn, j0, j1, &jl);
  LLVMValueRef sc = slot_of(f, S, LLVMBuildNSWSub(b, jl.iv, j0, "")), mk;
  LLVMBuildStore(b, fconst(f, -INFINITY), sc);
  LLVMBasicBlockRef join = begin_if(f, LLVMBuildNot(b, masked(f, n, i, jl.iv), ""));
  LLVMValueRef s =
      score(f, qi, row_of(f->k, f, add(f, mul(f, n, a->sk), jl.iv), a->d), n, i, jl.iv);
  LLVMBuildStore(b, s, sc);
  LLVMValueRef mt = load_slot(f, mts); /* the max, NaN once a score is NaN (rt.amax's) */
  LLVMValueRef up = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOGT, s, mt, ""),
                                LLVMBuildFCmp(b, LLVMRealUNO, s, s, ""), "");
  up = LLVMBuildAnd(b, up, LLVMBuildFCmp(b, LLVMRealOEQ, mt, mt, ""), "");
  LLVMBuildStore(b, LLVMBuildSelect(b, up, s, mt, "mt"), mts);
  end_if(f, join);
  cg_loop_close(m, &jl);
  /* every score so far -inf or masked: nothing to add yet */
  LLVMValueRef mt_v = load_slot(f, mts);
  join = begin_if(f, LLVMBuildFCmp(b, LLVMRealUNE, mt_v, fconst(f, -INFINITY), ""));
  LLVMValueRef alpha = math(f, RT_OP_EXP, LLVMBuildFSub(b, load_slot(f, ms), mt_v, ""));
  LLVMBuildStore(b, LLVMBuildFMul(b, load_slot(f, ls), alpha, ""), ls);
  cg_loop_open_serial(m, f->fn, a->dv, &cl);
  mk = slot_of(f, acc, cl.iv);
  LLVMBuildStore(b, LLVMBuildFMul(b, load_slot(f, mk), alpha, ""), mk);
  cg_loop_close(m, &cl);
  cg_loop_open_between(m, f->fn, j0, j1, &jl);
  LLVMBasicBlockRef term = begin_if(f, LLVMBuildNot(b, masked(f, n, i, jl.iv), ""));
  sc = slot_of(f, S, LLVMBuildNSWSub(b, jl.iv, j0, ""));
  LLVMValueRef p = math(f, RT_OP_EXP, LLVMBuildFSub(b, load_slot(f, sc), mt_v, ""));
  LLVMBuildStore(b, LLVMBuildFAdd(b, load_slot(f, ls), p, ""), ls);
  if (a->dropout)
    p = LLVMBuildFMul(b, p, keep_factor(f, n, i, jl.iv), "pd");
  axpy(f, acc, p, row_of(f->v, f, add(f, mul(f, n, a->sk), jl.iv), a->dv), a->dv);
  end_if(f, term);
  cg_loop_close(m, &jl);
  LLVMBuildStore(b, mt_v, ms);
  end_if(f, join);
  cg_loop_close(m, &tl);
  /* o_i = acc / l (/ keep), lse_i = m + log(l) */
  LLVMValueRef l = load_slot(f, ls);
  cg_loop_open_serial(m, f->fn, a->dv, &cl);
  LLVMValueRef x = LLVMBuildFDiv(b, load_slot(f, slot_of(f, acc, cl.iv)), l, "");
  if (a->dropout)
    x = LLVMBuildFDiv(b, x, f->keep, "");
  cg_store(m, f->elem, f->o, add(f, mul(f, r, a->dv), cl.iv), x);
  cg_loop_close(m, &cl);
  cg_store(m, f->elem, f->lse, r, LLVMBuildFAdd(b, load_slot(f, ms), math(f, RT_OP_LOG, l), "lse"));
}

/* The score gradient ds x scale of (i, j) (not masked) and, through *pd, the dropped
 * probability (NULL: not wanted). qi, kj: the rows; doi: do_i; vj: v_j; di: D_i. */
static LLVMValueRef grad_term(attn_fn *f, vec qi, vec kj, vec doi, vec vj, LLVMValueRef di,
                              LLVMValueRef lse_i, LLVMValueRef n, LLVMValueRef i, LLVMValueRef j,
                              LLVMValueRef *pd) {
  LLVMBuilderRef b = f->m->b;
  LLVMValueRef s = score(f, qi, kj, n, i, j);
  LLVMValueRef p = math(f, RT_OP_EXP, LLVMBuildFSub(b, s, lse_i, ""));
  LLVMValueRef dp = dot(f, doi, vj, f->a.dv);
  if (pd)
    *pd = p;
  if (f->a.dropout) { /* the unfused graph's (dp / keep) z and (p z) / keep */
    LLVMValueRef z = keep_factor(f, n, i, j);
    dp = LLVMBuildFMul(b, LLVMBuildFDiv(b, dp, f->keep, ""), z, "dp");
    if (pd)
      *pd = LLVMBuildFDiv(b, LLVMBuildFMul(b, p, z, ""), f->keep, "pd");
  }
  LLVMValueRef ds = LLVMBuildFMul(b, p, LLVMBuildFSub(b, dp, di, ""), "ds");
  return LLVMBuildFMul(b, ds, f->scale, "ds");
}

/* Row pass r = (n, i) of rt.attention_grad: dq_i over the keys ascending. */
static void grad_row(attn_fn *f, LLVMValueRef r, LLVMValueRef *slots, LLVMValueRef dq) {
  cg_module *m = f->m;
  LLVMBuilderRef b = m->b;
  const rt_attention *a = &f->a;
  LLVMValueRef qrow = slots[0], dorow = slots[1], acc = slots[2];
  LLVMValueRef n, i;
  split(f, r, a->sq, &n, &i);
  vec qsrc = row_of(f->q, f, r, a->d), dosrc = row_of(f->dout, f, r, a->dv);
  copy_row(f, qrow, &qsrc, NULL, a->d);
  copy_row(f, dorow, &dosrc, NULL, a->dv);
  vec qi = {qrow, NULL, true}, doi = {dorow, NULL, true};
  LLVMValueRef di = dot(f, doi, row_of(f->o, f, r, a->dv), a->dv);
  LLVMValueRef lse_i = cg_load(m, f->elem, f->lse, r);
  copy_row(f, acc, NULL, fconst(f, 0.0), a->d);
  cg_loop jl;
  cg_loop_open_serial(m, f->fn, a->sk, &jl);
  LLVMBasicBlockRef join = begin_if(f, LLVMBuildNot(b, masked(f, n, i, jl.iv), ""));
  LLVMValueRef kr = add(f, mul(f, n, a->sk), jl.iv);
  vec kj = row_of(f->k, f, kr, a->d);
  LLVMValueRef ds =
      grad_term(f, qi, kj, doi, row_of(f->v, f, kr, a->dv), di, lse_i, n, i, jl.iv, NULL);
  axpy(f, acc, ds, kj, a->d);
  end_if(f, join);
  cg_loop_close(m, &jl);
  vec out = {acc, NULL, true};
  cg_loop cl;
  cg_loop_open_serial(m, f->fn, a->d, &cl);
  cg_store(m, f->elem, dq, add(f, mul(f, r, a->d), cl.iv), at(f, out, cl.iv));
  cg_loop_close(m, &cl);
}

/* Column pass c = (n, j) of rt.attention_grad: dk_j and dv_j over the queries ascending. */
static void grad_column(attn_fn *f, LLVMValueRef c, LLVMValueRef *slots, LLVMValueRef dk,
                        LLVMValueRef dv) {
  cg_module *m = f->m;
  LLVMBuilderRef b = m->b;
  const rt_attention *a = &f->a;
  LLVMValueRef krow = slots[0], vrow = slots[1], dk_acc = slots[2], dv_acc = slots[3];
  LLVMValueRef n, j;
  split(f, c, a->sk, &n, &j);
  vec ksrc = row_of(f->k, f, c, a->d), vsrc = row_of(f->v, f, c, a->dv);
  copy_row(f, krow, &ksrc, NULL, a->d);
  copy_row(f, vrow, &vsrc, NULL, a->dv);
  copy_row(f, dk_acc, NULL, fconst(f, 0.0), a->d);
  copy_row(f, dv_acc, NULL, fconst(f, 0.0), a->dv);
  vec kj = {krow, NULL, true}, vj = {vrow, NULL, true};
  cg_loop il;
  cg_loop_open_serial(m, f->fn, a->sq, &il);
  LLVMBasicBlockRef join = begin_if(f, LLVMBuildNot(b, masked(f, n, il.iv, j), ""));
  LLVMValueRef qr = add(f, mul(f, n, a->sq), il.iv);
  vec qi = row_of(f->q, f, qr, a->d), doi = row_of(f->dout, f, qr, a->dv);
  LLVMValueRef di = dot(f, doi, row_of(f->o, f, qr, a->dv), a->dv);
  LLVMValueRef lse_i = cg_load(m, f->elem, f->lse, qr), pd;
  LLVMValueRef ds = grad_term(f, qi, kj, doi, vj, di, lse_i, n, il.iv, j, &pd);
  axpy(f, dk_acc, ds, qi, a->d);
  axpy(f, dv_acc, pd, doi, a->dv);
  end_if(f, join);
  cg_loop_close(m, &il);
  vec dko = {dk_acc, NULL, true}, dvo = {dv_acc, NULL, true};
  cg_loop cl;
  cg_loop_open_serial(m, f->fn, a->d, &cl);
  cg_store(m, f->elem, dk, add(f, mul(f, c, a->d), cl.iv), at(f, dko, cl.iv));
  cg_loop_close(m, &cl);
  cg_loop_open_serial(m, f->fn, a->dv, &cl);
  cg_store(m, f->elem, dv, add(f, mul(f, c, a->dv), cl.iv), at(f, dvo, cl.iv));
  cg_loop_close(m, &cl);
}

int cg_emit_attention(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out) {
  attn_fn f = {.m = m};
  if (!rt_attention_of(op, &f.a)) {
    rt_emit_error(op, "'%s' has malformed attention attributes (run the verifier)",
                  rt_op_name(rt_op_lookup(op)));
    return -1;
  }
  const rt_attention *a = &f.a;
  if (a->d > CG_ATTENTION_MAX_DIM || a->dv > CG_ATTENTION_MAX_DIM) {
    rt_emit_error(op,
                  "'%s' has rows of %lld and %lld elements: its kernel holds a row in private "
                  "memory, at most %d elements",
                  rt_op_name(rt_op_lookup(op)), (long long)a->d, (long long)a->dv,
                  CG_ATTENTION_MAX_DIM);
    return -1;
  }
  int nops = (int)mlirOperationGetNumOperands(op), nres = (int)mlirOperationGetNumResults(op);
  int np = nops + nres;
  bool host = m->target == REMAT_TARGET_HOST;
  out->name = xstrdup(name);
  out->kind = REMAT_CG_ATTENTION;
  out->source = op;
  out->num_params = np;
  out->params = xcalloc((size_t)np, sizeof *out->params);
  out->numel = a->n * a->sq + (a->grad ? a->n * a->sk : 0);
  LLVMTypeRef *ptypes = xcalloc((size_t)np + 2, sizeof *ptypes);
  for (int p = 0; p < np; p++) {
    MlirValue v = p < nops ? mlirOperationGetOperand(op, p) : mlirOperationGetResult(op, p - nops);
    out->params[p] = (remat_cg_param){mlirValueGetType(v), p >= nops};
    ptypes[p] = mlirTypeIsATensor(out->params[p].type) ? m->ptr : m->i64; /* seed, offset */
  }
  ptypes[np] = ptypes[np + 1] = m->i64;
  LLVMValueRef fn = LLVMAddFunction(
      m->mod, name, LLVMFunctionType(m->void_t, ptypes, (unsigned)np + (host ? 2 : 0), 0));
  free(ptypes);
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  f.fn = fn;
  f.elem = rt_element_type(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  f.wide = mlirTypeIsAF64(f.elem);
  f.t = cg_compute_type(m, f.elem);
  f.q = LLVMGetParam(fn, 0), f.k = LLVMGetParam(fn, 1), f.v = LLVMGetParam(fn, 2);
  if (a->grad)
    f.o = LLVMGetParam(fn, 3), f.lse = LLVMGetParam(fn, 4), f.dout = LLVMGetParam(fn, 5);
  else /* the results */
    f.o = LLVMGetParam(fn, (unsigned)nops), f.lse = LLVMGetParam(fn, (unsigned)nops + 1);
  if (a->mask_at >= 0) {
    f.mask = LLVMGetParam(fn, (unsigned)a->mask_at);
    f.mask_elem = rt_element_type(mlirValueGetType(mlirOperationGetOperand(op, a->mask_at)));
  }
  if (a->seed_at >= 0)
    f.seed = LLVMGetParam(fn, (unsigned)a->seed_at),
    f.offset = LLVMGetParam(fn, (unsigned)a->seed_at + 1);
  /* scale and keep rounded to the element type, as the reference's (T) */
  f.scale = LLVMConstReal(f.t, f.wide ? a->scale : (double)(float)a->scale);
  f.keep = LLVMConstReal(f.t, f.wide ? a->keep : (double)(float)a->keep);

  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));
  f.dot_acc = LLVMBuildAlloca(m->b, f.t, "dot");
  LLVMValueRef slots[6] = {0}, cols[4] = {0};
  if (!a->grad) { /* q_i, a key tile's scores, acc, m, l, the tile's max */
    slots[0] = private_array(&f, a->d, "q.row");
    slots[1] = private_array(&f, RT_ATTENTION_BK, "scores");
    slots[2] = private_array(&f, a->dv, "acc");
    for (int s = 3; s < 6; s++)
      slots[s] = LLVMBuildAlloca(m->b, f.t, s == 3 ? "m" : s == 4 ? "l" : "m.tile");
  } else { /* the row pass: q_i, do_i, dq_i; the column pass: k_j, v_j, dk_j, dv_j */
    slots[0] = private_array(&f, a->d, "q.row");
    slots[1] = private_array(&f, a->dv, "do.row");
    slots[2] = private_array(&f, a->d, "dq");
    cols[0] = private_array(&f, a->d, "k.row");
    cols[1] = private_array(&f, a->dv, "v.row");
    cols[2] = private_array(&f, a->d, "dk");
    cols[3] = private_array(&f, a->dv, "dv");
  }
  cg_loop l;
  cg_loop_open(m, fn, out->numel, &l);
  if (!a->grad)
    forward_row(&f, l.iv, slots);
  else {
    LLVMValueRef rows = i64c(&f, a->n * a->sq);
    LLVMBasicBlockRef row = LLVMAppendBasicBlockInContext(m->ctx, fn, "row.pass");
    LLVMBasicBlockRef col = LLVMAppendBasicBlockInContext(m->ctx, fn, "column.pass");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, fn, "next");
    LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntSLT, l.iv, rows, ""), row, col);
    LLVMPositionBuilderAtEnd(m->b, row);
    grad_row(&f, l.iv, slots, LLVMGetParam(fn, (unsigned)nops));
    LLVMBuildBr(m->b, next);
    LLVMPositionBuilderAtEnd(m->b, col);
    grad_column(&f, LLVMBuildNSWSub(m->b, l.iv, rows, "c"), cols,
                LLVMGetParam(fn, (unsigned)nops + 1), LLVMGetParam(fn, (unsigned)nops + 2));
    LLVMBuildBr(m->b, next);
    LLVMMoveBasicBlockAfter(next, LLVMGetInsertBlock(m->b));
    LLVMPositionBuilderAtEnd(m->b, next);
  }
  cg_loop_close(m, &l);
  LLVMBuildRetVoid(m->b);
  if (host)
    cg_emit_packed(m, fn, out);
  return 0;
}
