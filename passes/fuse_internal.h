/* fuse_internal.h: what the files of --remat-fuse share (fuse.c: the pass and its model;
 * fuse_group.c: classes, the block and the grouping; fuse_fold.c: views and transposes
 * folded before grouping; fuse_outline.c: kernels and outlining; fuse_stats.c: the
 * report's numbers). Private to passes/fuse*.c. */
#ifndef REMAT_FUSE_INTERNAL_H
#define REMAT_FUSE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mlir-c/IR.h"
#include "remat-c/Passes.h"
#include "rt.h"
#include "rt_graph.h"
#include "support.h"

typedef RematFuseOptions fuse_options;

/* ---- shapes and classes (fuse_group.c) ---- */

typedef enum op_class {
  C_HOST,  /* stays in the host: matmul, collectives, calls, arith, return, ... */
  C_VIEW,  /* reshape, transpose, broadcast, slice */
  C_EW,    /* computed per element: elementwise, compare, select, convert, full, iota,
            * concat, uniform_philox */
  C_RED,   /* rt.sum, rt.amax */
  C_CONST, /* a scalar arith.constant: cloned into each kernel that uses it */
} op_class;

/* Bytes a tensor value moves (0 for scalars: free in the traffic model). */
uint64_t fuse_value_bytes(MlirValue v);
op_class fuse_classify(MlirOperation op, bool shape_mode);

/* ---- the block being fused (fuse_group.c) ---- */

typedef struct group {
  int parent;    /* union-find: merged groups point to the survivor */
  bool row;      /* holds reductions: S, red, k describe its rows */
  bool sealed;   /* takes no more members */
  remat_shape s; /* loop groups: the iteration space; row groups: the reductions' input */
  bool red[RT_MAX_RANK];
  remat_shape k; /* row groups: the kept shape */
  int size, first, last;
} group;

typedef struct blk {
  MlirBlock block;
  rt_graph view;      /* the block, any ops (rt_graph_load_block), with its use lists */
  int n;              /* ops of the block, its terminator last */
  MlirOperation *ops; /* view.ops: [n] */
  op_class *cls;
  remat_shape *shp; /* result shape of fused ops */
  bool *hview;      /* a view that stays in the host (its host users read it) */
  bool *mview;      /* a view a host op needs dense: a member of a kernel */
  bool *hostuse;    /* a host op, a host view or code outside the block reads the value */
  bool *expuse;     /* some fused consumer reads it through an expanding broadcast */
  bool *dup;        /* inlined: cloned into each kernel that reads it */
  bool *rdep;       /* member that depends on a reduction of its own group */
  int *grp;         /* group of a member (use find), -1 */
  group *groups;
  int ngroups, capgroups;
  int *stamp; /* DFS marks */
  int stampv;
  int *astamp; /* aligned_read's marks, per op and position */
  int astampv;
  bool shape_mode;
} blk;

void fuse_blk_init(blk *b, MlirBlock block, bool shape_mode);
void fuse_blk_free(blk *b);
/* The group G has been merged into (union-find). */
int fuse_find(blk *b, int g);
/* Position in the block of the op defining V, -1 for a value defined elsewhere. */
int fuse_def_pos(const blk *b, MlirValue v);
/* Users of op I's results: b->view.use[fuse_use_begin(b, i) .. fuse_use_end(b, i)), each
 * the position of the op of the block that holds the user, -1 outside the block (a
 * function's values are numbered op by op, so op I's users are one run of use). */
static inline int fuse_use_begin(const blk *b, int i) {
  return b->view.use_start[b->view.op_res[i]];
}
static inline int fuse_use_end(const blk *b, int i) {
  return b->view.use_start[b->view.op_res[i < b->view.nops ? i + 1 : i]];
}
static inline int new_stamp(blk *b) { return ++b->stampv; }
void fuse_mark_host_uses(blk *b);
void fuse_mark_inlined(blk *b, const fuse_options *o);
void fuse_group_block(blk *b, const fuse_options *o);
void fuse_group_block_shape(blk *b, const fuse_options *o);

/* ---- views and transposes (fuse_fold.c) ---- */

void fuse_simplify_views(MlirBlock block);

/* ---- kernels (fuse_outline.c) ---- */

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

int fuse_collect_kernels(blk *b, kernel **out);
void fuse_kernels_free(kernel *ks, int nk);
int fuse_outline(blk *b, kernel *ks, int nk, MlirSymbolTable symbols, MlirOperation fn,
                 MlirOperation *after, int *counter);

/* ---- the report's numbers (fuse_stats.c) ---- */

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

void fuse_unfused_stats(MlirBlock block, stats *s);
void fuse_host_stats(blk *b, stats *s);
void fuse_kernel_stats(blk *b, kernel *ks, int nk, stats *s);
void fuse_stats_merge(stats *into, const stats *s);
void fuse_stats_print_block(FILE *f, const char *title, const stats *base, const stats *prev,
                            const stats *now);
void fuse_stats_free(stats *s);

#endif
