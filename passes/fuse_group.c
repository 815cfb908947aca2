/* fuse_group.c: --remat-fuse's grouping (fuse.c has the model): the classes of ops, the
 * block's arrays, which values are inlined and which materialized, and the greedy
 * grouping in program order (group_block); group_block_shape is the previous grouping
 * (grouping=shape), which the report still measures against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Most ops (not counting views and constants) a producer's recompute may take when it is
 * duplicated into several kernels: bounds the growth of any kernel's work. */
#define DUP_MAX_OPS 8

/* ---- shapes and classes ---- */

uint64_t fuse_value_bytes(MlirValue v) {
  uint64_t b = 0;
  if (!mlirTypeIsATensor(mlirValueGetType(v)) || rt_value_bytes(v, &b))
    return 0; /* scalars are free in the traffic model */
  return b;
}

/* shape_mode: the previous grouping's classes (views are ordinary fused ops, reductions
 * stay in the host). */
op_class fuse_classify(MlirOperation op, bool shape_mode) {
  if (rt_op_named(op, "arith.constant") && mlirOperationGetNumResults(op) == 1 &&
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
  case RT_KIND_RANDOM: return C_EW;
  case RT_KIND_STRUCTURAL: return rt_op_is_view(id) && !shape_mode ? C_VIEW : C_EW;
  case RT_KIND_REDUCTION: return shape_mode ? C_HOST : C_RED;
  case RT_KIND_NONE:
  case RT_KIND_MATMUL:
  case RT_KIND_CONV:      /* a kernel boundary, like a matmul (its own function in codegen) */
  case RT_KIND_ATTENTION: /* a kernel boundary, like a matmul */
  case RT_KIND_COLLECTIVE:
  case RT_KIND_INDEXING: /* gather, scatter_add, argmax: functions of their own (codegen) */
  case RT_KIND_EXTERN: /* not modelled: a kernel boundary, never fused */ return C_HOST;
  }
  return C_HOST;
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

int fuse_find(blk *b, int g) {
  while (b->groups[g].parent != g) {
    b->groups[g].parent = b->groups[b->groups[g].parent].parent;
    g = b->groups[g].parent;
  }
  return g;
}

/* Position of the op defining v in this block, -1 for arguments and other blocks. */
int fuse_def_pos(const blk *b, MlirValue v) {
  return mlirValueIsAOpResult(v) ? rt_graph_op_index(&b->view, mlirOpResultGetOwner(v)) : -1;
}

void fuse_blk_init(blk *b, MlirBlock block, bool shape_mode) {
  memset(b, 0, sizeof *b);
  b->block = block;
  b->shape_mode = shape_mode;
  rt_graph_load_block(&b->view, block, RT_GRAPH_USES);
  int n = b->n = b->view.nops + !mlirOperationIsNull(b->view.ret);
  b->ops = b->view.ops;
  b->cls = xcalloc((size_t)n, sizeof *b->cls);
  b->shp = xcalloc((size_t)n, sizeof *b->shp);
  b->hview = xcalloc((size_t)n, sizeof(bool));
  b->mview = xcalloc((size_t)n, sizeof(bool));
  b->hostuse = xcalloc((size_t)n, sizeof(bool));
  b->expuse = xcalloc((size_t)n, sizeof(bool));
  b->dup = xcalloc((size_t)n, sizeof(bool));
  b->rdep = xcalloc((size_t)n, sizeof(bool));
  b->grp = xcalloc((size_t)n, sizeof *b->grp);
  b->stamp = xcalloc((size_t)n + 1, sizeof *b->stamp);
  b->astamp = xcalloc((size_t)n * 3 + 1, sizeof *b->astamp);
  for (int i = 0; i < n; i++) {
    MlirOperation op = b->ops[i];
    b->cls[i] = fuse_classify(op, shape_mode);
    b->grp[i] = -1;
    if (b->cls[i] != C_HOST && b->cls[i] != C_CONST)
      b->shp[i] = rt_shape_of(mlirValueGetType(mlirOperationGetResult(op, 0)));
  }
}

void fuse_blk_free(blk *b) {
  rt_graph_free(&b->view);
  free(b->cls);
  free(b->shp);
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
}

/* ---- which values are materialized, which inlined ---- */

/* Views a host op reads stay in the host (hview), except transposes, broadcasts and
 * slices that a host op other than rt.matmul needs dense (mview: a kernel member). A
 * value a host op or a host view reads is materialized (hostuse). Reverse order: every
 * user is classified before its producers. */
void fuse_mark_host_uses(blk *b) {
  for (int i = b->n - 1; i >= 0; i--) {
    if (b->cls[i] == C_HOST || b->cls[i] == C_CONST)
      continue;
    bool need_dense = false;
    for (int u = fuse_use_begin(b, i); u < fuse_use_end(b, i); u++) {
      int j = b->view.use[u];
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
  for (int u = fuse_use_begin(b, i); u < fuse_use_end(b, i); u++) {
    int j = b->view.use[u];
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
  bool expensive;  /* holds an op of the table's exp column (rt_op_expensive) */
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
  /* an op whose recompute is worth more than a load: not duplicated through a broadcast
   * that reuses its elements */
  c->expensive |= rt_op_expensive(rt_op_lookup(op));
  if (c->ops > DUP_MAX_OPS) {
    c->overflow = true;
    return;
  }
  for (intptr_t a = 0; a < no; a++) {
    MlirValue v = mlirOperationGetOperand(op, a);
    int j = fuse_def_pos(b, v);
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
    c->leaves += fuse_value_bytes(v);
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
void fuse_mark_inlined(blk *b, const fuse_options *o) {
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
    uint64_t bytes = fuse_value_bytes(mlirOperationGetResult(b->ops[i], 0));
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
  int j = fuse_def_pos(b, v);
  if (j < 0 || b->stamp[j] == stamp)
    return;
  b->stamp[j] = stamp;
  if (b->dup[j]) {
    reads_add_op(b, b->ops[j], stamp, r);
    return;
  }
  XGROW(r->pos, r->n, r->cap, 16);
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
  return g->row && remat_shape_eq(&g->s, s) && !memcmp(g->red, red, sizeof(bool) * (size_t)s->rank);
}

enum { AT_S, AT_ROW, AT_OTHER };

/* True if evaluating value v at position `at` (the current element of the row, the
 * current row, or any other index) reads the values of row group g that depend on its
 * reductions only within the current row: a reduction's result exists there only. */
static bool aligned_read(blk *b, int g, MlirValue v, int at) {
  int j = fuse_def_pos(b, v);
  if (j < 0 || !mlirTypeIsATensor(mlirValueGetType(v)))
    return true;
  if (!b->dup[j] || b->cls[j] == C_HOST)
    return !(b->grp[j] >= 0 && fuse_find(b, b->grp[j]) == g && b->rdep[j]) || at != AT_OTHER;
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
    if (id == RT_OP_BROADCAST && at == AT_S && rt_broadcast_row_aligned(op, &gr->s, gr->red))
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
  XGROW(b->groups, b->ngroups, b->capgroups, 16);
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
void fuse_group_block(blk *b, const fuse_options *o) {
  reads r = {NULL, 0, 0};
  int *cand = NULL, ncand, *open = xcalloc((size_t)b->n + 1, sizeof *open), nopen = 0;
  cand = xcalloc((size_t)b->n + 1, sizeof *cand);
  for (int i = 0; i < b->n; i++) {
    bool member = b->cls[i] == C_RED || b->cls[i] == C_EW ? !b->dup[i]
                  : b->cls[i] == C_VIEW                   ? b->mview[i]
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
      int g = fuse_find(b, b->grp[j]);
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
          int g = fuse_find(b, open[h]);
          if (!b->groups[g].sealed && row_key_eq(&b->groups[g], &s, red) && row_compatible(b, g, i))
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
          int g = fuse_find(b, open[h]);
          if (!b->groups[g].sealed && !b->groups[g].row &&
              remat_shape_eq(&b->groups[g].s, &b->shp[i]))
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
        b->rdep[i] = b->grp[j] >= 0 && fuse_find(b, b->grp[j]) == target && b->rdep[j];
      }
      if (o->max_ops > 0 && gr->size >= o->max_ops)
        gr->sealed = true;
    }
    /* Seal what i reads outside its own group. */
    for (int c = 0; c < ncand; c++) {
      int g = fuse_find(b, cand[c]);
      if (g != target)
        b->groups[g].sealed = true;
    }
    /* The open groups, each once, representatives only. */
    int kept = 0;
    for (int h = 0; h < nopen; h++) {
      int g = fuse_find(b, open[h]);
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
      b->grp[i] = fuse_find(b, b->grp[i]);
  free(cand);
  free(open);
  free(r.pos);
}

/* The previous grouping (grouping=shape): an op of shape S joins the open group of S or
 * opens one; a group is sealed when any op outside it uses one of its values or when it
 * holds max-ops ops. Views are ordinary members (copies), reductions stay in the host. The
 * proof of group_block applies with no inlined ops and no merging. */
void fuse_group_block_shape(blk *b, const fuse_options *o) {
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
