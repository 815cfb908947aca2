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

#include "buffer.h"
#include "rt.h"

typedef enum rtr_ew {
  /* binary */
  RTR_EW_ADD,
  RTR_EW_SUB,
  RTR_EW_MUL,
  RTR_EW_DIV,
  RTR_EW_REM,
  RTR_EW_MAX,
  RTR_EW_MIN,
  RTR_EW_POW,
  RTR_EW_AND,
  RTR_EW_OR,
  RTR_EW_XOR,
  /* unary (float functions such as exp: rtr_math_apply) */
  RTR_EW_NEG,
  RTR_EW_SQRT,
  RTR_EW_RSQRT,
  RTR_EW_ABS,
  RTR_EW_SOFTPLUS,
  RTR_EW_HARDSWISH,
  RTR_EW_HARDSIGMOID,
  RTR_EW_RELU6,
  RTR_EW_MISH,
  /* ternary: select(cond, a, b) */
  RTR_EW_SELECT,
} rtr_ew;

/* Comparison predicates: arith.cmpf's values (0..15), then arith.cmpi's plus 16. */
typedef enum rtr_cmp {
  RTR_CMP_FALSE,
  RTR_CMP_OEQ,
  RTR_CMP_OGT,
  RTR_CMP_OGE,
  RTR_CMP_OLT,
  RTR_CMP_OLE,
  RTR_CMP_ONE,
  RTR_CMP_ORD,
  RTR_CMP_UEQ,
  RTR_CMP_UGT,
  RTR_CMP_UGE,
  RTR_CMP_ULT,
  RTR_CMP_ULE,
  RTR_CMP_UNE,
  RTR_CMP_UNO,
  RTR_CMP_TRUE,
  RTR_CMP_EQ = 16,
  RTR_CMP_NE,
  RTR_CMP_SLT,
  RTR_CMP_SLE,
  RTR_CMP_SGT,
  RTR_CMP_SGE,
  RTR_CMP_IULT,
  RTR_CMP_IULE,
  RTR_CMP_IUGT,
  RTR_CMP_IUGE,
} rtr_cmp;

typedef enum rtr_reduce_kind { RTR_REDUCE_SUM, RTR_REDUCE_MAX, RTR_REDUCE_MIN } rtr_reduce_kind;

/* out = op(args) elementwise, over op's N operands (1, 2 or 3: the op table's arity for
 * an rt op, the interpreter's arith table for an arith op). Each arg is a buffer of out's
 * element count or a one-element buffer (a scalar, broadcast). Arguments are read in the
 * domain of out's element type (select: args 1 and 2; arg 0 is the i1 condition). */
void rtr_ew_apply(rtr_ew op, int n, rtr_buffer *out, const rtr_buffer *const *args);
/* out = f(in) elementwise for a float function of libm (rt.exp, ...: the f32/f64 columns
 * of dialect-c/rt_ops.def): f32 in the f32 domain (f16/bf16 rounded on store), f64 in
 * f64. IN has out's element count or one element. */
void rtr_math_apply(rtr_buffer *out, const rtr_buffer *in, float (*f32)(float),
                    double (*f64)(double));
/* out (i1) = a PRED b, compared in the domain of DOM (the tensor operands' type). */
void rtr_cmp_apply(rtr_cmp pred, rtr_elem dom, rtr_buffer *out, const rtr_buffer *a,
                   const rtr_buffer *b);
/* The one conversion rule (docs/design.md, "Conversions"), for rt.convert, arith casts,
 * select branches, scalar operands and rt.full values alike: float -> int truncates
 * toward zero and saturates (NaN -> 0), anything -> i1 is "not zero", int -> int wraps
 * (i1 reads as 0/1), int -> float rounds once, f64 -> f16/bf16 rounds through f32; with
 * src_unsigned the integer source is read zero-extended. Element j of IN goes to
 * element i of OUT. */
void rtr_convert_elem(rtr_buffer *out, int64_t i, const rtr_buffer *in, int64_t j,
                      bool src_unsigned);
/* rtr_convert_elem over every element (a one-element IN broadcasts). */
void rtr_convert(rtr_buffer *out, const rtr_buffer *in, bool src_unsigned);
void rtr_iota(rtr_buffer *out, int dim);
void rtr_broadcast(rtr_buffer *out, const rtr_buffer *in, const int64_t *dims);
void rtr_transpose(rtr_buffer *out, const rtr_buffer *in, const int64_t *perm);
void rtr_slice(rtr_buffer *out, const rtr_buffer *in, const int64_t *start, const int64_t *stride);
void rtr_concat(rtr_buffer *out, const rtr_buffer *const *ins, int n, int dim);
/* Reduce over the dims listed (sorted or not); out has them dropped. */
void rtr_reduce(rtr_buffer *out, const rtr_buffer *in, const int64_t *dims, int ndims,
                rtr_reduce_kind kind);
/* [M,K]x[K,N] or [B,M,K]x[B,K,N]; ta / tb: the operand is stored with its last two dims
 * swapped (rt.matmul's transpose_a / transpose_b). block > 0 tiles the M and N loops by
 * block (the accumulation order of every element stays k = 0..K-1, so the bits do not
 * change). Returns 0, or -1 when the widened copies of the operands cannot be
 * allocated. */
int rtr_matmul(rtr_buffer *out, const rtr_buffer *a, const rtr_buffer *b, int block, bool ta,
               bool tb);
/* rt.conv (x, w), rt.conv_grad_input (dy, w) and rt.conv_grad_weight (x, dy) into OUT,
 * float types only, in the order docs/design.md ("Convolution") fixes: each element is a
 * sequential sum from +0 of rounded products, in (channel, kernel position) order for
 * conv and (batch, output position) for the weight gradient, a position in the padding
 * reading 0; the input gradient sums, in kernel position order, the sums over the output
 * channels of the terms that exist. Returns 0, or
 * -1 when the temporaries (the laid-out operands) cannot be allocated. */
typedef enum rtr_conv_kind { RTR_CONV, RTR_CONV_GRAD_INPUT, RTR_CONV_GRAD_WEIGHT } rtr_conv_kind;
int rtr_conv(rtr_buffer *out, const rtr_buffer *a, const rtr_buffer *b, const rt_conv_geom *g,
             rtr_conv_kind kind);
/* rt.attention (RES: o, lse) and rt.attention_grad (RES: dq, dk, dv) of the dense f32 or
 * f64 operands ARGS (all of one type; an i1 mask as bytes), in the order docs/design.md
 * ("Attention") fixes. NARROW: the op's element type is f32 (its scale and keep are
 * rounded to f32 even when the buffers are f64, the interpreter's f64 mode). *WORKSPACE:
 * the bytes of the one block it allocates and frees (rt_attention_workspace), which
 * remat-run --peak counts while the op runs. Returns 0, or -1 when that block cannot
 * be allocated. */
int rtr_attention(rtr_buffer *const *res, const rtr_buffer *const *args, const rt_attention *a,
                  bool narrow, uint64_t *workspace);
void rtr_uniform_philox(rtr_buffer *out, uint64_t seed, uint64_t offset, double lo, double hi);
/* Indexing ops (docs/design.md, "Indexing ops"). An index outside [0, bound) is an error
 * of the program's data: the operation stops at the first one in row-major order of the
 * indices, fills *err (the index, the bound, its linear position in the indices) and
 * returns -1; OUT is then partly written. 0 when every index is in range. */
typedef struct rtr_index_error {
  int64_t value, bound, pos;
} rtr_index_error;
/* out = src[... idx[i] at dim ...] (torch.gather): any element type, copied. */
int rtr_gather(rtr_buffer *out, const rtr_buffer *src, const rtr_buffer *idx, int dim,
               rtr_index_error *err);
/* out = base, then for every position i of upd in row-major order: out[i with i_dim
 * replaced by idx[i]] += upd[i] (torch.scatter_add), each addition in the domain of the
 * element type and rounded to it (f16/bf16 after every addition; integers wrap, i1 xor). */
int rtr_scatter_add(rtr_buffer *out, const rtr_buffer *base, const rtr_buffer *idx,
                    const rtr_buffer *upd, int dim, rtr_index_error *err);
/* out (i64, dim dropped) = the first index of the maximum along dim; a NaN is the
 * maximum (the first NaN's index); -0.0 == +0.0 (the first wins); integers signed. */
void rtr_argmax(rtr_buffer *out, const rtr_buffer *in, int dim);
/* The deterministic reduction of every collective backend: out[i] = parts[0][i] op
 * parts[1][i] op ... in rank order, accumulated in the domain of out's type (f32 for
 * f32/f16/bf16, f64, int64) and rounded once. Every part has out's type. */
void rtr_combine_parts(rtr_buffer *out, const rtr_buffer *const *parts, int n,
                       rtr_reduce_kind kind);
/* Collectives over `group` ranks that all hold the same data (see docs/design.md):
 * all_gather concatenates group copies along dim; all_reduce combines group copies in
 * rank order; reduce_scatter does that and keeps rank 0's slice along dim. */
void rtr_all_gather(rtr_buffer *out, const rtr_buffer *in, int64_t group, int dim);
void rtr_all_reduce(rtr_buffer *out, const rtr_buffer *in, int64_t group, rtr_reduce_kind kind);
void rtr_reduce_scatter(rtr_buffer *out, const rtr_buffer *in, int64_t group, int dim,
                        rtr_reduce_kind kind);

#endif
