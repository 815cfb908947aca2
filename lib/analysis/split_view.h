/* split_view.h: a read-only view of one joint function and of the split --remat-mincut
 * chose for it, for the code that explains the split: the peak-memory estimate
 * (memory.c), the Graphviz picture (dot.c) and the memory timeline (timeline.c), driven
 * by show.c, and the search for the least peak (peak_search.c).
 *
 * The function is the pass's rt_graph (rt_graph.h), and the flags are the pass's own:
 * the view is the min-cut's state, read through these names, with nothing translated.
 * The pass fills it after planning the split and before erasing the joint function, so
 * the MLIR handles in it are valid while the view is used. Nothing here owns anything:
 * the graph's arrays and the flags belong to the pass (the graph is a shallow copy of its
 * rt_graph, never freed through the view). */
#ifndef REMAT_SPLIT_VIEW_H
#define REMAT_SPLIT_VIEW_H

#include <stdint.h>

#include "mlir-c/IR.h"
#include "rt_graph.h"

/* The flags of a value (vflags) and of an op (oflags): the one vocabulary of the min-cut
 * (passes/mincut.c sets them) and of what reads its split. The code of lib/ reads those
 * marked "read"; the others are the pass's working state. */
enum {
  RV_TANGENT = 1 << 0,  /* read: an rt.tangent argument */
  RV_BW = 1 << 1,       /* read: depends on a tangent */
  RV_CONST = 1 << 2,    /* read: result of a constant op (no operands): cloned where used */
  RV_PARAM = 1 << 3,    /* read: rt.param or rt.buffer argument */
  RV_OUT_NEED = 1 << 4, /* the forward outputs need it */
  RV_BW_READ = 1 << 5,  /* read: a forward value a live backward op reads or a gradient
                           returns */
  RV_REACH = 1 << 6,    /* candidate from which the backward is reachable: in the network */
  RV_SAVED = 1 << 7,    /* read: the split's forward returns it for the backward */
  RV_BNEED = 1 << 8,    /* the backward function needs it */
  RV_FNEED = 1 << 9,    /* the forward function needs it */
};

enum {
  RO_BW = 1 << 0,            /* read: depends on a tangent */
  RO_CONST = 1 << 1,         /* read: a constant op (see RV_CONST) */
  RO_BANNED = 1 << 2,        /* read: never recomputed (the ban list, not lifted by a tag) */
  RO_SAVE_TAG = 1 << 3,      /* read: rt.policy must_save / prefer_save */
  RO_RECOMPUTE_TAG = 1 << 4, /* read: rt.policy must_recompute / prefer_recompute */
  RO_IN_BWD = 1 << 5,        /* read: the split's backward runs it */
  RO_RECOMPUTE = 1 << 6,     /* a forward op cloned into the backward */
  RO_IN_FWD = 1 << 7,        /* read: the split's forward runs it */
  RO_SINK_SIDE = 1 << 8,     /* a result's in-node is on the sink side of the cut */
  RO_CONST_OP = 1 << 9,      /* rt.full, rt.iota, arith.constant without operands (load) */
  RO_FORWARD = 1 << 10,      /* read: an rt.extern with recompute = "forward" that the
                                forward runs: like RO_SAVE_TAG, never in the backward */
};

typedef struct remat_split_view {
  /* the joint function: func, nargs, nops, nvals, nret, ops, vals, val_op, op_res,
   * opnd_start, opnd, ret_val (returned values: outputs, then gradients), ... */
  RT_GRAPH_MEMBERS(g);
  const char *name, *fwd_name, *bwd_name; /* "f", "f_fwd", "f_bwd" */
  int num_outputs;
  const unsigned *vflags; /* [nvals] RV_* */
  const unsigned *oflags; /* [nops] RO_* */
  const int *bwd_order;   /* [nbwd] the ops of @f_bwd in its emitted order */
  int nbwd;
  const int *fwd_order; /* [nfwd] the ops of @f_fwd in its emitted order; NULL: program order */
  int nfwd;
} remat_split_view;

#endif
