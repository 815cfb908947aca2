/* fuse.c: --remat-fuse, outlining of fused work into kernel functions.
 *
 * Requires: rt IR that passed rematVerify (static shapes). Runs on every func.func of the
 *   module that is not a kernel (no rt.kernel attribute) and has a body: joint functions,
 *   the @f_fwd / @f_bwd of --remat-mincut, plain functions.
 * Keeps: the meaning of every function, bit for bit; the order of the ops left in the host
 *   function; rt.policy / rt.ac_region tags and locations of fused ops.
 * Breaks: fused ops leave the host function; scalar arith.constants used only by fused ops
 *   are cloned into the kernels and erased from the host; a transpose feeding rt.matmul
 *   becomes the matmul's transpose_a / transpose_b.
 *
 * The kernel form (the contract with the codegen and the runtime):
 *   func.func private @<fn>_k<N>(args...) -> (results...) attributes {rt.kernel}
 * called from the host as `func.call @<fn>_k<N>(args...)`. N counts from 0 per host
 * function in the order of the groups' first ops; the kernels follow their host function.
 *
 * The model (grouping=index, the default; docs/design.md "Fusion"):
 * - Views cost nothing. rt.reshape, rt.transpose, rt.broadcast and rt.slice are index maps
 *   inside every kernel that reads them (cloned there, never a kernel of their own). A view
 *   a host op reads stays in the host: a reshape is an alias in the runtime, a transpose of
 *   the last two dims feeding rt.matmul folds into the matmul, other views are read by the
 *   matmul through their index map. Only a view a non-matmul host op (return, collective,
 *   call) needs dense is materialized by a kernel.
 * - Loop fusion by index. A kernel's iteration space is its output; a producer of another
 *   shape is computed inside it at the composed index. A producer is *inlined* (recomputed
 *   in every kernel that reads it, never materialized) when one fused op consumes it, or
 *   when it is cheap and recomputing moves fewer bytes (inline_rule below). Every other
 *   fused op is a *member* of exactly one kernel.
 * - Reductions are kernels. rt.sum / rt.amax are members of row groups: all reductions of
 *   a group reduce the same dims of one shape S; the group may also hold ops of shape S
 *   (the epilogue, e.g. the normalization of softmax or layernorm) and of the kept shape K
 *   (per-row values such as rsqrt(var + eps)), as long as every read of a value that
 *   depends on the group's reductions stays in its row (aligned_read).
 * - Grouping is greedy in program order (group_block, proof there): a member joins the
 *   open groups it reads that are compatible with it (merging them), or the open group of
 *   its own shape or row structure, or opens one; a group is sealed when an op outside it
 *   reads one of its values.
 *
 * grouping=shape keeps the previous model for comparison: one group per result shape,
 * views fused as consumers (copies), reductions left in the host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "kernel_dedup.h"
#include "passes.h"
#include "report.h"
#include "rt.h"
#include "support.h"

/* Most ops (not counting views and constants) a producer's recompute may take when it is
 * duplicated into several kernels: bounds the growth of any kernel's work. */
#define DUP_MAX_OPS 8

typedef RematFuseOptions fuse_options;

/* ---- shapes and classes ---- */

static bool op_is_named(MlirOperation op, const char *name) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

static uint64_t value_bytes(MlirValue v) {
  uint64_t b = 0;
  if (!mlirTypeIsATensor(mlirValueGetType(v)) || rt_value_bytes(v, &b))
    return 0; /* scalars are free in the traffic model */
  return b;
}

typedef enum op_class {
  C_HOST,  /* stays in the host: matmul, collectives, calls, arith, return, ... */
  C_VIEW,  /* reshape, transpose, broadcast, slice */
  C_EW,    /* computed per element: elementwise, compare, select, convert, full, iota,
            * concat, uniform_philox */
  C_RED,   /* rt.sum, rt.amax */
  C_CONST, /* a scalar arith.constant: cloned into each kernel that uses it */
} op_class;

static bool is_view_id(rt_op_id id) {
  return id == RT_OP_RESHAPE || id == RT_OP_TRANSPOSE || id == RT_OP_BROADCAST ||
         id == RT_OP_SLICE;
}

/* shape_mode: the previous grouping's classes (views are ordinary fused ops, reductions
 * stay in the host). */
static op_class classify(MlirOperation op, bool shape_mode) {
  if (op_is_named(op, "arith.constant") && mlirOperationGetNumResults(op) == 1 &&
      rt_type_is_scalar(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return C_CONST;
  rt_op_id id = rt_op_lookup(op);
  rt_op_kind k = rt_op_kind_of(id);
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op) != 0)
    return C_HOST;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!rt_type_is_static_tensor(t) || mlirShapedTypeGetRank(t) > RT_MAX_RANK)
    return C_HOST;
  switch (k) {
  case RT_KIND_ELEMENTWISE:
  case RT_KIND_COMPARE:
  case RT_KIND_RANDOM:
    return C_EW;
  case RT_KIND_STRUCTURAL:
    return is_view_id(id) && !shape_mode ? C_VIEW : C_EW;
  case RT_KIND_REDUCTION:
    return shape_mode ? C_HOST : C_RED;
  case RT_KIND_NONE:
  case RT_KIND_MATMUL:
  case RT_KIND_COLLECTIVE:
  case RT_KIND_INDEXING: /* gather, scatter_add, argmax: functions of their own (codegen) */
    return C_HOST;
  }
  return C_HOST;
}

/* Ops whose recompute is worth more than a load: not duplicated through a broadcast that
 * reuses their elements. */
static bool is_expensive(rt_op_id id) {
  static const bool math[RT_OP_COUNT] = {
#define RT_MATH(ID, ...) [RT_OP_##ID] = true,
#define RT_OP(ID, ...)
#include "rt_ops.def"
  };
  return math[id] || id == RT_OP_DIV || id == RT_OP_POW || id == RT_OP_SQRT ||
         id == RT_OP_RSQRT || id == RT_OP_UNIFORM_PHILOX;
}

/* A broadcast whose result has more elements than its operand (reads elements again). */
static bool is_expanding(MlirOperation op) {
  if (rt_op_lookup(op) != RT_OP_BROADCAST)
    return false;
  remat_shape in = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  remat_shape out = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  return remat_shape_numel(&out) > remat_shape_numel(&in);
}

/* ---- the block being fused ---- */

typedef struct group {
  int parent;  /* union-find: merged groups point to the survivor */
  bool row;    /* holds reductions: S, red, k describe its rows */
  bool sealed; /* takes no more members */
  remat_shape s;     /* loop groups: the iteration space; row groups: the reductions' input */
  bool red[RT_MAX_RANK];
  remat_shape k; /* row groups: the kept shape */
  int size, first, last;
} group;

typedef struct blk {
  MlirBlock block;
  int n;
  MlirOperation *ops;
  ptr_map index;
  op_class *cls;
  remat_shape *shp;   /* result shape of fused ops */
  int *ustart;  /* users of op i: users[ustart[i] .. ustart[i+1]), -1 outside the block */
  int *users;
  bool *hview;  /* a view that stays in the host (its host users read it) */
  bool *mview;  /* a view a host op needs dense: a member of a kernel */
  bool *hostuse; /* a host op, a host view or code outside the block reads the value */
  bool *expuse;  /* some fused consumer reads it through an expanding broadcast */
  bool *dup;     /* inlined: cloned into each kernel that reads it */
  bool *rdep;    /* member that depends on a reduction of its own group */
  int *grp;      /* group of a member (use find), -1 */
  group *groups;
  int ngroups, capgroups;
  int *stamp; /* DFS marks */
  int stampv;
  int *astamp; /* aligned_read's marks, per op and position */
  int astampv;
  bool shape_mode;
} blk;

static int find(blk *b, int g) {
  while (b->groups[g].parent != g) {
    b->groups[g].parent = b->groups[b->groups[g].parent].parent;
    g = b->groups[g].parent;
  }
  return g;
}

/* Position of the top-level op of this block that holds owner, -1 if none. */
static int top_user(const blk *b, MlirOperation owner) {
  for (MlirOperation o = owner; !mlirOperationIsNull(o); o = mlirOperationGetParentOperation(o)) {
    int j = ptr_map_get(&b->index, (o).ptr);
    if (j >= 0)
      return j;
  }
  return -1;
}

/* Position of the op defining v in this block, -1 for arguments and other blocks. */
static int def_pos(const blk *b, MlirValue v) {
  return mlirValueIsAOpResult(v) ? ptr_map_get(&b->index, (mlirOpResultGetOwner(v).ptr)) : -1;
}

static void blk_init(blk *b, MlirBlock block, bool shape_mode) {
  memset(b, 0, sizeof *b);
  b->block = block;
  b->shape_mode = shape_mode;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    b->n++;
  int n = b->n;
  b->ops = xcalloc((size_t)n, sizeof *b->ops);
  b->cls = xcalloc((size_t)n, sizeof *b->cls);
  b->shp = xcalloc((size_t)n, sizeof *b->shp);
  b->ustart = xcalloc((size_t)n + 1, sizeof *b->ustart);
  b->hview = xcalloc((size_t)n, sizeof(bool));
  b->mview = xcalloc((size_t)n, sizeof(bool));
  b->hostuse = xcalloc((size_t)n, sizeof(bool));
  b->expuse = xcalloc((size_t)n, sizeof(bool));
  b->dup = xcalloc((size_t)n, sizeof(bool));
  b->rdep = xcalloc((size_t)n, sizeof(bool));
  b->grp = xcalloc((size_t)n, sizeof *b->grp);
  b->stamp = xcalloc((size_t)n + 1, sizeof *b->stamp);
  b->astamp = xcalloc((size_t)n * 3 + 1, sizeof *b->astamp);
  ptr_map_init(&b->index, (size_t)n);
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    b->ops[i] = op;
    ptr_map_put(&b->index, op.ptr, i);
    b->cls[i] = classify(op, shape_mode);
    b->grp[i] = -1;
    if (b->cls[i] != C_HOST && b->cls[i] != C_CONST)
      b->shp[i] = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  }
  /* Users of every result, as positions (CSR). */
  int total = 0, cap = 0;
  for (i = 0; i < n; i++) {
    b->ustart[i] = total;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(b->ops[i]); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(b->ops[i], r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        if (total == cap) {
          cap = cap ? 2 * cap : 64;
          b->users = xrealloc(b->users, (size_t)cap, sizeof *b->users);
        }
        b->users[total++] = top_user(b, mlirOpOperandGetOwner(u));
      }
  }
  b->ustart[n] = total;
}

static void blk_free(blk *b) {
  free(b->ops);
  free(b->cls);
  free(b->shp);
  free(b->ustart);
  free(b->users);
  free(b->hview);
  free(b->mview);
  free(b->hostuse);
  free(b->expuse);
  free(b->dup);
  free(b->rdep);
  free(b->grp);
  free(b->groups);
  free(b->stamp);
  free(b->astamp);
  ptr_map_free(&b->index);
}

static int new_stamp(blk *b) { return ++b->stampv; }

/* ---- transposes into matmuls ---- */

static bool swaps_last_two(MlirOperation op) {
  if (rt_op_lookup(op) != RT_OP_TRANSPOSE)
    return false;
  int64_t perm[RT_MAX_RANK];
  int r = rt_get_i64_array(op, "perm", perm, RT_MAX_RANK);
  if (r < 2 || r > 3)
    return false;
  for (int i = 0; i < r - 2; i++)
    if (perm[i] != i)
      return false;
  return perm[r - 2] == r - 1 && perm[r - 1] == r - 2;
}

static int fold_matmul_transposes(MlirBlock block);

/* Erases op if nothing reads it any more (views only: they have no effect). */
static void erase_if_dead(MlirOperation op) {
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
    mlirOperationDestroy(op);
}

static MlirOperation view_producer(MlirOperation op, rt_op_id id) {
  MlirValue v = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(v) || rt_op_lookup(mlirOpResultGetOwner(v)) != id)
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(v);
}

/* A view that changes nothing: same type as its operand, and for a transpose the
 * identity permutation (a reshape or broadcast of one shape to itself is the identity). */
static bool is_identity_view(MlirOperation op, rt_op_id id) {
  if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, 0)),
                     mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  if (id == RT_OP_RESHAPE || id == RT_OP_BROADCAST)
    return true;
  if (id != RT_OP_TRANSPOSE)
    return false;
  int64_t perm[RT_MAX_RANK];
  int r = rt_get_i64_array(op, "perm", perm, RT_MAX_RANK);
  for (int d = 0; d < r; d++)
    if (perm[d] != d)
      return false;
  return true;
}

/* Simplifies views before grouping, in program order: a transpose of a transpose becomes
 * one transpose (perm[d] = inner[outer[d]]), a reshape of a reshape one reshape, a view
 * that changes nothing is replaced by its operand; views nothing reads any more are
 * erased. Then a transpose of the last two dims feeding rt.matmul becomes transpose_a /
 * transpose_b (a second one cancels the first). */
static void simplify_views(MlirBlock block) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  MlirOperation *ops = xcalloc((size_t)n + 1, sizeof *ops);
  n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ops[n++] = op;
  /* Erasing an op also erases its entry: ops are only erased once nothing reads them, and
   * every op is looked at before any later op could make it dead, so an erased entry is
   * never visited again. */
  for (int i = 0; i < n; i++) {
    MlirOperation op = ops[i];
    rt_op_id id = rt_op_lookup(op);
    if (id == RT_OP_TRANSPOSE) {
      MlirOperation inner = view_producer(op, RT_OP_TRANSPOSE);
      if (!mlirOperationIsNull(inner)) {
        int64_t po[RT_MAX_RANK], pi[RT_MAX_RANK], pc[RT_MAX_RANK];
        int r = rt_get_i64_array(op, "perm", po, RT_MAX_RANK);
        rt_get_i64_array(inner, "perm", pi, RT_MAX_RANK);
        for (int d = 0; d < r; d++)
          pc[d] = pi[po[d]];
        MlirContext ctx = mlirOperationGetContext(op);
        mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("perm"),
                                        mlirDenseI64ArrayGet(ctx, r, pc));
        mlirOperationSetOperand(op, 0, mlirOperationGetOperand(inner, 0));
        erase_if_dead(inner);
      }
    } else if (id == RT_OP_RESHAPE) {
      MlirOperation inner = view_producer(op, RT_OP_RESHAPE);
      if (!mlirOperationIsNull(inner)) {
        mlirOperationSetOperand(op, 0, mlirOperationGetOperand(inner, 0));
        erase_if_dead(inner);
      }
    }
    if (is_view_id(id) && mlirOperationGetNumOperands(op) == 1 && is_identity_view(op, id)) {
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
      mlirOperationDestroy(op);
      ops[i] = (MlirOperation){NULL};
    }
  }
  free(ops);
  fold_matmul_transposes(block);
}

/* A transpose of the last two dims feeding rt.matmul becomes transpose_a / transpose_b
 * (a second one cancels the first); the transpose is erased when nothing else reads it.
 * Returns the number of transposes folded. */
static int fold_matmul_transposes(MlirBlock block) {
  int folded = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (rt_op_lookup(op) != RT_OP_MATMUL)
      continue;
    MlirContext ctx = mlirOperationGetContext(op);
    for (int k = 0; k < 2; k++) {
      MlirStringRef name = mlirStringRefCreateFromCString(k ? "transpose_b" : "transpose_a");
      for (;;) {
        MlirValue v = mlirOperationGetOperand(op, k);
        if (!mlirValueIsAOpResult(v) || !swaps_last_two(mlirOpResultGetOwner(v)))
          break;
        MlirOperation t = mlirOpResultGetOwner(v);
        mlirOperationSetOperand(op, k, mlirOperationGetOperand(t, 0));
        if (mlirAttributeIsNull(mlirOperationGetAttributeByName(op, name)))
          mlirOperationSetAttributeByName(op, name, mlirUnitAttrGet(ctx));
        else
          mlirOperationRemoveAttributeByName(op, name);
        if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
          mlirOperationDestroy(t);
        folded++;
      }
    }
  }
  return folded;
}

/* ---- which values are materialized, which inlined ---- */

/* Views a host op reads stay in the host (hview), except transposes, broadcasts and
 * slices that a host op other than rt.matmul needs dense (mview: a kernel member). A
 * value a host op or a host view reads is materialized (hostuse). Reverse order: every
 * user is classified before its producers. */
static void mark_host_uses(blk *b) {
  for (int i = b->n - 1; i >= 0; i--) {
    if (b->cls[i] == C_HOST || b->cls[i] == C_CONST)
      continue;
    bool need_dense = false;
    for (int u = b->ustart[i]; u < b->ustart[i + 1]; u++) {
      int j = b->users[u];
      bool host = j < 0 || b->cls[j] == C_HOST || (b->cls[j] == C_VIEW && b->hview[j]);
      if (host) {
        b->hostuse[i] = true;
        if (j < 0 || (b->cls[j] == C_HOST && rt_op_lookup(b->ops[j]) != RT_OP_MATMUL))
          need_dense = true;
      }
      if (j >= 0 && b->cls[j] == C_VIEW && (is_expanding(b->ops[j]) || b->expuse[j]))
        b->expuse[i] = true;
    }
    if (b->cls[i] == C_VIEW && b->hostuse[i]) {
      if (rt_op_lookup(b->ops[i]) == RT_OP_RESHAPE || !need_dense)
        b->hview[i] = true;
      else
        b->mview[i] = true;
    }
  }
}

/* Distinct fused ops reading value i, looking through inlined views. */
static int consumers(blk *b, int i, int stamp) {
  int k = 0;
  for (int u = b->ustart[i]; u < b->ustart[i + 1]; u++) {
    int j = b->users[u];
    if (j < 0 || b->stamp[j] == stamp)
      continue;
    b->stamp[j] = stamp;
    if (b->cls[j] == C_VIEW && !b->mview[j])
      k += consumers(b, j, stamp);
    else if (b->cls[j] == C_EW || b->cls[j] == C_RED || b->cls[j] == C_VIEW)
      k++;
  }
  return k;
}

typedef struct cone {
  int ops;         /* fused ops other than views and zero-operand ops */
  bool expensive;  /* holds an is_expensive op */
  uint64_t leaves; /* bytes of the distinct tensors it reads */
  MlirValue seen[4 * DUP_MAX_OPS + 8];
  int nseen;
  bool overflow;
} cone;

/* The recompute of op i: i and the inlined ops it reads, down to materialized values. */
static void cone_walk(blk *b, int i, int stamp, cone *c) {
  if (b->stamp[i] == stamp || c->overflow)
    return;
  b->stamp[i] = stamp;
  MlirOperation op = b->ops[i];
  intptr_t no = mlirOperationGetNumOperands(op);
  if (b->cls[i] == C_EW && no > 0)
    c->ops++;
  c->expensive |= is_expensive(rt_op_lookup(op));
  if (c->ops > DUP_MAX_OPS) {
    c->overflow = true;
    return;
  }
  for (intptr_t a = 0; a < no; a++) {
    MlirValue v = mlirOperationGetOperand(op, a);
    int j = def_pos(b, v);
    if (j >= 0 && b->dup[j]) {
      cone_walk(b, j, stamp, c);
      continue;
    }
    bool seen = false;
    for (int s = 0; s < c->nseen && !seen; s++)
      seen = mlirValueEqual(c->seen[s], v);
    if (seen)
      continue;
    if ((size_t)c->nseen == sizeof c->seen / sizeof *c->seen) {
      c->overflow = true;
      return;
    }
    c->seen[c->nseen++] = v;
    c->leaves += value_bytes(v);
  }
}

/* inline_rule: an op of the computed kinds that no host op reads is inlined into its
 * consumers when one fused op reads it (no work is duplicated), or when it is read by k
 * fused ops, its recompute takes at most DUP_MAX_OPS ops, it is not expensive work read
 * again through a broadcast, and recomputing it in each of k kernels moves no more bytes
 * than materializing it: k * leaves <= (k + 1) * bytes (the write once and k reads; the
 * left side assumes no consumer reads the leaves anyway, so the rule is conservative).
 * Views that stay inside kernels are always inlined. With max-ops only views are (the
 * option counts the ops a kernel computes). Program order: a cone only holds producers,
 * decided before. */
static void mark_inlined(blk *b, const fuse_options *o) {
  for (int i = 0; i < b->n; i++) {
    if (b->cls[i] == C_VIEW) {
      b->dup[i] = !b->mview[i];
      continue;
    }
    if (b->cls[i] != C_EW || b->hostuse[i] || o->max_ops > 0)
      continue; /* with max-ops every computing op counts, so none is inlined */
    int k = consumers(b, i, new_stamp(b));
    if (k == 0)
      continue; /* dead: a member, so that it still runs */
    if (k == 1) {
      b->dup[i] = true;
      continue;
    }
    if (!o->duplicate)
      continue;
    cone c;
    memset(&c, 0, sizeof c);
    cone_walk(b, i, new_stamp(b), &c);
    uint64_t bytes = value_bytes(mlirOperationGetResult(b->ops[i], 0));
    b->dup[i] = !c.overflow && !(c.expensive && b->expuse[i]) &&
                (uint64_t)k * c.leaves <= (uint64_t)(k + 1) * bytes;
  }
}

/* ---- grouping ---- */

/* Effective reads of op i: its operands, looking through inlined ops, as positions of
 * materialized producers in the block (members and host ops); block arguments and values
 * of other blocks are not listed. Nested ops of a host op count as the host op's. */
typedef struct reads {
  int *pos;
  int n, cap;
} reads;

static void reads_add_value(blk *b, MlirValue v, int stamp, reads *r);

static void reads_add_op(blk *b, MlirOperation op, int stamp, reads *r) {
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
    reads_add_value(b, mlirOperationGetOperand(op, a), stamp, r);
}

static void reads_add_value(blk *b, MlirValue v, int stamp, reads *r) {
  int j = def_pos(b, v);
  if (j < 0 || b->stamp[j] == stamp)
    return;
  b->stamp[j] = stamp;
  if (b->dup[j]) {
    reads_add_op(b, b->ops[j], stamp, r);
    return;
  }
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->pos = xrealloc(r->pos, (size_t)r->cap, sizeof *r->pos);
  }
  r->pos[r->n++] = j;
}

typedef struct nested_ctx {
  blk *b;
  int stamp;
  reads *r;
} nested_ctx;

static MlirWalkResult nested_reads(MlirOperation op, void *ud) {
  nested_ctx *c = ud;
  reads_add_op(c->b, op, c->stamp, c->r);
  return MlirWalkResultAdvance;
}

static void effective_reads(blk *b, int i, reads *r) {
  r->n = 0;
  int stamp = new_stamp(b);
  if (mlirOperationGetNumRegions(b->ops[i]) > 0) {
    nested_ctx c = {b, stamp, r};
    mlirOperationWalk(b->ops[i], nested_reads, &c, MlirWalkPreOrder);
  } else
    reads_add_op(b, b->ops[i], stamp, r);
}

/* The row structure of a reduction op. */
static void row_of(MlirOperation op, remat_shape *s, bool *red, remat_shape *k) {
  *s = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  memset(red, 0, sizeof(bool) * RT_MAX_RANK);
  int64_t dims[RT_MAX_RANK];
  int nd = rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
  for (int i = 0; i < nd; i++)
    if (dims[i] >= 0 && dims[i] < s->rank)
      red[dims[i]] = true;
  k->rank = 0;
  for (int d = 0; d < s->rank; d++)
    if (!red[d])
      k->d[k->rank++] = s->d[d];
}

/* A shape of the rows: K up to dims of size 1 (a keepdim reduction's [N, 1] is K = [N]);
 * its row-major linear index is K's. */
static bool klike(const remat_shape *t, const remat_shape *k) {
  int i = 0, j = 0;
  for (;;) {
    while (i < t->rank && t->d[i] == 1)
      i++;
    while (j < k->rank && k->d[j] == 1)
      j++;
    if (i == t->rank || j == k->rank)
      return i == t->rank && j == k->rank;
    if (t->d[i++] != k->d[j++])
      return false;
  }
}

static bool row_key_eq(const group *g, const remat_shape *s, const bool *red) {
  return g->row && remat_shape_eq(&g->s, s) &&
         !memcmp(g->red, red, sizeof(bool) * (size_t)s->rank);
}

/* A broadcast that, read at an element of its result S (a row group's input shape), reads
 * its operand at that element's row: the operand's non-unit dims are the kept non-unit
 * dims of S, in order (the codegen's cg_broadcast_is_row_aligned). */
static bool broadcast_row_aligned(const group *g, MlirOperation op) {
  remat_shape out = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  remat_shape in = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  if (!remat_shape_eq(&out, &g->s))
    return false;
  int64_t dims[RT_MAX_RANK];
  rt_get_i64_array(op, "dims", dims, RT_MAX_RANK);
  int k = 0;
  for (int d = 0; d < in.rank; d++) {
    if (in.d[d] == 1)
      continue;
    while (k < out.rank && (g->red[k] || out.d[k] == 1))
      k++;
    if (k >= out.rank || dims[d] != k)
      return false;
    k++;
  }
  while (k < out.rank && (g->red[k] || out.d[k] == 1))
    k++;
  return k == out.rank;
}

enum { AT_S, AT_ROW, AT_OTHER };

/* True if evaluating value v at position `at` (the current element of the row, the
 * current row, or any other index) reads the values of row group g that depend on its
 * reductions only within the current row: a reduction's result exists there only. */
static bool aligned_read(blk *b, int g, MlirValue v, int at) {
  int j = def_pos(b, v);
  if (j < 0 || !mlirTypeIsATensor(mlirValueGetType(v)))
    return true;
  if (!b->dup[j] || b->cls[j] == C_HOST)
    return !(b->grp[j] >= 0 && find(b, b->grp[j]) == g && b->rdep[j]) || at != AT_OTHER;
  int *memo = &b->astamp[(size_t)j * 3 + (size_t)at];
  if (*memo == b->astampv) /* already found aligned on another path */
    return true;
  MlirOperation op = b->ops[j];
  rt_op_id id = rt_op_lookup(op);
  const group *gr = &b->groups[g];
  int next = AT_OTHER;
  if (b->cls[j] == C_VIEW) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    remat_shape ins = rt_shape_of(mlirValueGetType(in));
    if (id == RT_OP_BROADCAST && at == AT_S && broadcast_row_aligned(gr, op))
      next = AT_ROW;
    else if (id == RT_OP_RESHAPE && at == AT_ROW)
      next = AT_ROW;
    else if (id == RT_OP_RESHAPE && at == AT_S && remat_shape_eq(&ins, &gr->s))
      next = AT_S;
    if (!aligned_read(b, g, in, next))
      return false;
    *memo = b->astampv;
    return true;
  }
  if (id != RT_OP_CONCAT) /* elementwise: operands at the same index */
    next = at;
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
    if (!aligned_read(b, g, mlirOperationGetOperand(op, a), next))
      return false;
  *memo = b->astampv;
  return true;
}

/* Whether member i (not yet in a group) may join row group g: the reads of its operands,
 * at its own position (a reduction reads its input at the current element). */
static bool row_compatible(blk *b, int g, int i) {
  const group *gr = &b->groups[g];
  int at;
  if (b->cls[i] == C_RED) {
    remat_shape s, k;
    bool red[RT_MAX_RANK];
    row_of(b->ops[i], &s, red, &k);
    if (!row_key_eq(gr, &s, red))
      return false;
    at = AT_S;
  } else if (remat_shape_eq(&b->shp[i], &gr->s))
    at = AT_S;
  else if (klike(&b->shp[i], &gr->k))
    at = AT_ROW;
  else
    return false;
  MlirOperation op = b->ops[i];
  b->astampv++;
  if (b->cls[i] == C_VIEW && at == AT_S)
    at = AT_OTHER; /* a materialized view reads its operand elsewhere */
  intptr_t no = b->cls[i] == C_RED ? 1 : mlirOperationGetNumOperands(op);
  for (intptr_t a = 0; a < no; a++)
    if (!aligned_read(b, g, mlirOperationGetOperand(op, a), at))
      return false;
  return true;
}

static int new_group(blk *b, int i) {
  if (b->ngroups == b->capgroups) {
    b->capgroups = b->capgroups ? 2 * b->capgroups : 16;
    b->groups = xrealloc(b->groups, (size_t)b->capgroups, sizeof *b->groups);
  }
  int g = b->ngroups++;
  group *gr = &b->groups[g];
  memset(gr, 0, sizeof *gr);
  gr->parent = g;
  gr->first = gr->last = i;
  if (b->cls[i] == C_RED) {
    gr->row = true;
    row_of(b->ops[i], &gr->s, gr->red, &gr->k);
  } else
    gr->s = b->shp[i];
  return g;
}

/* Merges group h into g (both open); g keeps its kind unless h is a row group. */
static void merge_into(blk *b, int g, int h) {
  group *a = &b->groups[g], *c = &b->groups[h];
  if (c->row && !a->row) {
    a->row = true;
    a->s = c->s;
    a->k = c->k;
    memcpy(a->red, c->red, sizeof a->red);
  }
  a->size += c->size;
  a->first = c->first < a->first ? c->first : a->first;
  a->last = c->last > a->last ? c->last : a->last;
  c->parent = g;
}

/* Assigns members to groups in program order (grouping=index).
 *
 * Member i reads (through inlined ops) the materialized values of some groups. Those that
 * are open and compatible with i are merged, with i, into one group; compatible means: for
 * a reduction, a row group of its row structure, or a loop group of its input or kept
 * shape (which becomes part of the row group); for another member of shape T, a loop group
 * of T, or a row group whose input or kept shape is T (then also loop groups of its input
 * or kept shape), with every read of that row group's reduction results within the row.
 * If i reads no compatible open group, it joins the open group of its own key (the row
 * structure of a reduction, the shape of anything else), or opens one. Every group i reads
 * that is not its own is sealed afterwards, and so is a group of max-ops members.
 *
 * Claim: with each group's call placed at the position of its last member and every other
 * op left in place, every value is defined before it is used; hence the kernels and the
 * host ops never form a cycle and the host keeps its program order.
 * Proof. Sealed groups never grow or merge (only open groups are merged). Write p(G) for
 * the position of G's last member.
 * (1) Arguments. Let member u of G read a value from outside G. If a host op d defines it
 *     (directly or below inlined ops, which precede u), d precedes u <= p(G). If a member
 *     of another group H defines it, H was not merged into u's group when u was processed
 *     (else it would be in G), so processing u sealed H: every member of H precedes u, and
 *     p(H) < pos(u) <= p(G): H's call comes first.
 * (2) Results. Let op X outside G read a value of G. Processing X sealed the group then
 *     holding that value, which is G or was merged into G before (sealed groups do not
 *     merge): so no member of G comes after X: pos(X) > p(G). If X stays in the host it
 *     follows G's call; if X is a member of group H, then p(H) >= pos(X) > p(G).
 * Reads inside nested regions count as reads by the top-level op that holds them. */
static void group_block(blk *b, const fuse_options *o) {
  reads r = {NULL, 0, 0};
  int *cand = NULL, ncand, *open = xcalloc((size_t)b->n + 1, sizeof *open), nopen = 0;
  cand = xcalloc((size_t)b->n + 1, sizeof *cand);
  for (int i = 0; i < b->n; i++) {
    bool member = b->cls[i] == C_RED || b->cls[i] == C_EW ? !b->dup[i]
                  : b->cls[i] == C_VIEW                    ? b->mview[i]
                                                           : false;
    if (!member && !(b->cls[i] == C_HOST || b->hview[i]))
      continue; /* inlined ops and constants: their readers count */
    effective_reads(b, i, &r);
    /* The groups i reads (representatives, each once). */
    ncand = 0;
    for (int k = 0; k < r.n; k++) {
      int j = r.pos[k];
      if (b->grp[j] < 0)
        continue;
      int g = find(b, b->grp[j]);
      bool dupl = false;
      for (int c = 0; c < ncand && !dupl; c++)
        dupl = cand[c] == g;
      if (!dupl)
        cand[ncand++] = g;
    }
    int target = -1;
    if (member) {
      /* The row group i joins, if any: the one of its key for a reduction, else the first
       * open row group it reads that accepts it. */
      int rowg = -1;
      for (int c = 0; c < ncand && rowg < 0; c++) {
        group *gr = &b->groups[cand[c]];
        if (!gr->sealed && gr->row && row_compatible(b, cand[c], i))
          rowg = cand[c];
      }
      if (b->cls[i] == C_RED && rowg < 0) {
        remat_shape s, k;
        bool red[RT_MAX_RANK];
        row_of(b->ops[i], &s, red, &k);
        for (int h = 0; h < nopen && rowg < 0; h++) {
          int g = find(b, open[h]);
          if (!b->groups[g].sealed && row_key_eq(&b->groups[g], &s, red) &&
              row_compatible(b, g, i))
            rowg = g;
        }
      }
      bool to_row = rowg >= 0 || b->cls[i] == C_RED;
      remat_shape rs = {0, {0}}, rk = {0, {0}};
      if (rowg >= 0)
        rs = b->groups[rowg].s, rk = b->groups[rowg].k;
      else if (b->cls[i] == C_RED) {
        bool red[RT_MAX_RANK];
        row_of(b->ops[i], &rs, red, &rk);
      }
      /* Merge the compatible open groups i reads. */
      target = rowg;
      for (int c = 0; c < ncand; c++) {
        int g = cand[c];
        group *gr = &b->groups[g];
        if (gr->sealed || g == target || gr->row)
          continue;
        bool ok = to_row ? remat_shape_eq(&gr->s, &rs) || klike(&gr->s, &rk)
                         : remat_shape_eq(&gr->s, &b->shp[i]);
        if (!ok)
          continue;
        if (target < 0)
          target = g;
        else
          merge_into(b, target, g);
      }
      if (target < 0 && !to_row)
        for (int h = 0; h < nopen && target < 0; h++) {
          int g = find(b, open[h]);
          if (!b->groups[g].sealed && !b->groups[g].row && remat_shape_eq(&b->groups[g].s, &b->shp[i]))
            target = g;
        }
      if (target < 0)
        target = new_group(b, i);
      else if (to_row && !b->groups[target].row) {
        /* a loop group turns into the row group of reduction i */
        group *gr = &b->groups[target];
        gr->row = true;
        row_of(b->ops[i], &gr->s, gr->red, &gr->k);
      }
      group *gr = &b->groups[target];
      b->grp[i] = target;
      gr->size++;
      gr->first = i < gr->first ? i : gr->first;
      gr->last = i;
      b->rdep[i] = b->cls[i] == C_RED;
      for (int k = 0; k < r.n && !b->rdep[i]; k++) {
        int j = r.pos[k];
        b->rdep[i] = b->grp[j] >= 0 && find(b, b->grp[j]) == target && b->rdep[j];
      }
      if (o->max_ops > 0 && gr->size >= o->max_ops)
        gr->sealed = true;
    }
    /* Seal what i reads outside its own group. */
    for (int c = 0; c < ncand; c++) {
      int g = find(b, cand[c]);
      if (g != target)
        b->groups[g].sealed = true;
    }
    /* The open groups, each once, representatives only. */
    int kept = 0;
    for (int h = 0; h < nopen; h++) {
      int g = find(b, open[h]);
      bool dupl = false;
      for (int c = 0; c < kept && !dupl; c++)
        dupl = open[c] == g;
      if (!b->groups[g].sealed && !dupl)
        open[kept++] = g;
    }
    nopen = kept;
    if (target >= 0 && !b->groups[target].sealed) {
      bool dupl = false;
      for (int c = 0; c < nopen && !dupl; c++)
        dupl = open[c] == target;
      if (!dupl)
        open[nopen++] = target;
    }
  }
  for (int i = 0; i < b->n; i++)
    if (b->grp[i] >= 0)
      b->grp[i] = find(b, b->grp[i]);
  free(cand);
  free(open);
  free(r.pos);
}

/* The previous grouping (grouping=shape): an op of shape S joins the open group of S or
 * opens one; a group is sealed when any op outside it uses one of its values or when it
 * holds max-ops ops. Views are ordinary members (copies), reductions stay in the host. The
 * proof of group_block applies with no inlined ops and no merging. */
static void group_block_shape(blk *b, const fuse_options *o) {
  reads r = {NULL, 0, 0};
  int *open = xcalloc((size_t)b->n + 1, sizeof *open), nopen = 0;
  for (int i = 0; i < b->n; i++) {
    int target = -1;
    if (b->cls[i] == C_EW) {
      int kept = 0;
      for (int h = 0; h < nopen; h++)
        if (!b->groups[open[h]].sealed) {
          open[kept++] = open[h];
          if (remat_shape_eq(&b->groups[open[h]].s, &b->shp[i]))
            target = open[h];
        }
      nopen = kept;
      if (target < 0) {
        target = new_group(b, i);
        open[nopen++] = target;
      }
      group *gr = &b->groups[target];
      b->grp[i] = target;
      gr->size++;
      gr->last = i;
      if (o->max_ops > 0 && gr->size >= o->max_ops)
        gr->sealed = true;
    } else if (b->cls[i] != C_HOST)
      continue;
    effective_reads(b, i, &r);
    for (int k = 0; k < r.n; k++) {
      int j = r.pos[k];
      if (b->grp[j] >= 0 && b->grp[j] != target)
        b->groups[b->grp[j]].sealed = true;
    }
  }
  free(open);
  free(r.pos);
}

/* ---- what each group becomes ---- */

typedef struct kernel {
  int g;
  int *body; /* positions of the members and the inlined ops they need, in order */
  int nbody;
  MlirValue *args; /* host values, in order of first use */
  int nargs;
  MlirValue *results; /* members' values read outside the kernel, in order */
  int nresults;
  MlirOperation *consts; /* scalar constants to clone (any block), in order of first use */
  MlirOperation *const_clones;
  int nconsts;
  MlirOperation call;
  bool rows; /* holds reductions */
} kernel;

static bool value_in(const MlirValue *vs, int n, MlirValue v, int *at) {
  for (int i = 0; i < n; i++)
    if (mlirValueEqual(vs[i], v)) {
      if (at)
        *at = i;
      return true;
    }
  return false;
}

static int const_index(const kernel *k, MlirOperation c) {
  for (int i = 0; i < k->nconsts; i++)
    if (mlirOperationEqual(k->consts[i], c))
      return i;
  return -1;
}

static bool is_scalar_constant(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  return op_is_named(d, "arith.constant") &&
         rt_type_is_scalar(mlirValueGetType(mlirOperationGetResult(d, 0)));
}

/* Marks, with stamp, the inlined ops member/inlined op i needs. */
static void mark_cone(blk *b, int i, int stamp) {
  MlirOperation op = b->ops[i];
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++) {
    int j = def_pos(b, mlirOperationGetOperand(op, a));
    if (j >= 0 && b->dup[j] && b->grp[j] < 0 && b->stamp[j] != stamp) {
      b->stamp[j] = stamp;
      mark_cone(b, j, stamp);
    }
  }
}

/* Bodies, arguments, constants and results of every group, in order of the groups' first
 * ops. Returns the number of kernels; *out gets them. */
static int collect_kernels(blk *b, kernel **out) {
  int *order = xcalloc((size_t)b->ngroups + 1, sizeof *order), nk = 0;
  int *kidx = xcalloc((size_t)b->ngroups + 1, sizeof *kidx);
  for (int g = 0; g < b->ngroups; g++)
    kidx[g] = -1;
  for (int i = 0; i < b->n; i++)
    if (b->grp[i] >= 0 && kidx[b->grp[i]] < 0) {
      kidx[b->grp[i]] = nk;
      order[nk++] = b->grp[i];
    }
  kernel *ks = xcalloc((size_t)nk + 1, sizeof *ks);
  for (int k = 0; k < nk; k++) {
    kernel *kr = &ks[k];
    kr->g = order[k];
    kr->rows = b->groups[order[k]].row;
    int stamp = new_stamp(b);
    for (int i = 0; i < b->n; i++)
      if (b->grp[i] == kr->g) {
        b->stamp[i] = stamp;
        mark_cone(b, i, stamp);
      }
    int cap = 0;
    for (int i = 0; i < b->n; i++)
      if (b->stamp[i] == stamp) {
        if (kr->nbody == cap) {
          cap = cap ? 2 * cap : 8;
          kr->body = xrealloc(kr->body, (size_t)cap, sizeof *kr->body);
        }
        kr->body[kr->nbody++] = i;
      }
    int acap = 0, ccap = 0;
    for (int bi = 0; bi < kr->nbody; bi++) {
      MlirOperation op = b->ops[kr->body[bi]];
      for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++) {
        MlirValue v = mlirOperationGetOperand(op, a);
        int j = def_pos(b, v);
        if (j >= 0 && b->stamp[j] == stamp)
          continue;
        if (is_scalar_constant(v)) {
          MlirOperation c = mlirOpResultGetOwner(v);
          if (const_index(kr, c) < 0) {
            if (kr->nconsts == ccap) {
              ccap = ccap ? 2 * ccap : 4;
              kr->consts = xrealloc(kr->consts, (size_t)ccap, sizeof *kr->consts);
            }
            kr->consts[kr->nconsts++] = c;
          }
          continue;
        }
        if (value_in(kr->args, kr->nargs, v, NULL))
          continue;
        if (kr->nargs == acap) {
          acap = acap ? 2 * acap : 4;
          kr->args = xrealloc(kr->args, (size_t)acap, sizeof *kr->args);
        }
        kr->args[kr->nargs++] = v;
      }
    }
  }
  /* Kernels are numbered in the order of their first ops (inlined ones included). */
  for (int k = 1; k < nk; k++)
    for (int j = k; j > 0 && ks[j - 1].body[0] > ks[j].body[0]; j--) {
      kernel t = ks[j];
      ks[j] = ks[j - 1];
      ks[j - 1] = t;
    }
  /* Results: members read by a host op, a host view, code outside the block, or another
   * kernel (one of its arguments). */
  bool *exported = xcalloc((size_t)b->n + 1, sizeof(bool));
  for (int i = 0; i < b->n; i++)
    exported[i] = b->grp[i] >= 0 && b->hostuse[i];
  for (int k = 0; k < nk; k++)
    for (int a = 0; a < ks[k].nargs; a++) {
      int j = def_pos(b, ks[k].args[a]);
      if (j >= 0 && b->grp[j] >= 0)
        exported[j] = true;
    }
  /* shape mode: any use outside the group (its members read each other directly) */
  if (b->shape_mode)
    for (int i = 0; i < b->n; i++)
      for (int u = b->ustart[i]; u < b->ustart[i + 1] && b->grp[i] >= 0; u++) {
        int j = b->users[u];
        if (j < 0 || b->grp[j] != b->grp[i])
          exported[i] = true;
      }
  for (int k = 0; k < nk; k++) {
    kernel *kr = &ks[k];
    int cap = 0, last = -1;
    for (int i = 0; i < b->n; i++) {
      if (b->grp[i] != kr->g)
        continue;
      last = i;
      if (!exported[i])
        continue;
      if (kr->nresults == cap) {
        cap = cap ? 2 * cap : 4;
        kr->results = xrealloc(kr->results, (size_t)cap, sizeof *kr->results);
      }
      kr->results[kr->nresults++] = mlirOperationGetResult(b->ops[i], 0);
    }
    if (kr->nresults == 0) { /* dead code: still a kernel, returning its last value */
      kr->results = xcalloc(1, sizeof *kr->results);
      kr->results[kr->nresults++] = mlirOperationGetResult(b->ops[last], 0);
    }
  }
  free(exported);
  free(kidx);
  free(order);
  *out = ks;
  return nk;
}

static void kernels_free(kernel *ks, int nk) {
  for (int k = 0; k < nk; k++) {
    free(ks[k].body);
    free(ks[k].args);
    free(ks[k].results);
    free(ks[k].consts);
    free(ks[k].const_clones);
  }
  free(ks);
}

/* ---- statistics for the report ---- */

typedef struct stats {
  /* single_kernels: kernels doing one op's work (one computing op with its index maps,
   * or one view copied), the kind a GPU engineer would not launch alone */
  int kernels, row_kernels, single_kernels, view_kernels, host_reductions, inlined_clones;
  uint64_t kernel_bytes, host_bytes;
  /* host ops by name */
  char (*names)[64];
  int *counts;
  int nnames;
} stats;

static void stats_count(stats *s, const char *name) {
  for (int i = 0; i < s->nnames; i++)
    if (!strcmp(s->names[i], name)) {
      s->counts[i]++;
      return;
    }
  s->names = xrealloc(s->names, (size_t)s->nnames + 1, sizeof *s->names);
  s->counts = xrealloc(s->counts, (size_t)s->nnames + 1, sizeof *s->counts);
  snprintf(s->names[s->nnames], sizeof s->names[0], "%s", name);
  s->counts[s->nnames++] = 1;
}

static void stats_free(stats *s) {
  free(s->names);
  free(s->counts);
}

static void stats_merge(stats *into, const stats *s) {
  into->kernels += s->kernels;
  into->row_kernels += s->row_kernels;
  into->single_kernels += s->single_kernels;
  into->view_kernels += s->view_kernels;
  into->host_reductions += s->host_reductions;
  into->inlined_clones += s->inlined_clones;
  into->kernel_bytes += s->kernel_bytes;
  into->host_bytes += s->host_bytes;
  for (int i = 0; i < s->nnames; i++)
    for (int c = 0; c < s->counts[i]; c++)
      stats_count(into, s->names[i]);
}

static uint64_t op_traffic(MlirOperation op) {
  uint64_t t = 0;
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
    t += value_bytes(mlirOperationGetOperand(op, a));
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    t += value_bytes(mlirOperationGetResult(op, r));
  return t;
}

/* Host ops: by name; traffic: operands and results once, views free (reshape an alias,
 * the others read through by their host consumer), constants and return free. */
static void host_stats(blk *b, stats *s) {
  for (int i = 0; i < b->n; i++) {
    MlirOperation op = b->ops[i];
    bool host = b->cls[i] == C_HOST || b->hview[i];
    if (!host || op_is_named(op, "func.return") || op_is_named(op, "arith.constant"))
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
    rt_op_id id = rt_op_lookup(op);
    if (id == RT_OP_SUM || id == RT_OP_AMAX)
      s->host_reductions++;
    stats_count(s, buf);
    if (!is_view_id(id))
      s->host_bytes += op_traffic(op);
  }
}

static void kernel_stats(blk *b, kernel *ks, int nk, stats *s) {
  for (int k = 0; k < nk; k++) {
    s->kernels++;
    s->row_kernels += ks[k].rows;
    int computing = 0;
    for (int bi = 0; bi < ks[k].nbody; bi++) {
      int i = ks[k].body[bi];
      computing += !is_view_id(rt_op_lookup(b->ops[i]));
      s->inlined_clones += b->grp[i] < 0;
    }
    s->view_kernels += computing == 0;
    s->single_kernels += computing == 1 || (computing == 0 && ks[k].nbody == 1);
    for (int a = 0; a < ks[k].nargs; a++)
      s->kernel_bytes += value_bytes(ks[k].args[a]);
    for (int r = 0; r < ks[k].nresults; r++)
      s->kernel_bytes += value_bytes(ks[k].results[r]);
  }
}

/* Every op its own kernel: every rt op that computes (views: reshape free, the others a
 * copy), each reading its operands and writing its result. */
static void unfused_stats(MlirBlock block, stats *s) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    op_class c = classify(op, false);
    rt_op_id id = rt_op_lookup(op);
    if (c == C_HOST) {
      if (op_is_named(op, "func.return"))
        continue;
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      char buf[64];
      snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
      stats_count(s, buf);
      s->host_bytes += op_traffic(op);
    } else if (c != C_CONST && id != RT_OP_RESHAPE) {
      s->kernels++;
      s->single_kernels++;
      s->row_kernels += c == C_RED;
      s->view_kernels += c == C_VIEW;
      s->kernel_bytes += op_traffic(op);
    }
  }
}

static void stats_print(FILE *f, const char *label, const stats *s) {
  fprintf(f, "  %-22s %7d %7d %7d %7d %11d %16llu %16llu\n", label, s->kernels, s->row_kernels,
          s->single_kernels, s->view_kernels, s->host_reductions, (unsigned long long)s->kernel_bytes,
          (unsigned long long)(s->kernel_bytes + s->host_bytes));
}

static void stats_print_block(FILE *f, const char *title, const stats *base, const stats *prev,
                              const stats *now) {
  fprintf(f, "%s\n", title);
  fprintf(f, "  %-22s %7s %7s %7s %7s %11s %16s %16s\n", "grouping", "kernels", "row", "single",
          "views",
          "host-reduce", "kernel-bytes", "total-bytes");
  stats_print(f, "unfused (op/kernel)", base);
  stats_print(f, "previous (shape)", prev);
  stats_print(f, "this", now);
  double l0 = prev->kernels + prev->host_reductions, l1 = now->kernels + now->host_reductions;
  double t0 = (double)(prev->kernel_bytes + prev->host_bytes);
  double t1 = (double)(now->kernel_bytes + now->host_bytes);
  fprintf(f, "  launches + host reductions: %.0f -> %.0f (%.1f%% of previous)\n", l0, l1,
          l0 > 0 ? 100.0 * l1 / l0 : 0.0);
  fprintf(f, "  modelled traffic: %.0f -> %.0f bytes (%.1f%% of previous; kernels %.1f%%)\n",
          t0, t1, t0 > 0 ? 100.0 * t1 / t0 : 0.0,
          prev->kernel_bytes ? 100.0 * (double)now->kernel_bytes / (double)prev->kernel_bytes : 0.0);
  fprintf(f, "  host ops:");
  for (int i = 0; i < now->nnames; i++)
    fprintf(f, " %s %d%s", now->names[i], now->counts[i], i + 1 < now->nnames ? "," : "");
  fprintf(f, "%s\n", now->nnames ? "" : " none");
  fprintf(f, "  inlined op clones: %d, kernels of view ops only: %d\n", now->inlined_clones,
          now->view_kernels);
  if (base->kernels == 0) /* say it, rather than leave a table of zeros to decode */
    fprintf(f, "  nothing to fuse: every op is a host op, a constant or a reshape\n");
}

/* ---- outlining ---- */

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* The kernel value that stands for host value v inside kernel k. clones: per position. */
static MlirValue kernel_value(const blk *b, const kernel *k, MlirBlock body,
                              const MlirOperation *clones, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation owner = mlirOpResultGetOwner(v);
    int j = ptr_map_get(&b->index, (owner).ptr), c = const_index(k, owner);
    if (j >= 0 && !mlirOperationIsNull(clones[j]))
      return mlirOperationGetResult(clones[j], mlirOpResultGetResultNumber(v));
    if (c >= 0)
      return mlirOperationGetResult(k->const_clones[c], mlirOpResultGetResultNumber(v));
  }
  int at;
  if (!value_in(k->args, k->nargs, v, &at))
    remat_fatal("kernel operand neither inside nor an argument");
  return mlirBlockGetArgument(body, at);
}

/* Builds the kernel function of k and its call, placed before the group's last member. */
static MlirOperation build_kernel(const blk *b, kernel *k, const char *name,
                                  MlirOperation *clones) {
  const group *gr = &b->groups[k->g];
  MlirOperation first = b->ops[gr->first];
  for (int bi = 0; bi < k->nbody; bi++)
    if (b->grp[k->body[bi]] == k->g) {
      first = b->ops[k->body[bi]];
      break;
    }
  int last = -1;
  for (int bi = 0; bi < k->nbody; bi++)
    if (b->grp[k->body[bi]] == k->g)
      last = k->body[bi];
  MlirContext ctx = mlirOperationGetContext(first);
  MlirLocation loc = mlirOperationGetLocation(first);
  MlirType *in = xcalloc((size_t)k->nargs, sizeof *in);
  MlirType *out = xcalloc((size_t)k->nresults, sizeof *out);
  MlirLocation *locs = xcalloc((size_t)k->nargs, sizeof *locs);
  for (int a = 0; a < k->nargs; a++) {
    in[a] = mlirValueGetType(k->args[a]);
    locs[a] = loc;
  }
  for (int r = 0; r < k->nresults; r++)
    out[r] = mlirValueGetType(k->results[r]);

  MlirBlock body = mlirBlockCreate(k->nargs, in, locs);
  k->const_clones = xcalloc((size_t)k->nconsts, sizeof *k->const_clones);
  for (int c = 0; c < k->nconsts; c++) {
    k->const_clones[c] = mlirOperationClone(k->consts[c]);
    mlirBlockAppendOwnedOperation(body, k->const_clones[c]);
  }
  for (int bi = 0; bi < k->nbody; bi++) {
    int i = k->body[bi];
    MlirOperation op = b->ops[i], copy = mlirOperationClone(op);
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
      mlirOperationSetOperand(copy, a,
                              kernel_value(b, k, body, clones, mlirOperationGetOperand(op, a)));
    clones[i] = copy;
    mlirBlockAppendOwnedOperation(body, copy);
  }
  MlirValue *rets = xcalloc((size_t)k->nresults, sizeof *rets);
  for (int r = 0; r < k->nresults; r++)
    rets[r] = kernel_value(b, k, body, clones, k->results[r]);
  MlirOperationState rs =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), loc);
  mlirOperationStateAddOperands(&rs, k->nresults, rets);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&rs));
  for (int bi = 0; bi < k->nbody; bi++) /* the clones map is per kernel */
    clones[k->body[bi]] = (MlirOperation){NULL};

  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirStringRef sym = mlirStringRefCreateFromCString(name);
  MlirNamedAttribute fattrs[] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, sym)),
      named(ctx, "function_type",
            mlirTypeAttrGet(mlirFunctionTypeGet(ctx, k->nargs, in, k->nresults, out))),
      named(ctx, "sym_visibility",
            mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private"))),
      named(ctx, "rt.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirOperationState fs = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&fs, 4, fattrs);
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  MlirOperation func = mlirOperationCreate(&fs);

  MlirNamedAttribute callee = named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, sym));
  MlirOperationState cs = mlirOperationStateGet(mlirStringRefCreateFromCString("func.call"), loc);
  mlirOperationStateAddOperands(&cs, k->nargs, k->args);
  mlirOperationStateAddResults(&cs, k->nresults, out);
  mlirOperationStateAddAttributes(&cs, 1, &callee);
  k->call = mlirOperationCreate(&cs);
  mlirBlockInsertOwnedOperationBefore(b->block, b->ops[last], k->call);

  free(rets);
  free(locs);
  free(out);
  free(in);
  return func;
}

/* Rewrites block b: kernels inserted into the module after *after (updated), calls in
 * the host, fused and inlined ops erased. Returns 0, or -1 after a diagnostic (a kernel
 * name already taken; nothing is changed then). */
static int outline(blk *b, kernel *ks, int nk, MlirSymbolTable symbols, MlirOperation fn,
                   MlirOperation *after, int *counter) {
  MlirStringRef fname = rt_func_name(fn);
  size_t name_cap = fname.length + 16;
  char *names = xcalloc((size_t)nk + 1, name_cap);
  int rc = 0;
  for (int k = 0; k < nk && rc == 0; k++) {
    char *name = names + (size_t)k * name_cap;
    snprintf(name, name_cap, "%.*s_k%d", (int)fname.length, fname.data, (*counter)++);
    if (!mlirOperationIsNull(mlirSymbolTableLookup(symbols, mlirStringRefCreateFromCString(name)))) {
      rt_emit_error(fn, "cannot outline a kernel of '%.*s': the symbol '%s' already exists",
                    (int)fname.length, fname.data, name);
      rc = -1;
    }
  }
  if (rc) {
    free(names);
    return rc;
  }
  MlirOperation *clones = xcalloc((size_t)b->n + 1, sizeof *clones);
  for (int k = 0; k < nk; k++) {
    MlirOperation kfn = build_kernel(b, &ks[k], names + (size_t)k * name_cap, clones);
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(*after), *after, kfn);
    mlirSymbolTableInsert(symbols, kfn); /* the name is free: nothing is renamed */
    *after = kfn;
  }
  for (int k = 0; k < nk; k++)
    for (int r = 0; r < ks[k].nresults; r++)
      mlirValueReplaceAllUsesOfWith(ks[k].results[r], mlirOperationGetResult(ks[k].call, r));
  /* Users before producers: what is left of a fused op's uses is later fused ops. */
  for (int j = b->n - 1; j >= 0; j--)
    if (b->grp[j] >= 0 || (b->dup[j] && !b->hview[j]))
      mlirOperationDestroy(b->ops[j]);
  /* Scalar constants that only fused ops used are now dead in the host (each looked at
   * once: several kernels may clone the same one). */
  int total = 0;
  for (int k = 0; k < nk; k++)
    total += ks[k].nconsts;
  ptr_map seen;
  ptr_map_init(&seen, (size_t)total);
  for (int k = 0; k < nk; k++)
    for (int c = 0; c < ks[k].nconsts; c++) {
      MlirOperation op = ks[k].consts[c];
      if (ptr_map_get(&seen, op.ptr) >= 0)
        continue;
      ptr_map_put(&seen, op.ptr, 1);
      if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
        mlirOperationDestroy(op);
    }
  ptr_map_free(&seen);
  free(clones);
  free(names);
  return 0;
}

/* ---- the pass ---- */

static bool shape_grouping(const fuse_options *o) { return !strcmp(o->grouping, "shape"); }

/* Groups one block of host function fn (after folding matmul transposes when grouping by
 * index) and outlines it; with a report, the same block's numbers for every op its own
 * kernel and for the previous grouping are added to the report's totals first. */
static int fuse_block(MlirSymbolTable symbols, MlirOperation fn, MlirBlock block,
                      const fuse_options *o, MlirOperation *after, int *counter,
                      stats *report /* [3] or NULL */) {
  bool shape_mode = shape_grouping(o);
  if (report) {
    unfused_stats(block, &report[0]);
    blk prev;
    blk_init(&prev, block, true);
    group_block_shape(&prev, o);
    kernel *pk;
    int npk = collect_kernels(&prev, &pk);
    kernel_stats(&prev, pk, npk, &report[1]);
    host_stats(&prev, &report[1]);
    kernels_free(pk, npk);
    blk_free(&prev);
  }
  if (!shape_mode)
    simplify_views(block);
  blk b;
  blk_init(&b, block, shape_mode);
  if (shape_mode)
    group_block_shape(&b, o);
  else {
    mark_host_uses(&b);
    mark_inlined(&b, o);
    group_block(&b, o);
  }
  kernel *ks;
  int nk = collect_kernels(&b, &ks);
  if (report) {
    kernel_stats(&b, ks, nk, &report[2]);
    host_stats(&b, &report[2]);
  }
  int rc = outline(&b, ks, nk, symbols, fn, after, counter);
  kernels_free(ks, nk);
  blk_free(&b);
  return rc;
}

/* A host function to fuse: not a kernel (rt.kernel). */
static bool is_host_function(MlirOperation func) {
  return mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      func, mlirStringRefCreateFromCString("rt.kernel")));
}

static void fuse_run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const fuse_options *o = ud;
  int failed = 0;
  FILE *rep = remat_report_open(o->report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-fuse: cannot open the report file '%s'", o->report);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  int nfn = 0, cap = 0;
  MlirOperation *fns = NULL;
  for (MlirOperation op = rt_func_first(module); !mlirOperationIsNull(op);
       op = rt_func_next(op))
    if (is_host_function(op)) {
      if (nfn == cap) {
        cap = cap ? 2 * cap : 8;
        fns = xrealloc(fns, (size_t)cap, sizeof *fns);
      }
      fns[nfn++] = op;
    }
  int rc = 0;
  stats total[3];
  memset(total, 0, sizeof total);
  MlirSymbolTable symbols = mlirSymbolTableCreate(module);
  for (int f = 0; f < nfn && rc == 0; f++) {
    MlirOperation after = fns[f];
    int counter = 0;
    stats st[3];
    memset(st, 0, sizeof st);
    MlirRegion body = mlirOperationGetRegion(fns[f], 0);
    for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk) && rc == 0;
         blk = mlirBlockGetNextInRegion(blk))
      rc = fuse_block(symbols, fns[f], blk, o, &after, &counter, rep ? st : NULL);
    if (rep && rc == 0) {
      char title[512];
      MlirStringRef name = rt_func_name(fns[f]);
      snprintf(title, sizeof title, "remat-fuse: @%.*s (grouping=%s)", (int)name.length,
               name.data, o->grouping);
      stats_print_block(rep, title, &st[0], &st[1], &st[2]);
      for (int s = 0; s < 3; s++)
        stats_merge(&total[s], &st[s]);
    }
    for (int s = 0; s < 3; s++)
      stats_free(&st[s]);
  }
  if (rep && rc == 0 && nfn > 1)
    stats_print_block(rep, "remat-fuse: all functions", &total[0], &total[1], &total[2]);
  for (int s = 0; s < 3; s++)
    stats_free(&total[s]);
  mlirSymbolTableDestroy(symbols);
  /* The last step, on the whole module: one definition per distinct kernel. */
  if (rc == 0 && o->dedup) {
    remat_dedup_stats d;
    remat_dedup_kernels(module, &d);
    if (rep)
      fprintf(rep, "remat-fuse: dedup: %d kernel launches, %d distinct kernels (%d "
                   "definitions before)\n", d.launches, d.kernels_after, d.kernels_before);
  }
  remat_report_close(rep);
  free(fns);
  if (rc)
    mlirExternalPassSignalFailure(pass);
}

static int fuse_check_options(const void *opts, char *error, size_t cap) {
  const fuse_options *o = opts;
  if (o->max_ops < 0) {
    snprintf(error, cap, "max-ops must be 0 (unlimited) or positive");
    return -1;
  }
  if (strcmp(o->grouping, "index") && strcmp(o->grouping, "shape")) {
    snprintf(error, cap, "grouping must be 'index' or 'shape', not '%s'", o->grouping);
    return -1;
  }
  return 0;
}

static const char fuse_contract[] =
    "requires verified rt IR; outlines kernels (loop fusion by index, reductions as row "
    "kernels with their producers and epilogues, views as index maps, cheap producers "
    "recomputed per consumer) as func.func private @<fn>_k<N> {rt.kernel} called with "
    "func.call; folds transposes into rt.matmul; keeps host op order, tags and locations";

static MlirPass fuse_create(const void *opts) {
  return remat_pass_create(&remat_fuse_pass, "RematFuse", fuse_run, opts, sizeof(fuse_options));
}

REMAT_PASS_INFO(remat_fuse_pass, RematFuseOptions, REMAT_FUSE_OPTIONS, "remat-fuse",
                "outline fused work (elementwise, views, reductions) into rt.kernel functions",
                fuse_contract, fuse_check_options, fuse_create)
