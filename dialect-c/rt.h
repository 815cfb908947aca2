/* rt.h: private helpers over the rt dialect, shared by every pass, the codegen and the
 * runtime.
 *
 * Conventions: handles are MLIR C API values owned by their context; nothing here
 * allocates except where a function says "caller frees". Functions that can fail on bad
 * input return -1 (or false) and emit nothing; the caller decides whether the failure is a
 * user diagnostic (rt_emit_error at the op's location) or an internal bug (abort). */
#ifndef REMAT_RT_H
#define REMAT_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support.h"

/* Every op of the dialect (rt_ops.def). RT_OP_NONE: not an rt
 * op. Switches over op ids have no default (see rt_ops.def). */
typedef enum rt_op_id {
  RT_OP_NONE = 0,
#define RT_OP(ID, ...) RT_OP_##ID,
#include "rt_ops.def"
} rt_op_id;

/* Outside the enum, so that switches need not name it. */
enum {
  RT_OP_COUNT = 1
#define RT_OP(ID, ...) +1
#include "rt_ops.def"
};

/* The kinds of op, each with the name that `ban` and reports use: FIRST for the first,
 * REST for the others, in this order (the order `ban`'s help and errors list them).
 * collective: all_gather, reduce_scatter, all_reduce, wait. elementwise: binary, unary,
 * select, convert, full. structural: broadcast, reshape, transpose, slice, concat, iota.
 * indexing: gather, scatter_add, argmax: data-dependent indices; host ops of the fusion,
 * each lowered to a function of its own. extern: rt.extern, an operation remat does not
 * model (docs/design.md, "Ops remat does not model"). conv: conv, conv_grad_input,
 * conv_grad_weight, host ops of the fusion like matmul (docs/design.md, "Convolution").
 * attention: attention, attention_grad, host ops of the fusion like matmul (docs/design.md,
 * "Attention"). */
#define RT_OP_KINDS(FIRST, REST)   \
  FIRST(MATMUL, "matmul")          \
  REST(REDUCTION, "reduction")     \
  REST(COLLECTIVE, "collective")   \
  REST(RANDOM, "random")           \
  REST(ELEMENTWISE, "elementwise") \
  REST(COMPARE, "compare")         \
  REST(STRUCTURAL, "structural")   \
  REST(INDEXING, "indexing")       \
  REST(EXTERN, "extern")           \
  REST(CONV, "conv")               \
  REST(ATTENTION, "attention")

typedef enum rt_op_kind {
  RT_KIND_NONE = 0, /* not an rt op */
#define RT_KIND_ENUM(ID, name) RT_KIND_##ID,
  RT_OP_KINDS(RT_KIND_ENUM, RT_KIND_ENUM)
#undef RT_KIND_ENUM
} rt_op_kind;

/* Outside the enum, so that switches need not name it. */
enum {
  RT_KIND_COUNT = 1
#define RT_KIND_COUNTED(ID, name) +1
  RT_OP_KINDS(RT_KIND_COUNTED, RT_KIND_COUNTED)
#undef RT_KIND_COUNTED
};

/* "matmul, reduction, ..., extern": every kind's name, as a string literal. */
#define RT_KIND_NAME_FIRST(ID, name) name
#define RT_KIND_NAME_REST(ID, name) ", " name
#define RT_KIND_NAMES RT_OP_KINDS(RT_KIND_NAME_FIRST, RT_KIND_NAME_REST)

/* What the semantic verifier checks of an op beyond IRDL (docs/design.md, "Dialect"). */
typedef enum rt_type_rule {
  RT_RULE_ANY,       /* nothing (unary ops: IRDL gives operand and result one type) */
  RT_RULE_FLOAT,     /* a floating-point element type */
  RT_RULE_SAME,      /* tensor operands agree in shape and element type (scalars
                        broadcast), the result has them */
  RT_RULE_I1_RESULT, /* as SAME, with an i1 result */
  RT_RULE_SELECT,    /* as SAME over the values, an i1 condition */
  RT_RULE_CONVERT,   /* the shape is kept */
  RT_RULE_BROADCAST,
  RT_RULE_RESHAPE,
  RT_RULE_TRANSPOSE,
  RT_RULE_SLICE,
  RT_RULE_CONCAT,
  RT_RULE_IOTA,
  RT_RULE_REDUCE,
  RT_RULE_MATMUL,
  RT_RULE_PHILOX,
  RT_RULE_COLLECTIVE,
  RT_RULE_GATHER,
  RT_RULE_SCATTER_ADD,
  RT_RULE_ARGMAX,
  RT_RULE_CONV,      /* rt.conv and its gradients: rt_conv_geom_of's shapes and attributes */
  RT_RULE_ATTENTION, /* rt.attention and its gradient: rt_attention_of's operands */
  RT_RULE_EXTERN,    /* name, recompute, flops; any sizable element type, at least one result */
} rt_type_rule;

/* Which rt op this is (RT_OP_NONE for any other op). */
rt_op_id rt_op_lookup(MlirOperation op);
/* The first op of id ID (not RT_OP_NONE) inside OP (a module), in walk order; a null
 * operation when there is none. */
MlirOperation rt_find_op(MlirOperation op, rt_op_id id);
/* Full name ("rt.add"); "" for RT_OP_NONE. */
const char *rt_op_name(rt_op_id id);
rt_op_kind rt_op_kind_of(rt_op_id id);
rt_type_rule rt_op_rule(rt_op_id id);
const char *rt_op_kind_name(rt_op_kind kind);
/* rt.softplus(x) is x above this, log1p(exp(x)) at or below it (PyTorch's softplus with
 * beta 1 and its default threshold): the interpreter, the codegen and the VJP read it. */
#define RT_SOFTPLUS_THRESHOLD 20.0
/* rt.hardsigmoid(x) = clamp(x + 3, 0, 6) / 6, rt.hardswish(x) = x * clamp(x + 3, 0, 6) / 6
 * and rt.relu6(x) = clamp(x, 0, 6), PyTorch's: the offset and the cap that the
 * interpreter, the codegen and the VJPs read. */
#define RT_HARD_OFFSET 3.0
#define RT_HARD_CAP 6.0

/* Number of operands (-1: variadic, rt.concat, rt.extern). */
int rt_op_arity(rt_op_id id);
/* The table's exp column: costly per element (a libm/libdevice call, a division, a
 * square root, Philox), so fusion computes it once instead of duplicating it. False for
 * RT_OP_NONE. */
bool rt_op_expensive(rt_op_id id);
/* The table's inexact column: libm and libdevice may differ in the last places (the
 * device check's ulp bound). False for RT_OP_NONE. */
bool rt_op_inexact(rt_op_id id);
/* The table's view column: the result is the operand read through an index map
 * (reshape, transpose, broadcast, slice). False for RT_OP_NONE. */
bool rt_op_is_view(rt_op_id id);
/* The table's alias column: a device executor may hand out the operand's allocation as
 * the result (reshape, wait; slice when dense). False for RT_OP_NONE. */
bool rt_op_is_alias(rt_op_id id);
/* The table's function columns: the libm function computing op ID on the host in f64
 * (WIDE) or f32, and the libdevice one on nvptx64; NULL when the row names none. */
const char *rt_op_libm(rt_op_id id, bool wide);
const char *rt_op_libdevice(rt_op_id id, bool wide);
/* The rt op named NAME ("rt.add" or "add"), RT_OP_NONE if none. */
rt_op_id rt_op_from_name(const char *name);
/* The name OP is shown by in reports, pictures and diagnostics: an rt.extern's `name`
 * (the producer's, "aten.convolution.default"), any other op's own name ("rt.add"). */
MlirStringRef rt_op_label(MlirOperation op);

/* ---- rt.extern (docs/design.md, "Ops remat does not model") -------------------------- */

/* Its `recompute` attribute. */
typedef enum rt_extern_recompute {
  RT_EXTERN_ONCE,    /* "once" (the default): banned like rt.matmul, runs once, may move to
                        the backward */
  RT_EXTERN_PURE,    /* "pure": may be recomputed, weighed like any candidate */
  RT_EXTERN_FORWARD, /* "forward": runs in the forward, never recomputed nor moved (it
                        draws from the producer's generator, or has effects) */
  RT_EXTERN_INVALID, /* present but not one of the three strings (the verifier's error) */
} rt_extern_recompute;

rt_extern_recompute rt_extern_recompute_of(MlirOperation op);
/* Its `flops` (the recompute cost the producer knows), 0 when absent or invalid. */
double rt_extern_flops(MlirOperation op);

/* ---- types -------------------------------------------------------------------------- */

/* Ranked tensor with a static shape. */
bool rt_type_is_static_tensor(MlirType type);
/* A builtin scalar ("number"): f32 f64 f16 bf16 or a signless integer i1..i64. */
bool rt_type_is_scalar(MlirType type);
/* Any builtin integer (signless, signed, unsigned, any width) or float type (f8 ... f128):
 * what rt.extern's scalars and elements may be, and what remat can size. */
bool rt_type_is_number(MlirType type);
/* Bytes of one element of an element or scalar type: ceil(bit width / 8) of a number type
 * (i1 counts 1 byte, an f8 1); -1 for any other type (index, complex, ...). */
int rt_element_bytes(MlirType element_type);
/* One of the element types of rt: f32 f16 bf16 f64 i1 i8 i32 i64. */
bool rt_element_type_is_supported(MlirType element_type);
/* Number of elements of a static tensor type (1 for numbers). 0 on success, -1 on a
 * dynamic shape, an unsupported type or overflow of int64. */
int rt_type_numel(MlirType type, int64_t *numel);
/* Bytes of a value: numel x element size; numbers their size. 0 on success, -1 on a
 * dynamic shape, an unsupported type or overflow of uint64. */
int rt_type_bytes(MlirType type, uint64_t *bytes);
int rt_value_bytes(MlirValue value, uint64_t *bytes);
/* Shape of a static tensor type; scalars have rank 0. A rank above RT_MAX_RANK is an
 * internal error: the verifier rejects it before any pass runs. */
remat_shape rt_shape_of(MlirType type);
/* Element type of a tensor, or the type itself for a scalar. */
MlirType rt_element_type(MlirType type);

/* ---- attributes --------------------------------------------------------------------- */

/* Reads a dense i64 array attribute NAME of OP. Returns its length (possibly 0), or -1
 * when absent or of another kind. Writes at most cap elements. */
int rt_get_i64_array(MlirOperation op, const char *name, int64_t *out, int cap);
/* Reads an integer attribute NAME; false when absent or not an integer. */
bool rt_get_i64(MlirOperation op, const char *name, int64_t *out);
/* Reads a float attribute NAME; false when absent or not a float. */
bool rt_get_f64(MlirOperation op, const char *name, double *out);

/* ---- convolution ------------------------------------------------------------------- */

/* The geometry of rt.conv, rt.conv_grad_input and rt.conv_grad_weight (docs/design.md,
 * "Convolution"): n spatial dims (1..3); the input x is [batch, in_ch, in...], the weight
 * w [out_ch, in_ch/groups, k...], the output y [batch, out_ch, out...], with
 * out = (in + 2 pad - dil (k - 1) - 1) / stride + 1. rt.conv is (x, w) -> y,
 * rt.conv_grad_input (dy, w) -> dx, rt.conv_grad_weight (x, dy) -> dw. */
typedef struct rt_conv_geom {
  int n;
  int64_t batch, in_ch, out_ch, groups;
  int64_t in[3], k[3], out[3], stride[3], pad[3], dil[3];
} rt_conv_geom;
/* Reads the geometry of a conv op from its types and attributes; false when they are
 * missing or of the wrong rank (the verifier's check_conv says what; after it, true). */
bool rt_conv_geom_of(MlirOperation op, rt_conv_geom *g);
/* Multiplies and adds of a conv op: 2 batch out_ch (in_ch / groups) prod(out) prod(k),
 * the same for each of the three (each gradient is a convolution of the forward's size);
 * 0 for an op whose geometry cannot be read. */
double rt_conv_flops(MlirOperation op);
/* Multiplies and adds of running OP once, where the cost model counts them: rt.matmul's
 * 2 B M N K, a conv op's rt_conv_flops, an attention op's rt_attention_flops, an
 * rt.extern's declared flops; 0 otherwise. */
double rt_op_flops(MlirOperation op);

/* ---- attention ---------------------------------------------------------------------- */

/* rt.attention (q, k, v [, mask] [, seed, offset]) -> (o, lse) and rt.attention_grad
 * (q, k, v, o, lse, do [, mask] [, seed, offset]) -> (dq, dk, dv) (docs/design.md,
 * "Attention"): q [n, sq, d], k [n, sk, d], v [n, sk, dv], o and do [n, sq, dv], lse
 * [n, sq], all of one element type (f32 or f64); a mask [sq, sk] or [n, sq, sk]. */
typedef enum rt_attention_mask {
  RT_ATTENTION_MASK_NONE,
  RT_ATTENTION_MASK_KEEP, /* i1: true keeps the score, false makes it -inf */
  RT_ATTENTION_MASK_DROP, /* i1: true makes the score -inf (masked_fill's form) */
  RT_ATTENTION_MASK_ADD,  /* of q's type: added to the score */
} rt_attention_mask;
typedef struct rt_attention {
  bool grad; /* rt.attention_grad */
  int64_t n, sq, sk, d, dv;
  double scale;
  bool causal;      /* keep (i, j) iff j <= i + diagonal */
  int64_t diagonal; /* the causal attribute */
  rt_attention_mask mask;
  bool mask_batched; /* the mask is [n, sq, sk] rather than [sq, sk] */
  int mask_at;       /* the mask's operand index, -1 if none */
  bool dropout;      /* keep, seed and offset present */
  double keep;       /* the probability of keeping a score */
  int seed_at;       /* the seed's operand index (the offset follows), -1 if none */
} rt_attention;
/* The key tile of the online softmax (the semantics: docs/design.md, "Attention") and
 * the query tile the workspace is laid out for. */
#define RT_ATTENTION_BK 64
#define RT_ATTENTION_BQ 64
/* The operand count an rt.attention(_grad) with these attributes has: 3 (6 for the
 * gradient), + 1 for a mask, + 2 for dropout. */
int rt_attention_arity(bool grad, bool mask, bool dropout);
/* The `mask` attribute: RT_ATTENTION_MASK_NONE when absent, -1 when not "keep", "drop"
 * or "add". */
int rt_attention_mask_of(MlirOperation op);
/* Reads an attention op's sizes and attributes; false when they are missing or
 * malformed (the verifier's check_attention says what; after it, true). */
bool rt_attention_of(MlirOperation op, rt_attention *a);
/* Bytes of the workspace an attention op allocates while it runs (docs/design.md,
 * "Attention": O(tile), never O(sq sk)); the estimate counts them at its step and the
 * runtime's kernel allocates exactly them. ELEM: bytes of an element of q's type. */
uint64_t rt_attention_workspace(const rt_attention *a, int elem);
/* Multiplies and adds of an attention op (docs/design.md, "Attention"). */
double rt_attention_flops(const rt_attention *a);

/* ---- checkpoint policy (rt.policy) -------------------------------------------------- */

typedef enum rt_policy {
  RT_POLICY_NONE = 0, /* untagged */
  RT_POLICY_MUST_SAVE,
  RT_POLICY_PREFER_SAVE,
  RT_POLICY_MUST_RECOMPUTE,
  RT_POLICY_PREFER_RECOMPUTE,
  RT_POLICY_INVALID, /* rt.policy present but not one of the four strings */
} rt_policy;

rt_policy rt_policy_get(MlirOperation op);
/* Sets rt.policy; RT_POLICY_NONE removes it. */
void rt_policy_set(MlirOperation op, rt_policy policy);
const char *rt_policy_name(rt_policy policy); /* "must_save", ...; "" for none */
/* must_save / prefer_save forbid recompute; must_recompute / prefer_recompute forbid saving. */
bool rt_policy_is_save(rt_policy policy);
bool rt_policy_is_recompute(rt_policy policy);

/* ---- row kernels ------------------------------------------------------------------- */

/* Whether rt.broadcast OP, read at an element of its result S (a row kernel's input shape,
 * whose dims REDUCED[d] the row reduces), reads its operand at that element's row: the
 * operand's non-unit dims are the kept non-unit dims of S, in order, so its linear index
 * is the row's. The one legality rule that fusion (passes/fuse.c: a row group may hold
 * the broadcast) and the codegen (codegen_index.c: it may index it by the row) share:
 * the two must agree, or the fused kernels are wrong. */
bool rt_broadcast_row_aligned(MlirOperation op, const remat_shape *s, const bool *reduced);

/* ---- functions ---------------------------------------------------------------------- */

/* rt.num_outputs of a func.func; false when absent. */
bool rt_func_num_outputs(MlirOperation func, int64_t *num_outputs);
/* Unit attribute NAME ("rt.tangent", "rt.param") on argument ARG of a func.func. */
bool rt_func_arg_has_attr(MlirOperation func, intptr_t arg, const char *name);
/* The attribute NAME on argument ARG of a func.func; a null attribute when absent. */
MlirAttribute rt_func_arg_attr(MlirOperation func, intptr_t arg, const char *name);
/* `rt.range = array<i64: LO, HI>` on argument ARG: its integer values lie in [LO, HI)
 * (remat-run draws them there; docs/design.md, "Integer ranges"). False when absent or
 * malformed (the verifier rejects a malformed one: rt_verify). */
bool rt_func_arg_range(MlirOperation func, intptr_t arg, int64_t *lo, int64_t *hi);
/* The entry block of a func.func (null block for a declaration). */
MlirBlock rt_func_entry_block(MlirOperation func);
/* Symbol name of a func.func. */
MlirStringRef rt_func_name(MlirOperation func);
/* The func.funcs with a body (not declarations) directly in MODULE's body, in order:
 *   for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f);
 *        f = rt_func_next(f))
 * A null operation after the last. */
MlirOperation rt_func_first(MlirOperation module);
MlirOperation rt_func_next(MlirOperation func);

/* ---- diagnostics -------------------------------------------------------------------- */

/* Emits "error: <printf message>" at OP's location through the context's handlers. */
void rt_emit_error(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rt_emit_error_at(MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- small utilities ---------------------------------------------------------------- */

/* Compares an MlirStringRef with a NUL-terminated string. */
bool rt_str_eq(MlirStringRef s, const char *c);
/* A C string as an MlirStringRef (no copy). */
MlirStringRef rt_str(const char *s);
/* Whether OP is named NAME ("func.return"). */
bool rt_op_named(MlirOperation op, const char *name);
/* The named attribute NAME = A (for building attribute dictionaries). */
MlirNamedAttribute rt_named_attr(MlirContext ctx, const char *name, MlirAttribute a);
/* Ends BODY (owned by the result) with `func.return RETS` and wraps it in `func.func
 * private @NAME attributes {rt.kernel}`, whose type is BODY's argument types to the
 * types of RETS: the kernel functions fusion outlines and the CUDA backend's one-op
 * kernels. The function is not inserted anywhere. */
MlirOperation rt_kernel_func(MlirContext ctx, MlirLocation loc, const char *name, MlirBlock body,
                             intptr_t nrets, const MlirValue *rets);
/* Whether OP carries the attribute NAME (inherent or discardable). */
bool rt_op_has_attr(MlirOperation op, const char *name);
/* Whether OP carries rt.kernel: a kernel function (rt_kernel_func), which the codegen
 * compiles and the executors launch rather than walk. */
bool rt_func_is_kernel(MlirOperation op);
/* The dictionary at I of an array of dictionaries (a function's arg_attrs or res_attrs),
 * or an empty one when ARRAY is null, shorter or holds something else there. */
MlirAttribute rt_dict_at(MlirContext ctx, MlirAttribute array, intptr_t i);
/* Prints a type into buf (truncated, always NUL-terminated); returns buf. */
char *rt_type_str(MlirType type, char *buf, size_t cap);

/* ---- semantic verifier (rt_verify.c) ------------------------------------------------ */

/* Checks what IRDL cannot: shapes of every rt op, static shapes only, joint-function
 * conventions. Emits one diagnostic per problem at the op's location; returns the number
 * of problems (0: valid). */
int rt_verify(MlirOperation module);

#endif
