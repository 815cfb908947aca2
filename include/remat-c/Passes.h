/* remat-c/Passes.h: typed constructors for remat's passes.
 *
 * For each pass: an options struct (plain value, owned by the caller), a function that
 * sets it to the defaults, and a constructor. Set the defaults, change fields, build:
 *
 *   RematFuseOptions o;
 *   rematFuseOptionsInit(&o);
 *   o.max_ops = 8;
 *   MlirPass p = rematCreateFusePass(&o, err, sizeof err);
 *
 * The names in brackets are the option names of the textual syntax (remat-opt
 * --remat-fuse=max-ops=8, mlir-opt -p 'builtin.module(remat-fuse{max-ops=8})',
 * rematCreatePass); both ways build the same pass.
 *
 * Conventions (as in remat-c/Remat.h): a constructor copies the options; it checks them
 * and returns a null MlirPass (pass.ptr == NULL) with a NUL-terminated message in
 * error[error_cap] when they are invalid; the returned pass is the caller's until added to
 * a pass manager (mlirPassManagerAddOwnedPass). Errors in the IR a pass runs on are MLIR
 * diagnostics at the op's location, and the pass manager's run fails. Each pass runs on a
 * builtin.module. String options are NUL-terminated char arrays of
 * REMAT_OPTION_STRING_MAX bytes. */
#ifndef REMAT_C_PASSES_H
#define REMAT_C_PASSES_H

#include "remat-c/Remat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- --remat-autodiff: forward functions (rt.autodiff) become joint functions ------ */

typedef struct RematAutodiffOptions {
  /* [report] the report's destination: "" none, "-" stderr, else a file appended to
   * (default "") */
  char report[REMAT_OPTION_STRING_MAX];
} RematAutodiffOptions;

void rematAutodiffOptionsInit(RematAutodiffOptions *options);
MlirPass rematCreateAutodiffPass(const RematAutodiffOptions *options, char *error,
                                 size_t error_cap);

/* ---- --remat-checkpoint: tag activation-checkpoint policies (rt.policy) ------------ */

typedef struct RematCheckpointOptions {
  /* [ac] "none" | "auto" | "<GiB>": stage heuristic; auto = sqrt(recomputable forward
   * GiB) (default "none") */
  char ac[REMAT_OPTION_STRING_MAX];
  /* [fsdp] "recompute" | "save" | "off": all-gathers of rt.param arguments
   * (default "recompute") */
  char fsdp[REMAT_OPTION_STRING_MAX];
  /* [save-ops] comma list of forward ops saved every save_every-th time, the others
   * recomputed: rt op names and the kinds mm (rank-2 rt.matmul) and bmm (batched);
   * "none": off (default "mm") */
  char save_ops[REMAT_OPTION_STRING_MAX];
  /* [always-save] comma list (as save_ops) of forward ops always saved, not counted by
   * save_ops; "none": off (default "none") */
  char always_save[REMAT_OPTION_STRING_MAX];
  /* [save-every] N >= 1: save the 1st, (N+1)th, ... op of save_ops (default 2) */
  int64_t save_every;
  /* [memory-budget] bytes of forward results saved for the backward, chosen at least
   * recompute cost; replaces save_ops; -1: off (default -1) */
  int64_t memory_budget;
  /* [budget-greedy] the greedy budget choice even where the exact one fits (false) */
  bool budget_greedy;
  /* [report] the report's destination: "" none, "-" stderr, else a file appended to
   * (default "") */
  char report[REMAT_OPTION_STRING_MAX];
} RematCheckpointOptions;

void rematCheckpointOptionsInit(RematCheckpointOptions *options);
MlirPass rematCreateCheckpointPass(const RematCheckpointOptions *options, char *error,
                                   size_t error_cap);

/* ---- --remat-fuse: outline fusible groups into rt.kernel functions ----------------- */

typedef struct RematFuseOptions {
  /* [max-ops] most ops in one kernel, views and constants not counted; no producer is
   * inlined then; 0: unlimited (default 0) */
  int64_t max_ops;
  /* [grouping] "index": loop fusion by index, reduction kernels, free views (default);
   * "shape": the previous grouping (one kernel per result shape, views as copies,
   * reductions in the host), kept to measure before and after */
  char grouping[REMAT_OPTION_STRING_MAX];
  /* [duplicate] recompute cheap producers in each consumer kernel when that moves fewer
   * bytes (default true) */
  bool duplicate;
  /* [report] the report's destination: "" none, "-" stderr, else a file appended to
   * (default "") */
  char report[REMAT_OPTION_STRING_MAX];
} RematFuseOptions;

void rematFuseOptionsInit(RematFuseOptions *options);
MlirPass rematCreateFusePass(const RematFuseOptions *options, char *error, size_t error_cap);

/* ---- --remat-mincut: min-cut split of joint functions into @f_fwd and @f_bwd ------- */

typedef struct RematMincutOptions {
  /* [scalar-factor] weight per byte of scalars and 0-d values, >= 0 (default 0.1) */
  double scalar_factor;
  /* [params-free] rt.param arguments weigh 0 (default true) */
  bool params_free;
  /* [ban] ops never recomputed: comma list of op names ("rt.matmul" or "matmul") and kind
   * names (matmul, reduction, collective, random, elementwise, compare, structural);
   * "none" bans nothing (default "matmul,reduction,collective") */
  char ban[REMAT_OPTION_STRING_MAX];
  /* [ban-random] also ban rt.uniform_philox, so masks are saved (default false) */
  bool ban_random;
  /* [report] the report's destination: "" none, "-" stderr, else a file appended to
   * (default "") */
  char report[REMAT_OPTION_STRING_MAX];
  /* [dot] a Graphviz picture of each split, written to this file ("" none; default "") */
  char dot[REMAT_OPTION_STRING_MAX];
  /* [timeline] an SVG chart of live bytes per step, no remat against the split, written
   * to this file ("" none; default "") */
  char timeline[REMAT_OPTION_STRING_MAX];
  /* [dump-network] write each joint function's flow network to this file in the DIMACS
   * max-flow format, for other solvers (default "": none) */
  char dump_network[REMAT_OPTION_STRING_MAX];
} RematMincutOptions;

void rematMincutOptionsInit(RematMincutOptions *options);
MlirPass rematCreateMincutPass(const RematMincutOptions *options, char *error,
                               size_t error_cap);

#ifdef __cplusplus
}
#endif

#endif
