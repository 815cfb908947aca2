/* peak_bound.h: lower bounds on the peak of the splits lib/analysis/peak_search.c chooses
 * among (docs/design.md, "Splits chosen for the peak", "The lower bound").
 *
 * A bound holds for every split that keeps the search's rules (peak_search.h) and for
 * any order of its backward that runs each op after its operands: the just-in-time order
 * and the list schedule both do, so it bounds the peak of the best split as emitted.
 * Each bound is the bytes that every such split holds at one step:
 *   the forward's last step: the parameters, the forward's outputs and the saved set,
 *       which must let the backward compute what it reads (a minimum cut);
 *   the backward's last step: the parameters and every gradient;
 *   the step of a backward op B (one that depends on a tangent: every split runs it):
 *       the parameters; B's operands and results; the tangents and backward values
 *       that ops before B (its ancestors) made and ops after it (its descendants) read,
 *       and the gradients the ancestors made; the forward values that B or an ancestor
 *       and a descendant both read (each is computed at most once in the backward, or
 *       saved) or that cannot be recomputed; and a minimum cut: the forward values live
 *       at B must let the backward compute what the descendants read.
 * Buffers are counted once (x and reshape(x) share one).
 *
 * Partial splits: the exact search's state, the ops after ABOVE decided (the saved bits
 * of their results, what the backward and the forward need), gives bounds on every
 * completion of it (peak_search.c's branch and bound).
 *
 * Ownership: remat_peak_bound_new copies nothing: V and the arrays must outlive the
 * bound, freed with remat_peak_bound_free. Errors: none (an internal inconsistency
 * aborts). */
#ifndef REMAT_PEAK_BOUND_H
#define REMAT_PEAK_BOUND_H

#include <stdint.h>

#include "memory.h"
#include "split_view.h"

typedef struct remat_peak_bound remat_peak_bound;

/* The exact search's state: the ops after ABOVE are decided; SV, NB, NF ([nvals]): saved,
 * needed by the backward, needed by the forward (final for the results of decided ops,
 * a subset of the final ones for the others). */
typedef struct remat_peak_partial {
  int above;
  const unsigned char *sv, *nb, *nf;
} remat_peak_partial;

/* BYTES: each value's buffer bytes (remat_mem_sim_bytes); ROOT: the value whose buffer a
 * reshape chain aliases; CAND: the values the search may save. */
remat_peak_bound *remat_peak_bound_new(const remat_split_view *v, const uint64_t *bytes,
                                       const int *root, const unsigned char *cand);
void remat_peak_bound_free(remat_peak_bound *b);

/* The step of a bound: the forward's last, or an op every split runs as a step in the
 * forward (an output needs it) or in the backward (remat_peak_bound_ops). */
#define REMAT_PEAK_FWD_END (-1)

/* The bound at STEP of every split (P NULL) or of every completion of P; 0 where STEP is
 * not a step of every split. */
uint64_t remat_peak_bound_at(remat_peak_bound *b, int step, const remat_peak_partial *p);

/* A lower bound L on remat_peak_bound_at(B, STEP, P) on the same side of NEED as that
 * bound (below, equal, above), and the bound itself unless the buffers every completion
 * holds at STEP exceed NEED or no cut could bring them to it: cheaper where the network
 * need not be solved. */
uint64_t remat_peak_bound_near(remat_peak_bound *b, int step, const remat_peak_partial *p,
                               uint64_t need);

/* The bound at the backward's last step (the same for every split). */
uint64_t remat_peak_bound_bwd_end(remat_peak_bound *b);

/* A lower bound on the recompute cost that a completion of P peaking at most LIMIT bytes
 * adds to that of P's decided ops (OP_COST[i]: the cost of running op i in both
 * functions), from STEP: the minimum cut of remat_peak_bound_at where a value live at
 * STEP costs LAMBDA x its bytes and one the backward computes from them the cost of its
 * op, less LAMBDA x what LIMIT leaves for them (Lagrangian relaxation: any LAMBDA >= 0
 * gives a bound). A caller that uses only a bound of at least NEED gets 0 (a lower bound
 * too) without the network solved when an upper bound on the bound is below NEED. */
double remat_peak_bound_cost(remat_peak_bound *b, int step, const remat_peak_partial *p,
                             uint64_t limit, const double *op_cost, double lambda, double need);

/* A saved set chosen by a minimum cut, for the search's seeds: the cut of the forward's
 * end where saving value x costs SAVE[x] and the backward computing it RECOMPUTE[x]
 * ([nvals] each); SAVED ([nvals]) gets it. It may break a rule the cut does not see (a
 * banned op run twice, two saved aliases): the search repairs it. */
void remat_peak_bound_cut_saved(remat_peak_bound *b, const double *save, const double *recompute,
                                unsigned char *saved);

/* The ops every split runs as a step, in the forward or in the backward, in op order, in
 * OPS ([nops]); their number. */
int remat_peak_bound_ops(const remat_peak_bound *b, int *ops);

/* The largest bound of every split, with C (a split's schedule: its live bytes at each
 * backward op's step bound that op's bound) choosing the steps: in the order of C's live
 * bytes, while those exceed the bound so far and the cuts have examined fewer than
 * WORK_LIMIT network edges (0: no limit). *FLOWS (may be NULL): the cuts computed. */
uint64_t remat_peak_bound_split(remat_peak_bound *b, const remat_mem_schedule *c, long work_limit,
                                int *flows);

#endif
