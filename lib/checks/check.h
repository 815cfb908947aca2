/* check.h: the checks remat-run makes: a split against its joint function, gradients
 * against finite differences, compiled code against the reference interpreter.
 *
 * Each check prints a report on REPORT, one line per compared value, and returns 0 when
 * everything agrees, 1 on a mismatch and 2 when the check could not run (a missing
 * function, a malformed split); rtr_check_split returns 3 when the joint function itself
 * fails on the inputs (nothing to compare the split with). The reasons are added to *err
 * (remat_error_add: one line each, for the tool to print), or are located diagnostics for
 * errors in the IR. */
#ifndef REMAT_RUNTIME_CHECK_H
#define REMAT_RUNTIME_CHECK_H

#include <stdio.h>

#include "mlir-c/IR.h"
#include "interp.h"
#include "io.h"

typedef struct rtr_check_options {
  uint64_t seed;           /* inputs: rtr_inputs_random(func, seed) ... */
  const char *inputs;      /* ... or, when set, read from this file (runtime/io.h) */
  int64_t max_ulp;         /* allowed distance in units in the last place; 0: bit-exact */
  rtr_interp_options run;  /* how the checked functions run (the split's, the joint
                          * function's gradients): reference or compiled; the joint
                          * function of a split check and the f64 forward always run
                          * on the reference interpreter */
  double fd_atol, fd_rtol; /* finite differences: |g - fd| <= atol + rtol |fd| */
  FILE *report;
  bool quiet;        /* no per-value lines on success */
  bool peak;         /* --check-split: also measure the peak live bytes (interp.h, rtr_peak) */
  rtr_values values; /* the distribution of the seed's inputs (runtime/io.h) */
  int64_t fd_sample; /* finite differences: at most this many elements per argument; 0: all */
  FILE *progress;    /* finite differences: progress lines (NULL: none) ... */
  bool progress_tty; /* ... one line rewritten in place (a terminal) */
} rtr_check_options;

/* Distance between two values of one type: the largest ulp distance (floats; integers:
 * the absolute difference) and relative error over all elements. NaN equals NaN. Returns
 * true when bit-identical. */
bool rtr_compare_buffers(const rtr_buffer *a, const rtr_buffer *b, uint64_t *max_ulp,
                         double *max_rel);

/* What a check-split run covered (added to by each call). */
typedef struct rtr_split_stats {
  long values; /* outputs and gradients compared */
  long ops;    /* ops executed by the joint, forward and backward runs */
  long random; /* random tensors the backward recomputed (each checked) */
} rtr_split_stats;

/* Runs NAME of JOINT and NAME_fwd / NAME_bwd of SPLIT on the same inputs and compares
 * every forward output and gradient; checks that every random tensor the backward
 * recomputes equals, bit for bit, one the joint function drew. Adds to *stats (may be
 * NULL). With o->peak, prints the measured peak of the split (docs/design.md, "The
 * measured peak"): the larger of the forward's and the backward's, where the backward
 * also counts the joint function's rt.param arguments it does not take. */
int rtr_check_split(MlirOperation joint, MlirOperation split, const char *name,
                    const rtr_check_options *o, rtr_split_stats *stats, char **err);

/* Gradients of the joint function NAME against central finite differences of its
 * forward computed in f64: L(x) = sum_j <output_j, tangent_j>, dL/dx per element of each
 * argument in WRT, a comma list of argument numbers or names (name locations); NULL:
 * every floating-point tensor argument that is not a tangent, less the rt.buffer ones
 * when that matches the number of gradients. With o->fd_sample, a deterministic sample
 * of each argument's elements, listed in the report. */
int rtr_check_fd(MlirOperation module, const char *name, const char *wrt,
                 const rtr_check_options *o, char **err);

/* Runs NAME with the reference interpreter and with COMPILED, on the same inputs, and
 * compares every result. */
int rtr_check_same(MlirOperation module, const char *name, const rtr_interp_options *compiled,
                   const rtr_check_options *o, int *values, char **err);

/* --check-sharded (runtime/check_sharded.c): the joint function NAME of SHARDED runs on
 * every rank of COLL (and, when SPLIT is not null, NAME_fwd/NAME_bwd of SPLIT), each rank
 * on its inputs (o->inputs with %r for the rank, or o->seed through
 * rtr_inputs_random_rank); NAME of UNSHARDED runs on rank 0 on the concatenated shards
 * with the single-process simulation. Outputs must be equal on every rank, and each
 * result that is a shard (its unsharded type is N times larger along one dimension) must
 * equal that slice of the unsharded result, within o->max_ulp. Rank 0 writes the report
 * (layouts, comparisons, collectives per run, bytes and time per rank) on o->report. Every
 * rank returns rank 0's verdict: 0, 1 (a mismatch) or 2 (could not run; every rank says
 * why or which rank failed, in *err). A run that fails once the ranks communicate returns
 * 3: the caller reports *err and ends the job (coll->abort), since other ranks may be
 * waiting in a collective. */
struct rtr_coll;
typedef struct rtr_sharded_check {
  MlirOperation sharded, unsharded, split; /* split: a null operation for none */
  const char *name;
  rtr_interp_options joint_run, split_run; /* the executors (their coll is set here) */
  struct rtr_coll *coll;
  int repeat; /* run each sharded function this many times; the time is the fastest */
} rtr_sharded_check;
int rtr_check_sharded(const rtr_sharded_check *s, const rtr_check_options *o, char **err);

#endif
