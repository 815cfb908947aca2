/* ops.h: the operations of rt programs as plain C loops over dense buffers: the
 * reference semantics that the interpreter runs and that compiled code must match bit
 * for bit (see docs/design.md, "Runtime").
 *
 * Arithmetic domains: f32, f16 and bf16 elements are computed in f32 and rounded to the
 * result type on store; f64 in f64; integers in int64, wrapping to the result width.
 * Reductions and matmul accumulate sequentially (row-major order of the reduced
 * elements, k order) starting from +0 (sum), -inf (max) or +inf (min), in f32 (f64 for
 * f64, int64 for integers).
 *
 * Every function writes into OUT, allocated by the caller with the result type; inputs
 * are borrowed. Shapes are assumed valid (rt_verify checked them): these are not user
 * error paths. */
#ifndef REMAT_RUNTIME_OPS_H
#define REMAT_RUNTIME_OPS_H

#include "runtime/buffer.h"

typedef enum rt_ew {
  /* binary */
  RT_EW_ADD, RT_EW_SUB, RT_EW_MUL, RT_EW_DIV, RT_EW_REM, RT_EW_MAX, RT_EW_MIN, RT_EW_POW,
  RT_EW_AND, RT_EW_OR, RT_EW_XOR,
  /* unary */
  RT_EW_NEG, RT_EW_EXP, RT_EW_LOG, RT_EW_TANH, RT_EW_ERF, RT_EW_SQRT, RT_EW_RSQRT,
  RT_EW_ABS, RT_EW_SIN, RT_EW_COS,
  /* ternary: select(cond, a, b) */
  RT_EW_SELECT,
} rt_ew;

/* Comparison predicates: arith.cmpf's values (0..15), then arith.cmpi's plus 16. */
typedef enum rt_cmp {
  RT_CMP_FALSE, RT_CMP_OEQ, RT_CMP_OGT, RT_CMP_OGE, RT_CMP_OLT, RT_CMP_OLE, RT_CMP_ONE,
  RT_CMP_ORD, RT_CMP_UEQ, RT_CMP_UGT, RT_CMP_UGE, RT_CMP_ULT, RT_CMP_ULE, RT_CMP_UNE,
  RT_CMP_UNO, RT_CMP_TRUE,
  RT_CMP_EQ = 16, RT_CMP_NE, RT_CMP_SLT, RT_CMP_SLE, RT_CMP_SGT, RT_CMP_SGE, RT_CMP_IULT,
  RT_CMP_IULE, RT_CMP_IUGT, RT_CMP_IUGE,
} rt_cmp;

typedef enum rt_reduce_kind { RT_REDUCE_SUM, RT_REDUCE_MAX, RT_REDUCE_MIN } rt_reduce_kind;

/* Number of operands of an elementwise op (1, 2 or 3). */
int rt_ew_arity(rt_ew op);
/* out = op(args) elementwise. Each arg is a buffer of out's element count or a
 * one-element buffer (a scalar, broadcast). Arguments are read in the domain of out's
 * element type (select: args 1 and 2; arg 0 is the i1 condition). */
void rt_ew_apply(rt_ew op, rt_buffer *out, const rt_buffer *const *args);
/* out (i1) = a PRED b, compared in the domain of DOM (the tensor operands' type). */
void rt_cmp_apply(rt_cmp pred, rt_elem dom, rt_buffer *out, const rt_buffer *a,
                  const rt_buffer *b);
/* Element type conversion (rt.convert, arith casts): float -> int truncates and
 * saturates (NaN -> 0), anything -> i1 is "not zero", int -> int wraps; with
 * src_unsigned the integer source is read zero-extended. */
void rt_convert(rt_buffer *out, const rt_buffer *in, bool src_unsigned);
/* Every element = v (read as double for float results, as int for integer ones). */
void rt_fill(rt_buffer *out, double fv, int64_t iv);
void rt_iota(rt_buffer *out, int dim);
void rt_broadcast(rt_buffer *out, const rt_buffer *in, const int64_t *dims);
void rt_transpose(rt_buffer *out, const rt_buffer *in, const int64_t *perm);
void rt_slice(rt_buffer *out, const rt_buffer *in, const int64_t *start,
              const int64_t *stride);
void rt_concat(rt_buffer *out, const rt_buffer *const *ins, int n, int dim);
/* Reduce over the dims listed (sorted or not); out has them dropped. */
void rt_reduce(rt_buffer *out, const rt_buffer *in, const int64_t *dims, int ndims,
               rt_reduce_kind kind);
/* [M,K]x[K,N] or [B,M,K]x[B,K,N]; block > 0 tiles the M and N loops by block (the
 * accumulation order of every element stays k = 0..K-1, so the bits do not change). */
void rt_matmul(rt_buffer *out, const rt_buffer *a, const rt_buffer *b, int block);
void rt_uniform_philox(rt_buffer *out, uint64_t seed, uint64_t offset, double lo,
                       double hi);
/* Collectives over `group` ranks that all hold the same data (see docs/design.md):
 * all_gather concatenates group copies along dim; all_reduce combines group copies in
 * rank order; reduce_scatter does that and keeps rank 0's slice along dim. */
void rt_all_gather(rt_buffer *out, const rt_buffer *in, int64_t group, int dim);
void rt_all_reduce(rt_buffer *out, const rt_buffer *in, int64_t group, rt_reduce_kind kind);
void rt_reduce_scatter(rt_buffer *out, const rt_buffer *in, int64_t group, int dim,
                       rt_reduce_kind kind);

#endif
