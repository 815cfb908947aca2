/* peak_search.c: the split with the least peak (see peak_search.h; docs/design.md,
 * "Splits chosen for the peak").
 *
 * Every split is judged by lib/memory.c's simulation of the order the min-cut emits, so
 * the search never trusts a model of its own. Three searches over the same rules:
 *   exact:     depth first over the ops, last first. When an op is reached, whether the
 *              backward and the forward need each of its results is already known (their
 *              users come later), so only needed candidates branch (saving a value the
 *              backward does not need never lowers the peak or the cost: the forward
 *              keeps it to its end for nothing), and the rules cut branches before they
 *              are simulated;
 *   enumerate: every subset of the candidates, each planned, checked and simulated: slow
 *              and plain, the exact search's check (test/mincut/peak-exact.test);
 *   heuristic: seeds (the min-cut's split, no remat, recompute all, each repaired to the
 *              rules), then best-improvement local search: each round toggles the
 *              candidates live at the peak (saving what is recomputed there, recomputing
 *              what is saved) and saves values recomputed anywhere (cost), and keeps the
 *              best neighbour while it improves the key. */
#include "peak_search.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "support.h"

#define FOR_OPERANDS(v, i, u)                                                                     \
  for (int _k = (v)->opnd_start[i], u; _k < (v)->opnd_start[(i) + 1] && ((u) = (v)->opnd[_k], 1); \
       _k++)
#define FOR_RESULTS(v, i, r) for (int r = (v)->op_res[i]; r < (v)->op_res[(i) + 1]; r++)

enum {                       /* heuristic limits */
       MOVES_PER_GROUP = 48, /* toggles tried per round at the peak, and savings for cost */
       MAX_ROUNDS = 64,
       WORK_LIMIT = 60000000, /* simulated ops (steps x splits) the heuristic may spend */
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
  long leaf_cap;       /* exact: splits it may simulate before it gives up; 0: no cap */
  bool stopped;        /* exact: gave up at leaf_cap */
  unsigned char *best; /* [nvals] */
  remat_peak_point best_pt;
  bool have_best;
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
  remat_mem_sim_run(s->sim, saved, s->in_f, s->in_b, &c);
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
    if ((f & RO_SAVE_TAG) || ((f & RO_BANNED) && s->in_f[i]))
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

static void state_free(dfs_state *a) {
  free(a->nb);
  free(a->nf);
  free(a->sv);
}

/* Op I with its results' saved bits set in ST: what it runs where, its operands' needs.
 * False when it breaks a rule. */
static bool apply_op(const search *s, int i, dfs_state *st) {
  const remat_split_view *v = s->v;
  unsigned f = v->oflags[i];
  bool in_b = false, in_f = false;
  FOR_RESULTS(v, i, r) {
    in_b |= st->nb[r] && !st->sv[r];
    in_f |= !(f & RO_BW) && (st->nf[r] || st->sv[r]);
  }
  if (in_b && !(f & (RO_BW | RO_CONST)) && ((f & RO_SAVE_TAG) || ((f & RO_BANNED) && in_f)))
    return false;
  FOR_OPERANDS(v, i, u) {
    st->nb[u] |= in_b;
    st->nf[u] |= in_f;
  }
  return true;
}

static void dfs(search *s, int i, dfs_state *st) {
  const remat_split_view *v = s->v;
  if (s->stopped)
    return;
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
      if (!apply_op(s, i, st))
        return;
      continue;
    }
    for (unsigned m = 0; m < 1u << nbranch; m++) {
      dfs_state c = state_copy(s, st);
      for (int b = 0; b < nbranch; b++)
        c.sv[branch[b]] = (m >> b) & 1;
      if (apply_op(s, i, &c))
        dfs(s, i - 1, &c);
      state_free(&c);
    }
    return;
  }
  for (int a = 0; a < v->nargs; a++)
    st->sv[a] = st->nb[a] && !(v->vflags[a] & RV_TANGENT);
  if (s->leaf_cap && s->evaluated >= s->leaf_cap) {
    s->stopped = true;
    return;
  }
  if (!alias_ok(s, st->sv))
    return;
  remat_peak_point pt = evaluate(s, st->sv, NULL);
  if (!valid(s, st->sv))
    remat_fatal("the exact search reached a split that breaks a rule");
  consider(s, st->sv, pt);
}

static void exact(search *s) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  dfs_state st = {xcalloc(n, 1), xcalloc(n, 1), xcalloc(n, 1)};
  for (int r = 0; r < v->num_outputs; r++)
    st.nf[v->ret_val[r]] = 1;
  for (int r = v->num_outputs; r < v->nret; r++)
    st.nb[v->ret_val[r]] = 1;
  dfs(s, v->nops - 1, &st);
  state_free(&st);
}

/* ---- enumerate: every subset ------------------------------------------------------- */

static void enumerate(search *s) {
  const remat_split_view *v = s->v;
  int *list = xcalloc((size_t)s->ncand + 1, sizeof *list), n = 0;
  for (int x = 0; x < v->nvals; x++)
    if (s->cand[x])
      list[n++] = x;
  unsigned char *sv = xcalloc((size_t)v->nvals + 1, 1);
  for (unsigned long m = 0; m < 1ul << n; m++) {
    memset(sv, 0, (size_t)v->nvals);
    for (int b = 0; b < n; b++)
      sv[list[b]] = (m >> b) & 1;
    remat_peak_point pt = evaluate(s, sv, NULL);
    if (valid(s, sv) && alias_ok(s, sv))
      consider(s, sv, pt);
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
          !((f & RO_SAVE_TAG) || ((f & RO_BANNED) && s->in_f[i])))
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

static void heuristic(search *s, const unsigned char *bytes_saved) {
  const remat_split_view *v = s->v;
  size_t n = (size_t)v->nvals + 1;
  unsigned char *cur = xcalloc(n, 1), *try = xcalloc(n, 1), *next = xcalloc(n, 1);
  /* seeds: the min-cut's split, no remat, recompute all */
  for (int seed = 0; seed < 3; seed++) {
    for (int x = 0; x < v->nvals; x++)
      try[x] = seed == 0   ? bytes_saved[x]
               : seed == 1 ? (v->vflags[x] & RV_BW_READ) && !s->never[x]
                           : 0;
    if (repair(s, try))
      consider(s, try, evaluate(s, try, NULL));
  }
  if (!s->have_best) {
    free(cur);
    free(try);
    free(next);
    return;
  }
  int *mv = xcalloc(2 * MOVES_PER_GROUP + 1, sizeof *mv);
  memcpy(cur, s->best, n - 1);
  remat_peak_point cur_pt = s->best_pt;
  for (int round = 0; round < MAX_ROUNDS && s->work < WORK_LIMIT; round++) {
    remat_mem_schedule c;
    evaluate(s, cur, &c); /* leaves cur's plan in s->in_* */
    int nm = moves(s, cur, &c, mv);
    remat_mem_schedule_free(&c);
    bool found = false;
    remat_peak_point next_pt = cur_pt;
    for (int k = 0; k < nm && s->work < WORK_LIMIT; k++) {
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
  free(cur);
  free(try);
  free(next);
}

/* ---- the search ---------------------------------------------------------------------- */

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
  init_sets(&s);
  res->candidates = s.ncand;
  remat_peak_method m = pb->method;
  bool auto_exact = m == REMAT_PEAK_AUTO && s.ncand <= REMAT_PEAK_EXACT_MAX;
  if (m == REMAT_PEAK_AUTO)
    m = auto_exact ? REMAT_PEAK_EXACT : REMAT_PEAK_HEURISTIC;
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
    if (m == REMAT_PEAK_EXACT) {
      if (auto_exact)
        s.leaf_cap = s.evaluated + REMAT_PEAK_EXACT_SPLITS;
      exact(&s);
      if (s.stopped) { /* too many splits: the heuristic, which keeps the best so far */
        res->method = "heuristic (the exact search stopped)";
        heuristic(&s, pb->bytes_saved);
      }
    } else if (m == REMAT_PEAK_ENUMERATE)
      enumerate(&s);
    else
      heuristic(&s, pb->bytes_saved);
    if (!s.have_best)
      remat_fatal("no split keeps the rules, not even the min-cut's");
    /* the plan of the best set, with its arguments */
    remat_mem_sim_plan(s.sim, s.best, s.in_f, s.in_b);
    res->saved = xcalloc(n, 1);
    memcpy(res->saved, s.best, n - 1);
    res->chosen = s.best_pt;
    if (s.budget && s.best_pt.peak > s.budget)
      rc = 1;
  }
  res->evaluated = s.evaluated;
  remat_mem_sim_free(s.sim);
  free(s.cand);
  free(s.never);
  free(s.root);
  free(s.owner);
  free(s.in_f);
  free(s.in_b);
  free(s.need_b);
  free(s.best);
  res->ms = remat_now_ms() - t0;
  return rc;
}
