/* split_view.h: a read-only view of one joint function and of the split --remat-mincut
 * chose for it, for the code that explains the split: the peak-memory estimate
 * (memory.c), the Graphviz picture (dot.c) and the memory timeline (timeline.c), driven
 * by show.c.
 *
 * The pass fills it from its own arrays after planning the split and before erasing the
 * joint function, so the MLIR handles in it are valid while the view is used. Nothing
 * here owns anything: the arrays belong to the pass.
 *
 * Values are numbered as the pass numbers them: the arguments 0..nargs-1, then the op
 * results in op order. Ops are the joint function's ops in block order, without its
 * func.return. */
#ifndef REMAT_SPLIT_VIEW_H
#define REMAT_SPLIT_VIEW_H

#include <stdint.h>

#include "mlir-c/IR.h"

enum { /* value flags (vflags) */
       RV_TANGENT = 1 << 0,
       RV_PARAM = 1 << 1,
       RV_BW = 1 << 2,      /* depends on a tangent */
       RV_CONST = 1 << 3,   /* result of a constant op (no operands): cloned where used */
       RV_BW_READ = 1 << 4, /* a forward value a live backward op reads or a gradient returns */
       RV_SAVED = 1 << 5,   /* the split's forward returns it for the backward */
};

enum {                            /* op flags (oflags) */
       RO_BW = 1 << 0,            /* depends on a tangent */
       RO_CONST = 1 << 1,         /* a constant op (see RV_CONST) */
       RO_BANNED = 1 << 2,        /* never recomputed (the ban list, not lifted by a tag) */
       RO_IN_FWD = 1 << 3,        /* the split's forward runs it */
       RO_IN_BWD = 1 << 4,        /* the split's backward runs it */
       RO_SAVE_TAG = 1 << 5,      /* rt.policy must_save / prefer_save, or an rt.extern
                                     with recompute = "forward": never in the backward */
       RO_RECOMPUTE_TAG = 1 << 6, /* rt.policy must_recompute / prefer_recompute */
};

typedef struct remat_split_view {
  MlirOperation func;                     /* the joint function */
  const char *name, *fwd_name, *bwd_name; /* "f", "f_fwd", "f_bwd" */
  int nargs, nops, nvals, nret, num_outputs;
  const MlirOperation *ops;     /* [nops] */
  const MlirValue *vals;        /* [nvals] */
  const int *val_op;            /* [nvals] defining op, -1 for an argument */
  const int *op_res;            /* [nops+1] first result of each op */
  const int *opnd_start, *opnd; /* operands of op i: opnd[opnd_start[i]..[i+1]) */
  const int *ret_val;           /* [nret] returned values: outputs, then gradients */
  const unsigned *vflags;       /* [nvals] RV_* */
  const unsigned *oflags;       /* [nops] RO_* */
  const int *bwd_order;         /* [nbwd] the ops of @f_bwd in its emitted order */
  int nbwd;
  const int *fwd_order; /* [nfwd] the ops of @f_fwd in its emitted order; NULL: program order */
  int nfwd;
} remat_split_view;

#endif
