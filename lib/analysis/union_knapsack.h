/* union_knapsack.h: the set-union knapsack behind --remat-checkpoint=memory-budget.
 *
 * Items (the budget's candidates) have a weight (bytes) and a value (the recompute cost
 * of their own chain, avoided when they are saved). Groups (recompute ops that several
 * chains share) have a value that is gained only when every item of the group is saved:
 * a shared op is paid once, unless no value that needs it is recomputed. The problem:
 * choose the saved items, total weight <= cap, maximizing the value gained.
 *
 * Exact by dynamic programming on the structure, with the documented limits; beyond them,
 * or when asked, a heuristic (docs/design.md, "Memory budget"). Pure C, no MLIR: the pass
 * builds the problem, tests and benchmarks can build their own. */
#ifndef REMAT_UNION_KNAPSACK_H
#define REMAT_UNION_KNAPSACK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct uk_problem {
  int n;              /* items */
  const uint64_t *w;  /* w[i]: weight of item i */
  const uint64_t *v;  /* v[i]: value of item i alone */
  int m;              /* groups */
  const uint64_t *gv; /* gv[g]: value of group g */
  const int *gstart;  /* m + 1 offsets into gitem */
  const int *gitem;   /* items of group g: gitem[gstart[g] .. gstart[g+1]), >= 2, distinct */
  uint64_t cap;       /* capacity */
} uk_problem;

/* Limits of the exact solution (docs/design.md). */
#define UK_WIDTH_MAX 20             /* groups open at once in the walk of a part */
#define UK_PART_LABELS (1u << 22)   /* labels the walk of one part may store */
#define UK_MERGE_LABELS (1u << 24)  /* labels the merge of the parts may store */
#define UK_GREEDY_WORK 200000000ull /* steps of the greedy within one part */

typedef struct uk_result {
  uint64_t value; /* of the choice (saturating) */
  bool exact;     /* proven optimal */
  int parts;      /* independent parts: items linked through groups */
  int largest;    /* items of the largest part */
  int widest;     /* most groups open at once in the walk of a part */
  int beyond;     /* parts beyond the limits (heuristic); -1 when the merge was */
} uk_result;

/* Chooses take[0..n) (true: saved). heuristic: skip the exact solution. */
void uk_solve(const uk_problem *p, bool heuristic, bool *take, uk_result *r);

/* The value of a choice; its weight in *weight when not NULL. */
uint64_t uk_value(const uk_problem *p, const bool *take, uint64_t *weight);

#endif
