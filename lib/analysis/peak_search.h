/* peak_search.h: the split with the least peak (--remat-mincut=objective=peak; the
 * objective, the search and its limits are in docs/design.md, "Splits chosen for the
 * peak").
 *
 * A split is its saved set: the min-cut's plan walks give what each function runs,
 * remat_bwd_order or the list schedule (whichever peaks lower) the backward's order, and
 * lib/analysis/memory.c simulates it, so the peak the search minimises is the peak of
 * the IR the min-cut then emits. Every answer comes with a lower bound on the least
 * peak (lib/analysis/peak_bound.h), the least itself when an exact search found it. The
 * key is (peak,
 * recompute cost); with a budget, (fits, cost, peak) for splits that fit before (peak,
 * cost) for those that do not. Recompute cost = bytes moved by the recomputed ops +
 * their matmul FLOPs / REMAT_PEAK_FLOPS_PER_BYTE.
 *
 * Rules every split the search returns keeps (its seeds included): an op with a save
 * tag (RO_SAVE_TAG, or RO_FORWARD) never runs in the backward (what the backward needs of
 * it is saved);
 * a banned op (RO_BANNED) never runs in both functions; a value with a recompute tag is
 * never saved; nor is a random value (an rt.uniform_philox result, and what elementwise
 * ops compute from random values and scalars alone: dropout masks) whose op is neither
 * banned nor save-tagged: the backward recomputes it from the seed.
 *
 * Ownership: the problem's arrays are the caller's; remat_peak_search allocates
 * res->saved, which the caller frees (free). Errors: none are diagnosed here; an exact
 * search or enumeration asked for above its size limit returns -1 with a message in
 * ERR, a budget no split meets returns 1 (res->chosen: the least peak found). */
#ifndef REMAT_PEAK_SEARCH_H
#define REMAT_PEAK_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "split_view.h"

/* Flops that take as long as moving one byte (the checkpoint pass's machine balance). */
#define REMAT_PEAK_FLOPS_PER_BYTE 128.0

enum {
  REMAT_PEAK_EXACT_MAX = 32,     /* auto: the exact search up to this many candidates */
  REMAT_PEAK_AUTO_MAX = 48,      /* ... and without a budget, for the least peak up to this */
  REMAT_PEAK_EXACT_HARD = 64,    /* method=exact: refused above */
  REMAT_PEAK_ENUMERATE_MAX = 20, /* method=enumerate: refused above */
};

typedef enum remat_peak_method {
  REMAT_PEAK_AUTO,      /* exact up to REMAT_PEAK_EXACT_MAX candidates, the least peak up to
                           REMAT_PEAK_AUTO_MAX without a budget, else heuristic */
  REMAT_PEAK_EXACT,     /* branch and bound over the needed candidates */
  REMAT_PEAK_HEURISTIC, /* local search from seeds along the peak */
  REMAT_PEAK_ENUMERATE, /* every subset of the candidates: the exact search's check */
} remat_peak_method;

typedef struct remat_peak_point {
  uint64_t peak; /* bytes, the estimate of the emitted order */
  double cost;   /* recompute cost */
} remat_peak_point;

typedef struct remat_peak_problem {
  const remat_split_view *view;     /* flags before planning: RO_IN_*, RV_SAVED unread */
  const unsigned char *bytes_saved; /* [nvals] the min-cut's saved set (objective=bytes) */
  uint64_t budget;                  /* peak-budget bytes; 0: none */
  remat_peak_method method;
} remat_peak_problem;

typedef struct remat_peak_result {
  unsigned char *saved; /* [nvals] the chosen saved set (primal arguments included) */
  remat_peak_point chosen, bytes, no_remat, recompute_all;
  uint64_t bound;     /* no split peaks below it (docs/design.md, "The lower bound") */
  bool optimal;       /* the bound is the least peak, found by an exact search */
  bool cost_optimal;  /* no split of the least peak costs less (an exact search finished) */
  const char *method; /* "exact", "heuristic" or "enumerate" */
  int candidates;     /* values the search may save */
  long evaluated;     /* splits simulated */
  double ms;          /* the search's time */
} remat_peak_result;

/* Searches the split of PB with the least key. 0; 1 when no split fits the budget; -1
 * with a message added to *err (remat_error_add). */
int remat_peak_search(const remat_peak_problem *pb, remat_peak_result *res, char **err);

#endif
