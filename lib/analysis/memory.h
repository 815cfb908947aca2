/* memory.h: the peak-memory estimate of a split (the model is in docs/design.md,
 * "Memory estimate").
 *
 * Three schedules of the same joint function: no rematerialization (the forward saves
 * every value the backward reads), the split the min-cut chose, and "recompute all" (the
 * forward saves only the inputs the backward needs; the bound on what crosses from the
 * forward to the backward). Each is simulated step by step, the forward then the
 * backward, with liveness: live bytes per step, the peak and the op where it occurs, and
 * what the backward spends recomputing.
 *
 * Ownership: remat_memory_estimate fills a caller's struct whose arrays the caller frees
 * with remat_memory_free. */
#ifndef REMAT_MEMORY_H
#define REMAT_MEMORY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "split_view.h"

typedef enum remat_mem_case {
  REMAT_MEM_NO_REMAT,
  REMAT_MEM_SPLIT,
  REMAT_MEM_RECOMPUTE_ALL,
  REMAT_MEM_NCASES
} remat_mem_case;

/* One schedule: steps 0..nfwd-1 are the forward, nfwd..nsteps-1 the backward. */
typedef struct remat_mem_schedule {
  int nsteps, nfwd;
  int *op;                  /* [nsteps] the joint function's op run at each step */
  uint64_t *live;           /* [nsteps] bytes live while that op runs */
  uint64_t peak;            /* max of live, 0 without steps */
  int peak_step;            /* first step with live == peak; -1 without steps */
  const char *peak_where;   /* "forward", "backward", "backward, recomputed" or "moved" */
  uint64_t saved_bytes;     /* what the forward keeps for the backward (real bytes) */
  int recompute_ops;        /* forward ops the backward runs again (constants excluded) */
  uint64_t recompute_bytes; /* their operand + result bytes */
  double recompute_flops;   /* 2*B*M*N*K of the recomputed matmuls, plus extern_flops */
  double extern_flops;      /* the flops attributes of the recomputed rt.extern ops */
} remat_mem_schedule;

typedef struct remat_mem_estimate {
  remat_mem_schedule c[REMAT_MEM_NCASES];
} remat_mem_estimate;

/* The order in which a backward runs its ops (docs/design.md, "Memory estimate", Steps):
 * the ops that depend on a tangent (BW) in program order, each preceded, in program order,
 * by the forward ops it needs the backward to run (IN_B and not BW) that no earlier one
 * needed: recomputation just in time; forward ops only the gradients read come last.
 * The graph is the split view's arrays (ops in program order); SAVED per value. Writes
 * every op with IN_B into ORDER (nops entries) and returns their number. The min-cut
 * emits @f_bwd in this order and the estimate simulates it. */
int remat_bwd_order(int nops, const int *val_op, const int *opnd_start, const int *opnd,
                    const unsigned char *bw, const unsigned char *in_b, const unsigned char *saved,
                    int *order);

/* Simulates the three schedules of V. Aborts only on an internal inconsistency. */
void remat_memory_estimate(const remat_split_view *v, remat_mem_estimate *e);
void remat_memory_free(remat_mem_estimate *e);

/* The simulation of any saved set of one joint function, for the search of the split with
 * the least peak (lib/peak_search.c): the facts about V are read once. V's RV_SAVED,
 * RO_IN_*, fwd_order and bwd_order are not read. Its forward runs in
 * remat_mem_sim_fwd_order's order, as objective=peak emits it. The caller frees it with
 * remat_mem_sim_free. */
typedef struct remat_mem_sim remat_mem_sim;
remat_mem_sim *remat_mem_sim_new(const remat_split_view *v);
void remat_mem_sim_free(remat_mem_sim *m);

/* The split that saves SAVED ([nvals]; the primal arguments its backward needs are added),
 * planned as the min-cut plans it (IN_F, IN_B: [nops], what each function runs) and
 * simulated with its backward in remat_bwd_order's order. C's arrays are the caller's
 * (remat_mem_schedule_free). */
void remat_mem_sim_run(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                       unsigned char *in_b, remat_mem_schedule *c);

/* The schedule of a planned split (SAVED, IN_F, IN_B as remat_mem_sim_plan leaves them)
 * with its backward in ORDER. */
void remat_mem_sim_run_order(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                             unsigned char *in_b, const int *order, int norder,
                             remat_mem_schedule *c);

/* A list schedule of that backward: of the ops whose operands are computed, one that
 * frees more bytes than it allocates (its results less the operands it reads last;
 * parameters and gradients stay), or with TIES at least as many, if any, the one first in
 * PRIO ([nops]: each op's position in another order) among them; the ops that depend on
 * a tangent keep their program order. Writes every op with IN_B into ORDER (nops
 * entries) and returns their number, as remat_bwd_order. */
int remat_mem_sim_list_order(const remat_mem_sim *m, const unsigned char *in_b,
                             const unsigned char *saved, const int *prio, bool ties, int *order);

/* The forward's order as objective=peak emits it, for a split whose forward runs IN_F and
 * saves SAVED: the ops an output needs in program order; the others (only the saved set
 * needs them) as early as they free at least as many bytes as they allocate, together
 * with those they enable, else in program order (docs/design.md, "Splits chosen for the
 * peak"). Writes every op with IN_F into ORDER (nops entries) and returns their number. */
int remat_mem_sim_fwd_order(const remat_mem_sim *m, const unsigned char *in_f,
                            const unsigned char *saved, int *order);

/* The split of SAVED as objective=peak emits it (passes/mincut.c, order_for_peak): planned
 * as remat_mem_sim_run, its forward in remat_mem_sim_fwd_order's order, its backward in
 * the list schedule (remat_mem_sim_list_order, the just-in-time order as PRIO, the tie
 * rule that peaks lower, strict first) when that peaks lower, else just in time.
 * *LISTED: which; *JIT_PEAK (may be NULL): the just-in-time order's peak. */
void remat_mem_sim_run_emitted(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                               unsigned char *in_b, remat_mem_schedule *c, bool *listed,
                               uint64_t *jit_peak);

/* Only the plan of remat_mem_sim_run (SAVED gets the arguments, IN_F and IN_B are set). */
void remat_mem_sim_plan(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                        unsigned char *in_b);

/* What the backward spends running op I of a split again (the recompute cost's terms):
 * the op's matmul flops; *BYTES += its operand and result bytes (saturating). */
double remat_mem_sim_op_cost(const remat_mem_sim *m, int i, uint64_t *bytes);

/* The buffer bytes of each value (0 for immediates), [nvals]. */
const uint64_t *remat_mem_sim_bytes(const remat_mem_sim *m);

void remat_mem_schedule_free(remat_mem_schedule *c);

/* The report's lines for E (indented two spaces, as the min-cut report). */
void remat_memory_print(FILE *f, const remat_split_view *v, const remat_mem_estimate *e);

/* Name of a case for reports and pictures: "no remat", "this split", "recompute all". */
const char *remat_mem_case_name(remat_mem_case c);

#endif
