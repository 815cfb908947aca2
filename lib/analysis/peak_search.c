/* peak_search.c: the split with the least peak (see peak_search.h; docs/design.md,
 * "Splits chosen for the peak").
 *
 * Every split is judged by lib/analysis/memory.c's simulation of the order the min-cut
 * emits (the lower of just in time and the list schedule), so the search never trusts a
 * model of its own. Three searches over the same rules:
 *   exact:     branch and bound, depth first over the ops, last first, from the
 *              heuristic's split. When an op is reached, whether the backward and the
 *              forward need each of its results is already known (their users come
 *              later), so only needed candidates branch (saving a value the backward does
 *              not need never lowers the peak or the cost: the forward keeps it to its end
 *              for nothing), the rules cut branches before they are simulated, and a
 *              state no completion of which can beat the best split (peak_bound.h's bounds
 *              on its peak and cost) is pruned;
 *   enumerate: every subset of the candidates, each planned, checked and simulated: slow
 *              and plain, the exact search's check, which also checks the exact search's
 *              bounds against some of the splits it simulates;
 *   heuristic: seeds (the min-cut's split, no remat, recompute all, minimum cuts
 *              re-weighted along the peak, each repaired to the rules), then
 *              best-improvement local search from the best: each round toggles the
 *              candidates live at the peak (saving what is recomputed there, recomputing
 *              what is saved) and saves values recomputed anywhere (cost), and keeps the
 *              best neighbour while it improves the key. */
#include "peak_search.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "peak_bound.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "support.h"

enum {                       /* heuristic limits */
       MOVES_PER_GROUP = 48, /* toggles tried per round at the peak, and savings for cost */
       MAX_ROUNDS = 64,
       WORK_LIMIT = 60000000, /* simulated ops (steps x splits) the heuristic may spend */
       MAX_SEEDS = 16,        /* distinct seeds of the local search */
       CUT_ROUNDS = 8,        /* re-weighted minimum cuts */
       LOCAL_SEEDS = 1,       /* the best seeds a local search starts from */
       PEAK_STEPS = 4,        /* exact: steps whose peak is bounded at each branch */
       COST_STEPS = 3,        /* exact: ... and whose cost is */
       RECENT_STEPS = 4,      /* exact: decisions whose first backward reader is bounded too */
       LAMBDA_STEPS = 16,     /* exact: steps whose cost bound's multiplier is chosen */
       BOUND_WORK = 4000000,  /* network edges the bound of the answer may examine */
       CHECKED_SPLITS = 32,   /* enumerate: splits whose bounds it checks */
       CHECK_COST_STEPS = 4,  /* ... and at how many steps the cost's */
       COST_NODES = 4000,     /* auto: branch points after which only the peak prunes */
       AUTO_NODES = 400000,   /* auto: ... after which the search stops */
       POLISH_WORK = 500000,  /* auto: simulated ops each polish of the cost may spend */
};

typedef struct search {
  const remat_split_view *v;
  remat_mem_sim *sim;
  const uint64_t *bytes;
  uint64_t budget;
  unsigned char *cand;  /* [nvals] values the search may save */
  unsigned char *never; /* [nvals] never saved: recompute tags, random values */
  int *root;            /* [nvals] the value whose buffer a reshape chain aliases */
  int *owner;           /* [nvals] scratch of alias_ok */
  int ncand;
  unsigned char *in_f, *in_b, *need_b; /* scratch of one plan */
  long evaluated, work;
  remat_peak_bound *pb; /* the bounds of peak_bound.h */
  double *op_cost;      /* [nops] what running an op in both functions costs */
  double *forced;       /* [nops + 1] [i + 1]: the cost of the ops up to i that every split
                           runs in both functions */
  double *lam;          /* [nops + 1] exact: the multiplier of each hot step's cost bound */
  uint64_t root_bound;  /* of every split */
  int *hot, nhot;       /* exact: the steps whose bounds it tries, first first */
  int *first_read;      /* [nvals] exact: the first backward op reading a value, or -1 */
  unsigned char *best;  /* [nvals] */
  remat_peak_point best_pt;
  bool have_best;
  /* exact: a value each of the last branches decided (last first), or -1 */
  int recent[RECENT_STEPS];
  bool peak_only;  /* exact: prune what cannot peak below the best (whatever its cost) */
  long nodes;      /* exact: branch points reached */
  long cost_nodes; /* exact: after this many, peak_only (0: never) */
  long node_limit; /* exact: stop after this many (0: never) */
  bool stopped;    /* exact: it did */
} search;

/* A before B in the search's order. */
static bool better(remat_peak_point a, remat_peak_point b, uint64_t budget) {
  if (budget) {
    bool fa = a.peak <= budget, fb = b.peak <= budget;
    if (fa != fb)
      return fa;
    if (fa)
      return a.cost < b.cost || (a.cost == b.cost && a.peak < b.peak);
  }
  return a.peak < b.peak || (a.peak == b.peak && a.cost < b.cost);
}

static double cost_of(const remat_mem_schedule *c) {
  return (double)c->recompute_bytes + c->recompute_flops / REMAT_PEAK_FLOPS_PER_BYTE;
}

/* Simulates SAVED (arguments the backward needs are added). C: kept when not NULL (the
 * caller frees it), else freed. */
static remat_peak_point evaluate(search *s, unsigned char *saved, remat_mem_schedule *keep) {
  remat_mem_schedule c;
  bool listed;
  remat_mem_sim_run_emitted(s->sim, saved, s->in_f, s->in_b, &c, &listed, NULL);
  s->evaluated++;
  s->work += c.nsteps;
  remat_peak_point pt = {c.peak, cost_of(&c)};
  if (keep)
    *keep = c;
  else
    remat_mem_schedule_free(&c);
  return pt;
}

/* need_b from the plan in s->in_b: read by an op the backward runs, or a gradient. */
static void backward_needs(search *s) {
  const remat_split_view *v = s->v;
  memset(s->need_b, 0, (size_t)v->nvals);
  for (int r = v->num_outputs; r < v->nret; r++)
    s->need_b[v->ret_val[r]] = 1;
  for (int i = 0; i < v->nops; i++)
    if (s->in_b[i])
      FOR_OPERANDS(v, i, u) s->need_b[u] = 1;
}

/* Whether the plan in s->in_f/in_b of SAVED keeps the rules (peak_search.h). */
static bool valid(const search *s, const unsigned char *saved) {
  const remat_split_view *v = s->v;
  for (int x = 0; x < v->nvals; x++)
    if (saved[x] && s->never[x])
      return false;
  for (int i = 0; i < v->nops; i++) {
    unsigned f = v->oflags[i];
    if (!s->in_b[i] || (f & (RO_BW | RO_CONST)))
      continue;
    if ((f & (RO_SAVE_TAG | RO_FORWARD)) || ((f & RO_BANNED) && s->in_f[i]))
      return false;
  }
  return true;
}

/* Whether no two saved values share a buffer (x and reshape(x)): the estimate counts
 * such a pair once, but a runtime returns them as two buffers (remat-run copies the
 * alias), so the search does not save both. */
static bool alias_ok(const search *s, const unsigned char *saved) {
  const remat_split_view *v = s->v;
  for (int x = 0; x < v->nvals; x++)
    s->owner[x] = -1;
  for (int x = 0; x < v->nvals; x++) {
    if (!saved[x])
      continue;
    if (s->owner[s->root[x]] >= 0)
      return false;
    s->owner[s->root[x]] = x;
  }
  return true;
}

/* Records SAVED (evaluated at PT) when it is the best so far. */
static void consider(search *s, const unsigned char *saved, remat_peak_point pt) {
  if (s->have_best && !better(pt, s->best_pt, s->budget))
    return;
  memcpy(s->best, saved, (size_t)s->v->nvals);
  s->best_pt = pt;
  s->have_best = true;
}

/* ---- the rules' sets -------------------------------------------------------------- */

/* A random value: a result of an rt.uniform_philox that is not banned, or computed by an elementwise, compare or
 * structural op from random values, scalars and constants alone (a dropout mask). */
static void random_values(const remat_split_view *v, unsigned char *rnd) {
  for (int i = 0; i < v->nops; i++) {
    rt_op_id id = rt_op_lookup(v->ops[i]);
    rt_op_kind k = rt_op_kind_of(id);
    bool r = id == RT_OP_UNIFORM_PHILOX && !(v->oflags[i] & RO_BANNED); /* ban-random:
                                                                            masks saved */
    if (!r && (k == RT_KIND_ELEMENTWISE || k == RT_KIND_COMPARE || k == RT_KIND_STRUCTURAL)) {
      bool any = false, all = true;
      FOR_OPERANDS(v, i, u) {
        if (rnd[u])
          any = true;
        else if (!(v->vflags[u] & RV_CONST) && !rt_type_is_scalar(mlirValueGetType(v->vals[u])))
          all = false;
      }
      r = any && all;
    }
    FOR_RESULTS(v, i, x) rnd[x] = r;
  }
}

static void init_sets(search *s) {
  const remat_split_view *v = s->v;
  unsigned char *rnd = xcalloc((size_t)v->nvals + 1, 1), *reach = xcalloc((size_t)v->nvals + 1, 1);
  random_values(v, rnd);
  for (int x = 0; x < v->nvals; x++)
    reach[x] = (v->vflags[x] & RV_BW_READ) != 0;
  for (int i = v->nops - 1; i >= 0; i--) {
    if (v->oflags[i] & RO_BW)
      continue;
    bool any = false;
    FOR_RESULTS(v, i, x) any |= reach[x] != 0;
    if (any)
      FOR_OPERANDS(v, i, u) reach[u] = 1;
  }
  for (int x = 0; x < v->nvals; x++) {
    int op = v->val_op[x];
    s->root[x] = x;
    if (op >= 0 && rt_op_lookup(v->ops[op]) == RT_OP_RESHAPE &&
        v->opnd_start[op + 1] - v->opnd_start[op] == 1)
      s->root[x] = s->root[v->opnd[v->opnd_start[op]]];
    if (op < 0 || (v->vflags[x] & (RV_BW | RV_CONST)))
      continue;
    unsigned f = v->oflags[op];
    /* a save tag wins over the random-value rule, as a ban does (docs/design.md) */
    s->never[x] = (f & RO_RECOMPUTE_TAG) || (rnd[x] && !(f & (RO_BANNED | RO_SAVE_TAG)));
    s->cand[x] = reach[x] && !s->never[x] && s->bytes[x] > 0;
    s->ncand += s->cand[x];
  }
  free(rnd);
  free(reach);
}

/* ---- exact: depth first over the ops, last first ----------------------------------- */

typedef struct dfs_state {
  unsigned char *nb, *nf, *sv; /* [nvals] the backward needs, the forward needs, saved */
} dfs_state;

static dfs_state state_copy(const search *s, const dfs_state *a) {
  size_t n = (size_t)s->v->nvals + 1;
  dfs_state b = {xmalloc(n), xmalloc(n), xmalloc(n)};
  memcpy(b.nb, a->nb, n);
  memcpy(b.nf, a->nf, n);
  memcpy(b.sv, a->sv, n);
  return b;
}

/* The state before any op is decided: the forward needs its outputs, the backward the
 * gradients. */
static dfs_state state_root(const search *s) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  dfs_state st = {xcalloc(n, 1), xcalloc(n, 1), xcalloc(n, 1)};
  for (int r = 0; r < v->num_outputs; r++)
    st.nf[v->ret_val[r]] = 1;
  for (int r = v->num_outputs; r < v->nret; r++)
    st.nb[v->ret_val[r]] = 1;
  return st;
}

static void state_free(dfs_state *a) {
  free(a->nb);
  free(a->nf);
  free(a->sv);
}

/* Op I with its results' saved bits set in ST: what it runs where, its operands' needs;
 * when both functions run it, its recompute cost is added to *COST_BYTES, *COST_FLOPS.
 * False when it breaks a rule. */
static bool apply_op(const search *s, int i, dfs_state *st, uint64_t *cost_bytes,
                     double *cost_flops) {
  const remat_split_view *v = s->v;
  unsigned f = v->oflags[i];
  bool in_b = false, in_f = false;
  FOR_RESULTS(v, i, r) {
    in_b |= st->nb[r] && !st->sv[r];
    in_f |= !(f & RO_BW) && (st->nf[r] || st->sv[r]);
  }
  if (in_b && !(f & (RO_BW | RO_CONST)) &&
      ((f & (RO_SAVE_TAG | RO_FORWARD)) || ((f & RO_BANNED) && in_f)))
    return false;
  if (in_b && in_f && !(f & (RO_BW | RO_CONST)))
    *cost_flops += remat_mem_sim_op_cost(s->sim, i, cost_bytes);
  FOR_OPERANDS(v, i, u) {
    st->nb[u] |= in_b;
    st->nf[u] |= in_f;
  }
  return true;
}

/* Moves step OP to the front of s->hot (if it is one). */
static void heat(search *s, int op) {
  int k = 0;
  while (k < s->nhot && s->hot[k] != op)
    k++;
  if (k == s->nhot)
    return;
  double lam = s->lam[k];
  memmove(s->hot + 1, s->hot, (size_t)k * sizeof *s->hot);
  memmove(s->lam + 1, s->lam, (size_t)k * sizeof *s->lam);
  s->hot[0] = op;
  s->lam[0] = lam;
}

/* Whether a completion whose key is at least LB may beat the best split: by its key, or
 * in the search for the least peak alone, by its peak. */
static bool may_beat(const search *s, remat_peak_point lb) {
  return s->peak_only ? lb.peak < s->best_pt.peak : better(lb, s->best_pt, s->budget);
}

/* The least key of the completions of a state whose decided ops cost COST_BYTES and
 * COST_FLOPS, before its own bounds. */
static remat_peak_point lower(const search *s, int i, uint64_t cost_bytes, double cost_flops) {
  /* the flops are sums of integers, exact below 2^53; the margin keeps the cost a lower
   * bound beyond, whatever order the sums are taken in */
  return (remat_peak_point){
      s->root_bound,
      ((double)cost_bytes + cost_flops / REMAT_PEAK_FLOPS_PER_BYTE + s->forced[i + 1]) *
          (1 - 1e-9)};
}

/* Whether no completion of ST (the ops after I decided, costing at least COST_BYTES and
 * COST_FLOPS) beats the best split: the peak's bounds at the steps of s->hot, then what
 * the completions that could beat it must add to the cost; the step that cuts moves to
 * the front. */
static bool prune(search *s, int i, const dfs_state *st, uint64_t cost_bytes, double cost_flops) {
  if (!s->have_best)
    return false;
  remat_peak_point lb = lower(s, i, cost_bytes, cost_flops);
  if (!may_beat(s, lb))
    return true;
  remat_peak_partial part = {i, st->sv, st->nb, st->nf};
  int nh = s->nhot < PEAK_STEPS ? s->nhot : PEAK_STEPS;
  /* the hot steps, then where the backward first reads the values the last branches
   * decided (the bounds those decisions move most); without a budget, the key decides by
   * the peak's side of the best's: the bound need only be exact there */
  for (int k = 0; k < nh + RECENT_STEPS; k++) {
    int t = k < nh ? s->hot[k] : s->recent[k - nh] >= 0 ? s->first_read[s->recent[k - nh]] : -1;
    if (k >= nh && t < 0)
      continue;
    uint64_t p = s->budget ? remat_peak_bound_at(s->pb, t, &part)
                           : remat_peak_bound_near(s->pb, t, &part, s->best_pt.peak);
    if (p > lb.peak)
      lb.peak = p;
    if (!may_beat(s, lb)) {
      heat(s, t);
      return true;
    }
  }
  /* the completions that could beat the best peak at most LIMIT: what they must add to
   * the cost (when the best does not fit a budget, a lower peak alone may beat it) */
  if (s->budget ? s->best_pt.peak > s->budget : lb.peak < s->best_pt.peak)
    return false; /* without a budget, a completion below the best peak beats it at any cost */
  uint64_t limit = s->budget ? s->budget : s->best_pt.peak;
  /* the cost bounds charge the forced ops not reached yet themselves: from the decided ops */
  double decided = lower(s, -1, cost_bytes, cost_flops).cost;
  remat_peak_point c = lb;
  nh = s->nhot < COST_STEPS ? s->nhot : COST_STEPS;
  for (int k = 0; k < nh; k++) {
    double extra = remat_peak_bound_cost(s->pb, s->hot[k], &part, limit, s->op_cost, s->lam[k],
                                         s->best_pt.cost - decided);
    c.cost = decided + extra * (1 - 1e-9);
    if (c.cost < lb.cost)
      c.cost = lb.cost;
    if (!better(c, s->best_pt, s->budget)) {
      heat(s, s->hot[k]);
      return true;
    }
  }
  return false;
}

static uint64_t mask_bytes(const search *s, const int *branch, int nbranch, unsigned m) {
  uint64_t sum = 0;
  for (int b = 0; b < nbranch; b++)
    if ((m >> b) & 1)
      sum += s->bytes[branch[b]];
  return sum;
}

static void dfs(search *s, int i, dfs_state *st, uint64_t cost_bytes, double cost_flops) {
  const remat_split_view *v = s->v;
  for (; i >= 0; i--) {
    int branch[8], nbranch = 0;
    FOR_RESULTS(v, i, r) {
      st->sv[r] = 0;
      if (s->cand[r] && st->nb[r]) {
        if (nbranch == (int)(sizeof branch / sizeof *branch))
          st->sv[r] = 1; /* an op of more than 8 needed results: the rest are saved */
        else
          branch[nbranch++] = r;
      }
    }
    if (nbranch == 0) {
      if (!apply_op(s, i, st, &cost_bytes, &cost_flops))
        return;
      continue;
    }
    s->nodes++;
    s->peak_only |= s->cost_nodes && s->nodes > s->cost_nodes;
    s->stopped |= s->node_limit && s->nodes > s->node_limit;
    if (s->stopped || prune(s, i, st, cost_bytes, cost_flops))
      return;
    /* the branches by the bytes they save, fewest first */
    unsigned order[256];
    int nm = 0;
    for (unsigned m = 0; m < 1u << nbranch; m++) {
      int k = nm++;
      uint64_t mb = mask_bytes(s, branch, nbranch, m);
      for (; k > 0 && mask_bytes(s, branch, nbranch, order[k - 1]) > mb; k--)
        order[k] = order[k - 1];
      order[k] = m;
    }
    int parent[RECENT_STEPS];
    memcpy(parent, s->recent, sizeof parent);
    for (int k = 0; k < nm; k++) {
      dfs_state c = state_copy(s, st);
      for (int b = 0; b < nbranch; b++)
        c.sv[branch[b]] = (order[k] >> b) & 1;
      uint64_t cb = cost_bytes;
      double cf = cost_flops;
      if (apply_op(s, i, &c, &cb, &cf)) {
        s->recent[0] = branch[0];
        memcpy(s->recent + 1, parent, (RECENT_STEPS - 1) * sizeof *parent);
        dfs(s, i - 1, &c, cb, cf);
      }
      state_free(&c);
      if (s->stopped)
        return;
    }
    return;
  }
  for (int a = 0; a < v->nargs; a++)
    st->sv[a] = st->nb[a] && !(v->vflags[a] & RV_TANGENT);
  if (!alias_ok(s, st->sv) || prune(s, -1, st, cost_bytes, cost_flops))
    return;
  remat_mem_schedule lc;
  remat_peak_point pt = evaluate(s, st->sv, &lc);
  if (s->have_best && !better(pt, s->best_pt, s->budget) && lc.peak_step >= 0)
    heat(s, lc.op[lc.peak_step]); /* where this leaf peaked: bound it first from now on */
  remat_mem_schedule_free(&lc);
  if (!valid(s, st->sv))
    remat_fatal("the exact search reached a split that breaks a rule");
  consider(s, st->sv, pt);
}

/* s->forced: the ops every split runs in both functions, an output needing them and
 * the backward a result it cannot have saved (a random value, one with a recompute tag),
 * cost every split theirs; the search adds it when it reaches them (apply_op), so the
 * cost of those not reached yet bounds what a state's completions add. */
static void forced_costs(search *s) {
  const remat_split_view *v = s->v;
  unsigned char *nb = xcalloc((size_t)v->nvals + 1, 1), *nf = xcalloc((size_t)v->nvals + 1, 1);
  unsigned char *both = xcalloc((size_t)v->nops + 1, 1);
  for (int r = 0; r < v->num_outputs; r++)
    nf[v->ret_val[r]] = 1;
  for (int r = v->num_outputs; r < v->nret; r++)
    nb[v->ret_val[r]] = 1;
  for (int i = v->nops - 1; i >= 0; i--) {
    unsigned f = v->oflags[i];
    bool in_b = false, in_f = false;
    FOR_RESULTS(v, i, r) {
      in_b |= nb[r] && ((f & RO_BW) || s->never[r]);
      in_f |= !(f & RO_BW) && nf[r];
    }
    both[i] = in_b && in_f && !(f & (RO_BW | RO_CONST));
    FOR_OPERANDS(v, i, u) {
      nb[u] |= in_b;
      nf[u] |= in_f;
    }
  }
  for (int i = 0; i < v->nops; i++)
    s->forced[i + 1] = s->forced[i] + (both[i] ? s->op_cost[i] : 0);
  free(nb);
  free(nf);
  free(both);
}

/* Branch and bound from the best split so far (the heuristic's): s->hot are the steps
 * where that split holds the most. After COST_NODES branch points (0: never) it only
 * looks for a lower peak, whatever the cost; after NODE_LIMIT (0: never) it stops.
 * Every state pruned before the switch cannot peak below the best either, so if it does
 * not stop, the best split has the least peak; if it never switched, the least key. */
static void exact(search *s, long cost_nodes, long node_limit) {
  const remat_split_view *v = s->v;
  s->peak_only = false;
  s->cost_nodes = cost_nodes;
  s->node_limit = node_limit;
  s->nodes = 0;
  s->stopped = false;
  for (int x = 0; x < v->nvals; x++)
    s->first_read[x] = -1;
  for (int i = v->nops - 1; i >= 0; i--)
    if (v->oflags[i] & RO_BW)
      FOR_OPERANDS(v, i, u) s->first_read[u] = i;
  for (int k = 0; k < RECENT_STEPS; k++)
    s->recent[k] = -1;
  dfs_state st = state_root(s);
  /* each step's multiplier: the best of a grid at the root */
  remat_peak_partial part = {v->nops - 1, st.sv, st.nb, st.nf};
  uint64_t limit = s->budget ? s->budget : s->best_pt.peak;
  for (int k = 0; k < s->nhot; k++) {
    double best = -1;
    s->lam[k] = 1;
    for (double l = 1.0 / 16; k < LAMBDA_STEPS && l <= 64; l *= 1.41421356) {
      double c = remat_peak_bound_cost(s->pb, s->hot[k], &part, limit, s->op_cost, l, -INFINITY);
      if (c > best) {
        best = c;
        s->lam[k] = l;
      }
    }
  }
  dfs(s, v->nops - 1, &st, 0, 0);
  state_free(&st);
}

/* ---- enumerate: every subset ------------------------------------------------------- */

/* Whether the bounds of state ST (the ops after I decided, costing COST_BYTES and
 * COST_FLOPS) hold for split PT, one of its completions: at every step no more than its
 * peak, and the cost bound, at the first CHECK_COST_STEPS steps, no more than its cost. */
static bool bounds_hold(search *s, int i, const dfs_state *st, uint64_t cost_bytes,
                        double cost_flops, remat_peak_point pt, const int *steps, int nsteps) {
  remat_peak_partial part = {i, st->sv, st->nb, st->nf};
  double cost = (double)cost_bytes + cost_flops / REMAT_PEAK_FLOPS_PER_BYTE;
  if (cost + s->forced[i + 1] > pt.cost * (1 + 1e-9))
    return false;
  for (int k = 0; k < nsteps; k++) {
    if (remat_peak_bound_at(s->pb, steps[k], &part) > pt.peak)
      return false;
    for (double lambda = 0.5; k < CHECK_COST_STEPS && lambda <= 4; lambda *= 2) {
      double extra =
          remat_peak_bound_cost(s->pb, steps[k], &part, pt.peak, s->op_cost, lambda, -INFINITY);
      if ((cost + extra) * (1 - 1e-9) > pt.cost)
        return false;
    }
  }
  return true;
}

/* The enumeration's check of the bounds the exact search prunes with: split SV (at PT,
 * keeping the rules) is a completion of each state the exact search passes on its way to
 * it, so each of those states' bounds must hold for it. SV that saves a value the
 * backward does not read is not one of the exact search's: not checked. */
static void check_bounds(search *s, const unsigned char *sv, remat_peak_point pt) {
  const remat_split_view *v = s->v;
  dfs_state st = state_root(s);
  int *steps = xcalloc((size_t)v->nops + 2, sizeof *steps);
  steps[0] = REMAT_PEAK_FWD_END;
  int nsteps = 1 + remat_peak_bound_ops(s->pb, steps + 1);
  uint64_t cb = 0;
  double cf = 0;
  bool ok = true;
  for (int i = v->nops - 1; i >= -1 && ok; i--) {
    bool branch = i < 0;
    if (i >= 0)
      FOR_RESULTS(v, i, r) {
        if (sv[r] && !(s->cand[r] && st.nb[r]))
          goto done; /* saved for nothing, or not a candidate: not the exact search's */
        branch |= s->cand[r] && st.nb[r];
      }
    if (i < 0)
      for (int a = 0; a < v->nargs; a++)
        st.sv[a] = st.nb[a] && !(v->vflags[a] & RV_TANGENT);
    if (branch)
      ok = bounds_hold(s, i, &st, cb, cf, pt, steps, nsteps);
    if (i >= 0) {
      FOR_RESULTS(v, i, r) st.sv[r] = sv[r];
      if (!apply_op(s, i, &st, &cb, &cf))
        remat_fatal("a split that keeps the rules breaks one in the exact search's walk");
    }
  }
  if (!ok)
    remat_fatal("a bound of the exact search is above a split it bounds");
done:
  free(steps);
  state_free(&st);
}

static void enumerate(search *s) {
  const remat_split_view *v = s->v;
  int *list = xcalloc((size_t)s->ncand + 1, sizeof *list), n = 0;
  for (int x = 0; x < v->nvals; x++)
    if (s->cand[x])
      list[n++] = x;
  unsigned char *sv = xcalloc((size_t)v->nvals + 1, 1);
  unsigned long stride = (1ul << n) / CHECKED_SPLITS + 1;
  for (unsigned long m = 0; m < 1ul << n; m++) {
    memset(sv, 0, (size_t)v->nvals);
    for (int b = 0; b < n; b++)
      sv[list[b]] = (m >> b) & 1;
    remat_peak_point pt = evaluate(s, sv, NULL);
    if (!valid(s, sv) || !alias_ok(s, sv))
      continue;
    consider(s, sv, pt);
    if (m % stride == 0)
      check_bounds(s, sv, pt);
  }
  free(sv);
  free(list);
}

/* ---- heuristic ---------------------------------------------------------------------- */

/* Makes SAVED keep the rules: saves what a save-tagged or banned op would otherwise
 * recompute, drops saved values the backward does not read. False when it cannot. */
static bool repair(search *s, unsigned char *saved) {
  const remat_split_view *v = s->v;
  for (int round = 0; round < 4 * v->nops + 4; round++) {
    remat_mem_sim_plan(s->sim, saved, s->in_f, s->in_b);
    backward_needs(s);
    bool changed = false;
    for (int x = 0; x < v->nvals; x++)
      if (saved[x] && !s->need_b[x]) {
        saved[x] = 0;
        changed = true;
      }
    for (int i = 0; i < v->nops; i++) {
      unsigned f = v->oflags[i];
      if (!s->in_b[i] || (f & (RO_BW | RO_CONST)) ||
          !((f & (RO_SAVE_TAG | RO_FORWARD)) || ((f & RO_BANNED) && s->in_f[i])))
        continue;
      FOR_RESULTS(v, i, r) {
        if (!s->need_b[r] || saved[r])
          continue;
        if (s->never[r])
          return false;
        saved[r] = 1;
        changed = true;
      }
    }
    /* of two saved values that share a buffer, the later is recomputed (an alias) */
    for (int x = 0; x < v->nvals; x++)
      s->owner[x] = -1;
    for (int x = 0; x < v->nvals; x++) {
      if (!saved[x])
        continue;
      if (s->owner[s->root[x]] >= 0) {
        int y = x > s->owner[s->root[x]] ? x : s->owner[s->root[x]];
        saved[y] = 0;
        changed = true;
      } else {
        s->owner[s->root[x]] = x;
      }
    }
    if (!changed) {
      for (int x = 0; x < v->nvals; x++)
        if (saved[x] && s->never[x])
          return false;
      return alias_ok(s, saved);
    }
  }
  return false;
}

/* Live ranges of the values in schedule C of the plan in s->in_*: the forward's buffer
 * [fdef, flast] and the backward's [bdef, blast] (steps; -1: none). Reshape aliases are
 * ignored: the ranges only choose the moves, the simulation judges them. */
static void live_ranges(const search *s, const unsigned char *saved, const remat_mem_schedule *c,
                        int *fdef, int *flast, int *bdef, int *blast) {
  const remat_split_view *v = s->v;
  for (int x = 0; x < v->nvals; x++)
    fdef[x] = flast[x] = bdef[x] = blast[x] = -1;
  for (int t = 0; t < c->nsteps; t++) {
    int i = c->op[t];
    bool fwd = t < c->nfwd;
    FOR_OPERANDS(v, i, u) {
      if (fwd) {
        flast[u] = t;
        if (fdef[u] < 0)
          fdef[u] = 0;
      } else {
        blast[u] = t;
        if (bdef[u] < 0)
          bdef[u] = c->nfwd;
      }
    }
    FOR_RESULTS(v, i, r) {
      if (fwd)
        fdef[r] = flast[r] = t;
      else
        bdef[r] = blast[r] = t;
    }
  }
  for (int x = 0; x < v->nvals; x++)
    if (saved[x] && fdef[x] >= 0)
      flast[x] = c->nfwd - 1;
}

typedef struct move {
  uint64_t bytes;
  int x;
} move;

static int by_bytes_desc(const void *a, const void *b) {
  const move *p = a, *q = b;
  if (p->bytes != q->bytes)
    return p->bytes < q->bytes ? 1 : -1;
  return p->x - q->x;
}

/* The moves around CUR: candidates live at the peak, and recomputed candidates. */
static int moves(search *s, const unsigned char *cur, const remat_mem_schedule *c, int *out) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  int *fdef = xcalloc(n, sizeof *fdef), *flast = xcalloc(n, sizeof *flast);
  int *bdef = xcalloc(n, sizeof *bdef), *blast = xcalloc(n, sizeof *blast);
  live_ranges(s, cur, c, fdef, flast, bdef, blast);
  move *a = xcalloc(n, sizeof *a), *b = xcalloc(n, sizeof *b);
  int na = 0, nb = 0, T = c->peak_step;
  for (int x = 0; x < v->nvals; x++) {
    if (!s->cand[x])
      continue;
    bool live = (fdef[x] >= 0 && fdef[x] <= T && T <= flast[x]) ||
                (bdef[x] >= 0 && bdef[x] <= T && T <= blast[x]);
    int op = v->val_op[x];
    if (live)
      a[na++] = (move){s->bytes[x], x};
    else if (!cur[x] && s->in_b[op] && s->in_f[op])
      b[nb++] = (move){s->bytes[x], x}; /* recomputed: saving it costs bytes, saves recompute */
  }
  qsort(a, (size_t)na, sizeof *a, by_bytes_desc);
  qsort(b, (size_t)nb, sizeof *b, by_bytes_desc);
  int k = 0;
  for (int i = 0; i < na && i < MOVES_PER_GROUP; i++)
    out[k++] = a[i].x;
  for (int i = 0; i < nb && i < MOVES_PER_GROUP; i++)
    out[k++] = b[i].x;
  free(a);
  free(b);
  free(fdef);
  free(flast);
  free(bdef);
  free(blast);
  return k;
}

/* Best-improvement local search from CUR (kept to the rules): each round moves to the
 * best neighbour (moves()) while it improves the key, for MAX_ROUNDS rounds or until
 * s->work reaches LIMIT. */
static void local_search(search *s, unsigned char *cur, remat_peak_point cur_pt, long limit) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  unsigned char *try = xcalloc(n, 1), *next = xcalloc(n, 1);
  int *mv = xcalloc(2 * MOVES_PER_GROUP + 1, sizeof *mv);
  for (int round = 0; round < MAX_ROUNDS && s->work < limit; round++) {
    remat_mem_schedule c;
    evaluate(s, cur, &c); /* leaves cur's plan in s->in_* */
    int nm = moves(s, cur, &c, mv);
    remat_mem_schedule_free(&c);
    bool found = false;
    remat_peak_point next_pt = cur_pt;
    for (int k = 0; k < nm && s->work < limit; k++) {
      memcpy(try, cur, n - 1);
      try[mv[k]] ^= 1;
      if (!repair(s, try) || !memcmp(try, cur, n - 1))
        continue;
      remat_peak_point pt = evaluate(s, try, NULL);
      if (better(pt, next_pt, s->budget)) {
        next_pt = pt;
        memcpy(next, try, n - 1);
        found = true;
      }
    }
    if (!found)
      break;
    memcpy(cur, next, n - 1);
    cur_pt = next_pt;
    consider(s, cur, cur_pt);
  }
  free(mv);
  free(try);
  free(next);
}

/* First-improvement search over the splits one or two toggles of candidates away from
 * the best (repaired to the rules), the pairs in a cycle, until a whole cycle improves
 * nothing or s->work reaches LIMIT: at the least peak, the exact search's cut-off leaves
 * the cost to it (the 3-layer MLP: 12,080 to its least, 9,520). */
static void polish(search *s, long limit) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  unsigned char *try = xcalloc(n, 1);
  int *c = xcalloc(n, sizeof *c), nc = 0;
  for (int x = 0; x < v->nvals; x++)
    if (s->cand[x])
      c[nc++] = x;
  long npairs = (long)nc * (nc + 1) / 2, since = 0;
  for (long k = 0; since < npairs && s->work < limit; k = (k + 1) % npairs, since++) {
    int a = 0;
    long r = k;
    while (r >= nc - a) /* pair k: (a, b), a <= b, in order */
      r -= nc - a++;
    int b = a + (int)r;
    memcpy(try, s->best, n - 1);
    try[c[a]] ^= 1;
    if (b > a)
      try[c[b]] ^= 1;
    if (!repair(s, try) || !memcmp(try, s->best, n - 1))
      continue;
    remat_peak_point pt = evaluate(s, try, NULL);
    if (better(pt, s->best_pt, s->budget))
      since = 0;
    consider(s, try, pt);
  }
  free(try);
  free(c);
}

typedef struct seeds {
  unsigned char **set;
  remat_peak_point *pt;
  int n;
} seeds;

/* Repairs TRY and, when it is new and keeps the rules, evaluates it and adds it to SD. */
static void add_seed(search *s, seeds *sd, unsigned char *try) {
  size_t n = (size_t)s->v->nvals;
  if (sd->n == MAX_SEEDS || !repair(s, try))
    return;
  for (int k = 0; k < sd->n; k++)
    if (!memcmp(sd->set[k], try, n))
      return;
  remat_peak_point pt = evaluate(s, try, NULL);
  consider(s, try, pt);
  int k = sd->n++;
  for (; k > 0 && better(pt, sd->pt[k - 1], s->budget); k--) { /* best first */
    sd->set[k] = sd->set[k - 1];
    sd->pt[k] = sd->pt[k - 1];
  }
  sd->set[k] = xmalloc(n + 1);
  memcpy(sd->set[k], try, n);
  sd->pt[k] = pt;
}

/* Seeds from minimum cuts re-weighted along the peak: the first saves the fewest bytes
 * (the rules aside); after each, the values live at its split's peak cost more: saving
 * one that is saved, computing in the backward one that is computed there. */
static void cut_seeds(search *s, seeds *sd, unsigned char *try) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  double *save = xcalloc(n, sizeof *save), *recompute = xcalloc(n, sizeof *recompute);
  int *fdef = xcalloc(n, sizeof *fdef), *flast = xcalloc(n, sizeof *flast);
  int *bdef = xcalloc(n, sizeof *bdef), *blast = xcalloc(n, sizeof *blast);
  for (int x = 0; x < v->nvals; x++)
    save[x] = (double)s->bytes[x];
  for (int round = 0; round < CUT_ROUNDS && s->work < WORK_LIMIT; round++) {
    remat_peak_bound_cut_saved(s->pb, save, recompute, try);
    add_seed(s, sd, try);
    remat_mem_schedule c;
    evaluate(s, try, &c);
    live_ranges(s, try, &c, fdef, flast, bdef, blast);
    int t = c.peak_step;
    for (int x = 0; t >= 0 && x < v->nvals; x++) {
      bool fwd = fdef[x] >= 0 && fdef[x] <= t && t <= flast[x];
      bool bwd = bdef[x] >= 0 && bdef[x] <= t && t <= blast[x];
      if (!s->cand[x] || !(fwd || bwd))
        continue;
      if (try[x])
        save[x] += (double)s->bytes[x];
      else if (bwd)
        recompute[x] += (double)s->bytes[x];
    }
    remat_mem_schedule_free(&c);
  }
  free(save);
  free(recompute);
  free(fdef);
  free(flast);
  free(bdef);
  free(blast);
}

/* Seeds (the min-cut's split, no remat, recompute all, re-weighted cuts), then a local
 * search from each, best first, each with an equal share of the work left. */
static void heuristic(search *s, const unsigned char *bytes_saved) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  unsigned char *try = xcalloc(n, 1);
  seeds sd = {xcalloc(MAX_SEEDS, sizeof *sd.set), xcalloc(MAX_SEEDS, sizeof *sd.pt), 0};
  for (int seed = 0; seed < 3; seed++) {
    for (int x = 0; x < v->nvals; x++)
      try[x] = seed == 0   ? bytes_saved[x]
               : seed == 1 ? (v->vflags[x] & RV_BW_READ) && !s->never[x]
                           : 0;
    add_seed(s, &sd, try);
  }
  cut_seeds(s, &sd, try);
  int nls = sd.n < LOCAL_SEEDS ? sd.n : LOCAL_SEEDS;
  for (int k = 0; k < nls; k++) {
    long share = s->work + (WORK_LIMIT - s->work) / (nls - k);
    local_search(s, sd.set[k], sd.pt[k], share);
  }
  for (int k = 0; k < sd.n; k++)
    free(sd.set[k]);
  free(sd.set);
  free(sd.pt);
  free(try);
}

/* ---- the search ---------------------------------------------------------------------- */

/* The bound of every split (root_bound), its steps chosen by the schedule of the best
 * split so far, whose backward steps holding the most bytes become s->hot. */
static void bound_from_best(search *s) {
  const remat_split_view *v = s->v;
  remat_mem_schedule c;
  bool listed;
  remat_mem_sim_run_emitted(s->sim, s->best, s->in_f, s->in_b, &c, &listed, NULL);
  s->root_bound = remat_peak_bound_split(s->pb, &c, BOUND_WORK, NULL);
  int *ops = xcalloc((size_t)v->nops + 2, sizeof *ops);
  uint64_t *live = xcalloc((size_t)v->nops + 2, sizeof *live); /* [1 + op], [0]: fwd end */
  for (int t = 0; t < c.nsteps; t++)
    live[1 + c.op[t]] = c.live[t];
  live[0] = c.nfwd > 0 ? c.live[c.nfwd - 1] : 0;
  ops[0] = REMAT_PEAK_FWD_END;
  int n = 1 + remat_peak_bound_ops(s->pb, ops + 1);
  for (int k = 0; k < n; k++) { /* by live bytes, most first (insertion: stable) */
    int op = ops[k], j = k;
    for (; j > 0 && live[1 + s->hot[j - 1]] < live[1 + op]; j--)
      s->hot[j] = s->hot[j - 1];
    s->hot[j] = op;
  }
  s->nhot = n;
  free(ops);
  free(live);
  remat_mem_schedule_free(&c);
}

int remat_peak_search(const remat_peak_problem *pb, remat_peak_result *res, char **err) {
  const remat_split_view *v = pb->view;
  double t0 = remat_now_ms();
  memset(res, 0, sizeof *res);
  size_t n = (size_t)v->nvals + 1;
  search s = {0};
  s.v = v;
  s.sim = remat_mem_sim_new(v);
  s.bytes = remat_mem_sim_bytes(s.sim);
  s.budget = pb->budget;
  s.cand = xcalloc(n, 1);
  s.never = xcalloc(n, 1);
  s.root = xcalloc(n, sizeof *s.root);
  s.owner = xcalloc(n, sizeof *s.owner);
  s.in_f = xcalloc((size_t)v->nops + 1, 1);
  s.in_b = xcalloc((size_t)v->nops + 1, 1);
  s.need_b = xcalloc(n, 1);
  s.best = xcalloc(n, 1);
  s.hot = xcalloc((size_t)v->nops + 2, sizeof *s.hot);
  s.op_cost = xcalloc((size_t)v->nops + 1, sizeof *s.op_cost);
  s.lam = xcalloc((size_t)v->nops + 2, sizeof *s.lam);
  s.forced = xcalloc((size_t)v->nops + 1, sizeof *s.forced);
  s.first_read = xcalloc(n, sizeof *s.first_read);
  for (int i = 0; i < v->nops; i++) {
    uint64_t ob = 0;
    double of = remat_mem_sim_op_cost(s.sim, i, &ob);
    s.op_cost[i] = (double)ob + of / REMAT_PEAK_FLOPS_PER_BYTE;
  }
  init_sets(&s);
  forced_costs(&s);
  s.pb = remat_peak_bound_new(v, s.bytes, s.root, s.cand);
  res->candidates = s.ncand;
  remat_peak_method m = pb->method;
  /* auto: the exact search (its key) up to 32 candidates; without a budget, up to 48 the
   * least peak and the cost within a limit (docs/design.md, "auto") */
  bool auto_peak = m == REMAT_PEAK_AUTO && !s.budget && s.ncand > REMAT_PEAK_EXACT_MAX;
  if (m == REMAT_PEAK_AUTO)
    m = s.ncand <= (auto_peak ? REMAT_PEAK_AUTO_MAX : REMAT_PEAK_EXACT_MAX) ? REMAT_PEAK_EXACT
                                                                            : REMAT_PEAK_HEURISTIC;
  int limit = m == REMAT_PEAK_EXACT       ? REMAT_PEAK_EXACT_HARD
              : m == REMAT_PEAK_ENUMERATE ? REMAT_PEAK_ENUMERATE_MAX
                                          : -1;
  int rc = 0;
  if (limit >= 0 && s.ncand > limit) {
    remat_error_add(err, "peak-search=%s: %d candidate values, more than its limit of %d",
                    m == REMAT_PEAK_EXACT ? "exact" : "enumerate", s.ncand, limit);
    rc = -1;
  } else {
    unsigned char *sv = xcalloc(n, 1);
    /* the reference points: objective=bytes's split, no remat, recompute all */
    memcpy(sv, pb->bytes_saved, n - 1);
    res->bytes = evaluate(&s, sv, NULL);
    for (int x = 0; x < v->nvals; x++)
      sv[x] = (v->vflags[x] & RV_BW_READ) != 0;
    res->no_remat = evaluate(&s, sv, NULL);
    memset(sv, 0, n);
    res->recompute_all = evaluate(&s, sv, NULL);
    free(sv);
    res->method = m == REMAT_PEAK_EXACT       ? "exact"
                  : m == REMAT_PEAK_ENUMERATE ? "enumerate"
                                              : "heuristic";
    if (m == REMAT_PEAK_ENUMERATE) {
      enumerate(&s);
      res->cost_optimal = true;
    } else {
      heuristic(&s, pb->bytes_saved);
      if (s.have_best)
        bound_from_best(&s);
      if (m == REMAT_PEAK_EXACT) {
        /* auto_peak: the least peak (the objective) always, its least cost within a
         * limit, polished */
        if (auto_peak)
          polish(&s, s.work + POLISH_WORK);
        uint64_t before = s.best_pt.peak;
        exact(&s, auto_peak ? COST_NODES : 0, auto_peak ? AUTO_NODES : 0);
        if (s.stopped)
          m = REMAT_PEAK_HEURISTIC;
        if (s.peak_only && s.best_pt.peak < before)
          polish(&s, s.work + POLISH_WORK);
        res->cost_optimal = !s.stopped && !s.peak_only;
      }
    }
    if (!s.have_best)
      remat_fatal("no split keeps the rules, not even the min-cut's");
    if (m == REMAT_PEAK_ENUMERATE)
      bound_from_best(&s);
    /* the least peak: found by the exact searches, bounded otherwise */
    res->bound = s.root_bound;
    res->optimal = m != REMAT_PEAK_HEURISTIC && !s.budget;
    if (res->optimal)
      res->bound = s.best_pt.peak;
    if (s.root_bound > s.best_pt.peak)
      remat_fatal("the lower bound on the peak is above a split's peak");
    /* the plan of the best set, with its arguments */
    remat_mem_sim_plan(s.sim, s.best, s.in_f, s.in_b);
    res->saved = xcalloc(n, 1);
    memcpy(res->saved, s.best, n - 1);
    res->chosen = s.best_pt;
    if (s.budget && s.best_pt.peak > s.budget)
      rc = 1;
  }
  res->evaluated = s.evaluated;
  remat_peak_bound_free(s.pb);
  remat_mem_sim_free(s.sim);
  free(s.cand);
  free(s.never);
  free(s.root);
  free(s.owner);
  free(s.in_f);
  free(s.in_b);
  free(s.need_b);
  free(s.best);
  free(s.hot);
  free(s.op_cost);
  free(s.lam);
  free(s.forced);
  free(s.first_read);
  res->ms = remat_now_ms() - t0;
  return rc;
}
