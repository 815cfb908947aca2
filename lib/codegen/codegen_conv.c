/* codegen_conv.c: rt.conv, rt.conv_grad_input and rt.conv_grad_weight of a host function,
 * each a function of its own (`<fn>_c<N>`, docs/design.md "Convolution: codegen").
 *
 * Parameters: operand 0, operand 1, the result (buffer pointers); on the host (begin,
 * end) last. One iteration per result element, which is the reference's sum
 * (lib/runtime/conv.c): sequential from +0 in the accumulation type (f32 for
 * f32/f16/bf16, f64 for f64), each product rounded before it is added (an fmul, then an
 * fadd; no contraction: mul.rn/add.rn in PTX), rounded to the element type once, by the
 * store. With g the group, Cg and Og the channels of a group, s the stride:
 *   rt.conv             y[b][o][p]  = sum over (c < Cg, q row-major)
 *                                     w[o][c][q] x[b][g Cg + c][p s - pad + q dil]
 *   rt.conv_grad_input  dx[b][c][i] = sum over q row-major, where t = i + pad - q dil
 *                                     is an output position times s, of the sum over
 *                                     o < Og of w[g Og + o][c - g Cg][q] dy[b][g Og + o][t / s]
 *   rt.conv_grad_weight dw[o][c][q] = sum over (b, p row-major)
 *                                     dy[b][o][p] x[b][g Cg + c][p s - pad + q dil]
 * A position of x in the padding reads 0 and its product is still added: 0 * inf is NaN,
 * as in the reference; it is not loaded (a branch), so every access is in bounds. A
 * kernel position through which no position of dy reaches dx's element (t < 0, not a
 * multiple of s, past the end) adds no term, as in the reference's col2im. */
#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

typedef struct conv_fn {
  cg_module *m;
  LLVMValueRef fn;
  MlirType elem;
  LLVMTypeRef acc_t;
  LLVMValueRef acc;  /* the accumulator's slot (an alloca, promoted at -O3) */
  LLVMValueRef part; /* the input gradient's inner sum's slot */
} conv_fn;

static LLVMValueRef mul_c(cg_module *m, LLVMValueRef a, int64_t c) {
  return c == 1 ? a : LLVMBuildNSWMul(m->b, a, cg_i64(m, c), "");
}

/* The value of buffer base (shape s) at coordinates at when valid, else 0 (not loaded). */
static LLVMValueRef load_or_zero(conv_fn *f, LLVMValueRef base, const remat_shape *s,
                                 LLVMValueRef *at, LLVMValueRef valid) {
  cg_module *m = f->m;
  LLVMValueRef zero = LLVMConstReal(f->acc_t, 0.0);
  LLVMBasicBlockRef from = LLVMGetInsertBlock(m->b);
  LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "in.bounds");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "term");
  LLVMBuildCondBr(m->b, valid, in, join);
  LLVMPositionBuilderAtEnd(m->b, in);
  LLVMValueRef v = cg_load(m, f->elem, base, cg_linearize(m, s, at));
  LLVMBasicBlockRef loaded = LLVMGetInsertBlock(m->b);
  LLVMBuildBr(m->b, join);
  LLVMPositionBuilderAtEnd(m->b, join);
  LLVMValueRef phi = LLVMBuildPhi(m->b, f->acc_t, "");
  LLVMValueRef vals[2] = {zero, v};
  LLVMBasicBlockRef blocks[2] = {from, loaded};
  LLVMAddIncoming(phi, vals, blocks, 2);
  return phi;
}

/* *slot = *slot + a * b: the product rounded, then added. */
static void accumulate(conv_fn *f, LLVMValueRef slot, LLVMValueRef a, LLVMValueRef b) {
  LLVMBuilderRef bl = f->m->b;
  LLVMValueRef p = LLVMBuildFMul(bl, a, b, "prod");
  LLVMValueRef s = LLVMBuildFAdd(bl, LLVMBuildLoad2(bl, f->acc_t, slot, ""), p, "sum");
  LLVMBuildStore(bl, s, slot);
}

static LLVMValueRef and_valid(cg_module *m, LLVMValueRef all, LLVMValueRef v) {
  return all ? LLVMBuildAnd(m->b, all, v, "") : v;
}

/* The position of x that output position p reads at kernel position q, per spatial dim
 * (into at[2..]), and whether it is inside x (not in the padding). */
static LLVMValueRef source_pos(cg_module *m, const rt_conv_geom *g, LLVMValueRef *p,
                               LLVMValueRef *q, LLVMValueRef *at) {
  LLVMValueRef valid = NULL;
  for (int d = 0; d < g->n; d++) {
    LLVMValueRef i =
        LLVMBuildNSWAdd(m->b, mul_c(m, p[d], g->stride[d]), mul_c(m, q[d], g->dil[d]), "");
    i = LLVMBuildNSWSub(m->b, i, cg_i64(m, g->pad[d]), "");
    at[2 + d] = i;
    /* one unsigned compare: a negative position is a huge unsigned one */
    valid = and_valid(m, valid, LLVMBuildICmp(m->b, LLVMIntULT, i, cg_i64(m, g->in[d]), ""));
  }
  return valid;
}

/* The output position whose kernel position q reads input position i, per spatial dim
 * (into at[2..]), and whether it exists. */
static LLVMValueRef target_pos(cg_module *m, const rt_conv_geom *g, LLVMValueRef *i,
                               LLVMValueRef *q, LLVMValueRef *at) {
  LLVMBuilderRef b = m->b;
  LLVMValueRef valid = NULL;
  for (int d = 0; d < g->n; d++) {
    LLVMValueRef t = LLVMBuildNSWSub(b, LLVMBuildNSWAdd(b, i[d], cg_i64(m, g->pad[d]), ""),
                                     mul_c(m, q[d], g->dil[d]), "");
    LLVMValueRef u = t, ok;
    if (g->stride[d] == 1) /* one unsigned compare: a negative t is a huge unsigned one */
      ok = LLVMBuildICmp(b, LLVMIntULT, t, cg_i64(m, g->out[d]), "");
    else { /* t >= 0, divisible by the stride, t / s < out */
      LLVMValueRef s = cg_i64(m, g->stride[d]);
      u = LLVMBuildUDiv(b, t, s, "");
      ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, t, cg_i64(m, 0), ""),
                        LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildURem(b, t, s, ""), cg_i64(m, 0), ""),
                        "");
      ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, u, cg_i64(m, g->out[d]), ""), "");
    }
    at[2 + d] = u;
    valid = and_valid(m, valid, ok);
  }
  return valid;
}

/* Opens serial loops over [0, n[k]) for k < count, outermost first; iv[k] their indices. */
static void open_loops(conv_fn *f, const int64_t *n, int count, cg_loop *l, LLVMValueRef *iv) {
  for (int k = 0; k < count; k++) {
    cg_loop_open_serial(f->m, f->fn, n[k], &l[k]);
    iv[k] = l[k].iv;
  }
}

static void close_loops(conv_fn *f, int count, cg_loop *l) {
  for (int k = count - 1; k >= 0; k--)
    cg_loop_close(f->m, &l[k]);
}

/* The sum of result element idx into f->acc. p[0..2]: the operands and the result. Each
 * term is operand 1's element times operand 0's (zero where it does not exist). */
static void conv_body(conv_fn *f, MlirOperation op, const rt_conv_geom *g, LLVMValueRef *p,
                      LLVMValueRef idx) {
  cg_module *m = f->m;
  LLVMBuilderRef b = m->b;
  rt_op_id id = rt_op_lookup(op);
  remat_shape s0 = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  remat_shape s1 = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 1)));
  remat_shape rs = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t cg = g->in_ch / g->groups, og = g->out_ch / g->groups;
  /* r: the result's coordinates; a0, a1: the operands'; iv: the loops' indices */
  LLVMValueRef r[2 + 3], a0[2 + 3], a1[2 + 3], iv[1 + 3], valid;
  cg_delinearize(m, &rs, idx, r);
  cg_loop l[1 + 3];
  int64_t n[1 + 3] = {id == RT_OP_CONV ? cg : g->batch};
  for (int d = 0; d < g->n; d++)
    n[1 + d] = id == RT_OP_CONV_GRAD_WEIGHT ? g->out[d] : g->k[d];
  open_loops(f, n, 1 + g->n, l, iv);
  for (int d = 0; d < g->n; d++)
    a1[2 + d] = iv[1 + d];
  if (id == RT_OP_CONV) { /* r = (b, o, p), iv = (c, q): w[o][c][q] x[b][gr Cg + c][..] */
    LLVMValueRef gr = LLVMBuildUDiv(b, r[1], cg_i64(m, og), "group");
    a0[0] = r[0], a0[1] = LLVMBuildNSWAdd(b, mul_c(m, gr, cg), iv[0], "");
    valid = source_pos(m, g, r + 2, iv + 1, a0);
    a1[0] = r[1], a1[1] = iv[0];
  } else { /* grad_weight: r = (o, c, q), iv = (b, p): dy[b][o][p] x[b][gr Cg + c][..] */
    LLVMValueRef gr = LLVMBuildUDiv(b, r[0], cg_i64(m, og), "group");
    a0[0] = iv[0], a0[1] = LLVMBuildNSWAdd(b, mul_c(m, gr, cg), r[1], "");
    valid = source_pos(m, g, iv + 1, r + 2, a0);
    a1[0] = iv[0], a1[1] = r[0];
  }
  LLVMValueRef v1 = cg_load(m, f->elem, p[1], cg_linearize(m, &s1, a1));
  accumulate(f, f->acc, v1, load_or_zero(f, p[0], &s0, a0, valid));
  close_loops(f, 1 + g->n, l);
}

/* rt.conv_grad_input's sum of result element idx into f->acc: per kernel position q
 * through which an output position reaches it, the sum over o of w[gr Og + o][c'][q]
 * dy[b][gr Og + o][..], from +0, added to the total. */
static void grad_input_body(conv_fn *f, MlirOperation op, const rt_conv_geom *g, LLVMValueRef *p,
                            LLVMValueRef idx) {
  cg_module *m = f->m;
  LLVMBuilderRef b = m->b;
  remat_shape s0 = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  remat_shape s1 = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 1)));
  remat_shape rs = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t cg = g->in_ch / g->groups, og = g->out_ch / g->groups;
  LLVMValueRef r[2 + 3], a0[2 + 3], a1[2 + 3], q[3], o;
  cg_delinearize(m, &rs, idx, r);
  LLVMValueRef gr = LLVMBuildUDiv(b, r[1], cg_i64(m, cg), "group");
  cg_loop lq[3], lo;
  open_loops(f, g->k, g->n, lq, q);
  LLVMValueRef valid = target_pos(m, g, r + 2, q, a0);
  LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "term");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, f->fn, "no.term");
  LLVMBuildCondBr(b, valid, in, next);
  LLVMPositionBuilderAtEnd(b, in);
  LLVMBuildStore(b, LLVMConstReal(f->acc_t, 0.0), f->part);
  cg_loop_open_serial(m, f->fn, og, &lo);
  o = LLVMBuildNSWAdd(b, mul_c(m, gr, og), lo.iv, "");
  a0[0] = r[0], a0[1] = o;                                      /* dy[b][gr Og + o][..] */
  a1[0] = o, a1[1] = LLVMBuildURem(b, r[1], cg_i64(m, cg), ""); /* w[gr Og + o][c'][q] */
  for (int d = 0; d < g->n; d++)
    a1[2 + d] = q[d];
  accumulate(f, f->part, cg_load(m, f->elem, p[1], cg_linearize(m, &s1, a1)),
             cg_load(m, f->elem, p[0], cg_linearize(m, &s0, a0)));
  cg_loop_close(m, &lo);
  LLVMValueRef t = LLVMBuildFAdd(b, LLVMBuildLoad2(b, f->acc_t, f->acc, ""),
                                 LLVMBuildLoad2(b, f->acc_t, f->part, ""), "sum");
  LLVMBuildStore(b, t, f->acc);
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  close_loops(f, g->n, lq);
}

int cg_emit_conv(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out) {
  rt_conv_geom g;
  if (!rt_conv_geom_of(op, &g)) {
    rt_emit_error(op, "'%s' has no convolution geometry (run the verifier)",
                  rt_op_name(rt_op_lookup(op)));
    return -1;
  }
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  out->name = xstrdup(name);
  out->kind = REMAT_CG_CONV;
  out->source = op;
  out->num_params = 3;
  out->params = xcalloc(3, sizeof *out->params);
  for (int k = 0; k < 2; k++)
    out->params[k] = (remat_cg_param){mlirValueGetType(mlirOperationGetOperand(op, k)), false};
  out->params[2] = (remat_cg_param){rt, true};
  rt_type_numel(rt, &out->numel);

  bool host = m->target == REMAT_TARGET_HOST;
  LLVMTypeRef ptypes[5] = {m->ptr, m->ptr, m->ptr, m->i64, m->i64};
  LLVMValueRef fn =
      LLVMAddFunction(m->mod, name, LLVMFunctionType(m->void_t, ptypes, host ? 5 : 3, 0));
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  LLVMValueRef p[3] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), LLVMGetParam(fn, 2)};
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));
  conv_fn f = {m, fn, rt_element_type(rt), NULL, NULL, NULL};
  f.acc_t = cg_compute_type(m, f.elem);
  f.acc = LLVMBuildAlloca(m->b, f.acc_t, "acc");
  f.part = LLVMBuildAlloca(m->b, f.acc_t, "part");
  cg_loop l;
  cg_loop_open(m, fn, out->numel, &l);
  LLVMBuildStore(m->b, LLVMConstReal(f.acc_t, 0.0), f.acc);
  if (rt_op_lookup(op) == RT_OP_CONV_GRAD_INPUT)
    grad_input_body(&f, op, &g, p, l.iv);
  else
    conv_body(&f, op, &g, p, l.iv);
  cg_store(m, f.elem, p[2], l.iv, LLVMBuildLoad2(m->b, f.acc_t, f.acc, ""));
  cg_loop_close(m, &l);
  LLVMBuildRetVoid(m->b);
  if (host)
    cg_emit_packed(m, fn, out);
  return 0;
}
