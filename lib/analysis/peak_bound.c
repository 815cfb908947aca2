/* peak_bound.c: lower bounds on the peak of the peak search's splits (see peak_bound.h;
 * the argument that each is a lower bound is in docs/design.md, "Splits chosen for the
 * peak", "The lower bound").
 *
 * Each bound is a set of buffers every split holds at one step (counted once per buffer:
 * by the value a reshape chain aliases) plus, where the step's needs may be met in many
 * ways, a minimum cut: the forward values live at the step must let the backward compute
 * what it reads later. The cut's network has a node pair per forward value (capacity:
 * its bytes; infinite where the value can never be live there), infinite edges from
 * each operand to its users, from the source into the values the backward cannot
 * compute (primal arguments, saved values, results of save-tagged ops and of banned ops
 * the forward runs) and from the values read later into the sink. Values that cost
 * nothing (parameters, immediates, results of ops without operands) and those already
 * counted live are left out: the backward has them. */
#include "peak_bound.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "flow_network.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "support.h"

struct remat_peak_bound {
  const remat_split_view *v;
  const uint64_t *bytes;
  const int *root;
  const unsigned char *cand;
  unsigned char *bw;       /* [nops] backward ops every split runs: a gradient needs them */
  unsigned char *step;     /* [nops] ops with a buffer of their own (not only immediates) */
  unsigned char *fwd_need; /* [nops] forward ops every split runs: an output needs them */
  unsigned char *unrec;    /* [nvals] forward values the backward never computes */
  unsigned char *free_;    /* [nvals] values any step has for nothing */
  unsigned char *grad;     /* [nvals] returned as a gradient */
  int *first_rd, *last_rd; /* [nvals] each value's first and last reader among them, or -1 */
  int *last_fwd_rd;        /* [nvals] its last reader among the fwd_need ops, or -1 */
  uint64_t params;         /* bytes of the parameters (live at every step) */
  bool fwd_step;           /* every forward has a step: an output has a buffer */
  /* scratch, by stamp */
  int stamp;
  int *counted; /* [nvals] buffers (roots) counted live */
  int *node;    /* [nvals] network node, valid where node_at == stamp */
  int *node_at;
  int *stack, *list; /* [nvals] */
};

static bool forward_value(const remat_split_view *v, int x) {
  return !(v->vflags[x] & (RV_BW | RV_TANGENT));
}

remat_peak_bound *remat_peak_bound_new(const remat_split_view *v, const uint64_t *bytes,
                                       const int *root, const unsigned char *cand) {
  remat_peak_bound *b = xcalloc(1, sizeof *b);
  size_t nops = (size_t)v->nops + 1, nvals = (size_t)v->nvals + 1;
  b->v = v;
  b->bytes = bytes;
  b->root = root;
  b->cand = cand;
  b->bw = xcalloc(nops, 1);
  b->step = xcalloc(nops, 1);
  b->fwd_need = xcalloc(nops, 1);
  b->unrec = xcalloc(nvals, 1);
  b->free_ = xcalloc(nvals, 1);
  b->grad = xcalloc(nvals, 1);
  b->first_rd = xcalloc(nvals, sizeof *b->first_rd);
  b->last_rd = xcalloc(nvals, sizeof *b->last_rd);
  b->last_fwd_rd = xcalloc(nvals, sizeof *b->last_fwd_rd);
  b->counted = xcalloc(nvals, sizeof *b->counted);
  b->node = xcalloc(nvals, sizeof *b->node);
  b->node_at = xcalloc(nvals, sizeof *b->node_at);
  b->stack = xcalloc(nvals, sizeof *b->stack);
  b->list = xcalloc(nvals, sizeof *b->list);
  unsigned char *need = xcalloc(nvals, 1);
  for (int r = v->num_outputs; r < v->nret; r++)
    b->grad[v->ret_val[r]] = need[v->ret_val[r]] = 1;
  for (int i = v->nops - 1; i >= 0; i--) {
    bool n = false;
    FOR_RESULTS(v, i, r) n |= need[r] != 0;
    if (v->oflags[i] & RO_BW) {
      b->bw[i] = n;
      if (n)
        FOR_OPERANDS(v, i, u) need[u] = 1;
    }
    FOR_RESULTS(v, i, r) {
      bool imm = (v->oflags[i] & RO_CONST) && rt_type_is_scalar(mlirValueGetType(v->vals[r]));
      b->step[i] |= !imm;
    }
  }
  memset(need, 0, nvals - 1);
  for (int r = 0; r < v->num_outputs; r++) {
    int x = v->ret_val[r];
    need[x] = 1;
    b->fwd_step |= v->val_op[x] >= 0 && b->step[v->val_op[x]];
  }
  for (int i = v->nops - 1; i >= 0; i--) {
    if (v->oflags[i] & RO_BW)
      continue;
    FOR_RESULTS(v, i, r) b->fwd_need[i] |= need[r];
    if (b->fwd_need[i])
      FOR_OPERANDS(v, i, u) need[u] = 1;
  }
  free(need);
  for (int x = 0; x < v->nvals; x++) {
    unsigned f = v->vflags[x];
    int op = v->val_op[x];
    if (f & RV_PARAM)
      b->params += bytes[x];
    if (!forward_value(v, x))
      continue;
    if (op < 0) {
      b->unrec[x] = !(f & RV_PARAM);
      b->free_[x] = (f & RV_PARAM) != 0;
      continue;
    }
    unsigned of = v->oflags[op];
    b->unrec[x] = (of & (RO_SAVE_TAG | RO_FORWARD)) || ((of & RO_BANNED) && b->fwd_need[op]);
    b->free_[x] = !b->unrec[x] && (bytes[x] == 0 || v->opnd_start[op] == v->opnd_start[op + 1]);
  }
  for (int x = 0; x < v->nvals; x++)
    b->first_rd[x] = b->last_rd[x] = b->last_fwd_rd[x] = -1;
  for (int i = 0; i < v->nops; i++) {
    if (b->fwd_need[i])
      FOR_OPERANDS(v, i, u) b->last_fwd_rd[u] = i;
    if (!b->bw[i])
      continue;
    FOR_OPERANDS(v, i, u) {
      if (b->first_rd[u] < 0)
        b->first_rd[u] = i;
      b->last_rd[u] = i;
    }
  }
  return b;
}

void remat_peak_bound_free(remat_peak_bound *b) {
  if (!b)
    return;
  free(b->bw);
  free(b->step);
  free(b->fwd_need);
  free(b->unrec);
  free(b->free_);
  free(b->grad);
  free(b->first_rd);
  free(b->last_rd);
  free(b->last_fwd_rd);
  free(b->counted);
  free(b->node);
  free(b->node_at);
  free(b->stack);
  free(b->list);
  free(b);
}

/* ---- a partial split ------------------------------------------------------------------ */

typedef enum { UNDECIDED, SAVED, IN_BWD, ABSENT } status;

/* What a split that completes P does with forward value X. */
static status status_of(const remat_peak_bound *b, const remat_peak_partial *p, int x) {
  if (!p || b->v->val_op[x] <= p->above)
    return UNDECIDED;
  return p->sv[x] ? SAVED : p->nb[x] ? IN_BWD : ABSENT;
}

/* Whether no completion of P computes forward value X in the backward. */
static bool no_recompute(const remat_peak_bound *b, const remat_peak_partial *p, int x) {
  if (b->unrec[x])
    return true;
  int op = b->v->val_op[x];
  if (!p || op <= p->above)
    return false;
  if (p->sv[x])
    return true;
  bool in_f = false; /* a banned op the forward runs */
  FOR_RESULTS(b->v, op, r) in_f |= p->nf[r] || p->sv[r];
  return (b->v->oflags[op] & RO_BANNED) && in_f;
}

/* Whether every completion of P runs op OP in the forward: an output needs it, or a
 * decided op or saved value does. */
static bool surely_forward(const remat_peak_bound *b, const remat_peak_partial *p, int op) {
  if (b->fwd_need[op])
    return true;
  if (p)
    FOR_RESULTS(b->v, op, r) {
      if (p->nf[r])
        return true;
    }
  return false;
}

/* ---- buffers counted live, and the cut ---------------------------------------------- */

/* Counts X's buffer live at the step bounded (stamp): its bytes once. */
static uint64_t count(remat_peak_bound *b, int x) {
  if ((b->v->vflags[x] & RV_PARAM) || b->counted[b->root[x]] == b->stamp)
    return 0;
  b->counted[b->root[x]] = b->stamp;
  return b->bytes[x];
}

static bool available(const remat_peak_bound *b, int x) {
  return b->free_[x] || b->counted[b->root[x]] == b->stamp;
}

/* What a minimum cut charges: a value kept (live at the step, or saved) LAMBDA x its
 * bytes, or KEEP[x]; one the backward computes past the cut, with OP_COST, its op's share
 * of OP_COST when that op is undecided in P and the forward surely runs it (the
 * recompute cost it adds), or DERIVE[x]. KEPT (may be NULL) gets the values kept. */
typedef struct cut_costs {
  double lambda;
  const double *op_cost, *keep, *derive;
  unsigned char *kept;
} cut_costs;

/* A minimum cut over the forward values not available, from which the backward computes
 * TARGETS, charged as C says. FWD_END: the values kept are the saved set (only undecided
 * candidates and primal arguments may be); else those live at a backward step (any but
 * the ones P leaves out of the backward). *WORK: the network's edges are added. */
static double min_cut(remat_peak_bound *b, const remat_peak_partial *p, bool fwd_end,
                      const int *targets, int ntargets, const cut_costs *c, long *work) {
  const remat_split_view *v = b->v;
  int n = 0;
  for (int k = 0; k < ntargets; k++) {
    int x = targets[k];
    if (available(b, x) || b->node_at[x] == b->stamp)
      continue;
    b->node_at[x] = b->stamp;
    b->node[x] = n;
    b->list[n++] = x;
  }
  int nt = n;
  size_t edges = (size_t)nt;
  for (int k = 0; k < n; k++) { /* the ancestors the backward may compute them from */
    int x = b->list[k], op = v->val_op[x];
    edges += 2;
    if (op < 0)
      continue;
    FOR_OPERANDS(v, op, u) {
      if (available(b, u))
        continue;
      edges++;
      if (b->node_at[u] == b->stamp)
        continue;
      b->node_at[u] = b->stamp;
      b->node[u] = n;
      b->list[n++] = u;
    }
  }
  if (n == 0)
    return 0;
  flow_network *net = flow_network_create(2 + 2 * (size_t)n);
  if (!net || flow_network_reserve_edges(net, edges))
    remat_fatal("flow_network_create failed");
#define EDGE(a, z, w)                              \
  do {                                             \
    if (flow_network_add_edge(net, (a), (z), (w))) \
      remat_fatal("flow_network_add_edge failed"); \
  } while (0)
  for (int k = 0; k < n; k++) {
    int x = b->list[k], op = v->val_op[x];
    size_t in = 2 + 2 * (size_t)k, out = in + 1;
    status st = status_of(b, p, x);
    bool keep = fwd_end ? (op < 0 || (st == UNDECIDED && b->cand[x])) : st != ABSENT;
    EDGE(in, out, !keep ? FLOW_INFINITY : c->keep ? c->keep[x] : c->lambda * (double)b->bytes[x]);
    if (k < nt)
      EDGE(out, 1, FLOW_INFINITY);
    if (no_recompute(b, p, x) || st == ABSENT)
      EDGE(0, in, FLOW_INFINITY);
    else if (c->derive)
      EDGE(0, in, c->derive[x]);
    else if (c->op_cost && op >= 0 && st == UNDECIDED && b->root[x] == x &&
             surely_forward(b, p, op)) /* an alias costs nothing: it may share a buffer kept */
      EDGE(0, in, c->op_cost[op] / (v->op_res[op + 1] - v->op_res[op]));
    if (op >= 0)
      FOR_OPERANDS(v, op, u) {
        if (!available(b, u))
          EDGE(2 + 2 * (size_t)b->node[u] + 1, in, FLOW_INFINITY);
      }
  }
#undef EDGE
  *work += (long)edges;
  double f = flow_network_max_flow(net, 0, 1);
  if (f < 0)
    remat_fatal("flow_network_max_flow failed");
  if (c->kept && !isinf(f)) {
    unsigned char *side = xcalloc(2 + 2 * (size_t)n, 1);
    if (flow_network_source_side(net, side))
      remat_fatal("flow_network_source_side failed");
    for (int k = 0; k < n; k++)
      c->kept[b->list[k]] = side[2 + 2 * k] && !side[3 + 2 * k];
    free(side);
  }
  flow_network_destroy(net);
  /* infinite: no completion keeps the rules; the search finds that itself */
  return isinf(f) ? 0 : f;
}

/* ---- the bounds ----------------------------------------------------------------------- */

uint64_t remat_peak_bound_bwd_end(remat_peak_bound *b) {
  const remat_split_view *v = b->v;
  bool any = false;
  for (int i = 0; i < v->nops; i++)
    any |= b->bw[i] && b->step[i]; /* a backward step every split has */
  if (!any)
    return 0;
  b->stamp++;
  uint64_t sum = b->params;
  for (int r = v->num_outputs; r < v->nret; r++)
    sum += count(b, v->ret_val[r]);
  return sum;
}

/* The buffers every completion of P holds at STEP (counted, by a new stamp) and, in
 * b->stack (*N of them), the forward values read after it that a completion may compute
 * later from what is live there. */
static uint64_t step_fixed(remat_peak_bound *b, int step, const remat_peak_partial *p, int *n) {
  const remat_split_view *v = b->v;
  b->stamp++;
  uint64_t sum = b->params;
  *n = 0;
  if (step == REMAT_PEAK_FWD_END || b->fwd_need[step]) {
    /* a forward step: its operands and results, what the forward reads later or returns,
     * and the saved values made so far, which let the backward compute what it reads of
     * the values made so far */
    int last = step == REMAT_PEAK_FWD_END ? v->nops : step;
    if (step != REMAT_PEAK_FWD_END) {
      FOR_OPERANDS(v, step, u) sum += count(b, u);
      FOR_RESULTS(v, step, r) sum += count(b, r);
    }
    for (int r = 0; r < v->num_outputs; r++)
      if (v->val_op[v->ret_val[r]] <= last)
        sum += count(b, v->ret_val[r]);
    for (int x = 0; x < v->nvals; x++) {
      if (!forward_value(v, x) || v->val_op[x] > last)
        continue;
      if (status_of(b, p, x) == SAVED || b->last_fwd_rd[x] > last)
        sum += count(b, x);
      else if (b->first_rd[x] >= 0 || b->grad[x] || (p && p->nb[x]))
        b->stack[(*n)++] = x; /* the backward reads it */
    }
    return sum;
  }
  FOR_OPERANDS(v, step, u) sum += count(b, u);
  FOR_RESULTS(v, step, r) sum += count(b, r);
  for (int x = 0; x < v->nvals; x++) {
    /* read after the step (a gradient: at the end); made or read at or before it */
    bool later = b->grad[x] || b->last_rd[x] > step;
    if (!later)
      continue;
    if (v->vflags[x] & RV_TANGENT) { /* live from the backward's start to its last use */
      sum += count(b, x);
      continue;
    }
    if (v->vflags[x] & RV_BW) {
      if (v->val_op[x] <= step)
        sum += count(b, x);
      continue;
    }
    /* a forward value: saved, or computed at most once in the backward */
    bool earlier = b->first_rd[x] >= 0 && b->first_rd[x] <= step;
    if (earlier || no_recompute(b, p, x))
      sum += count(b, x);
    else
      b->list[(*n)++] = x;
  }
  memcpy(b->stack, b->list, (size_t)*n * sizeof *b->stack);
  return sum;
}

static bool forward_step(const remat_peak_bound *b, int step) {
  return step == REMAT_PEAK_FWD_END || b->fwd_need[step];
}

/* An upper bound on min_cut's value for TARGETS at a peak step (lambda 1): the cut of
 * every target's own node (UINT64_MAX when one is never live there). A target counted
 * twice only raises it. */
static uint64_t cut_upper(const remat_peak_bound *b, const remat_peak_partial *p, bool fwd_end,
                          const int *targets, int ntargets) {
  uint64_t sum = 0;
  for (int k = 0; k < ntargets; k++) {
    int x = targets[k];
    if (available(b, x))
      continue;
    status st = status_of(b, p, x);
    bool keep = fwd_end ? (b->v->val_op[x] < 0 || (st == UNDECIDED && b->cand[x])) : st != ABSENT;
    if (!keep)
      return UINT64_MAX;
    sum += b->bytes[x];
  }
  return sum;
}

static bool is_step(const remat_peak_bound *b, int step) {
  if (step == REMAT_PEAK_FWD_END)
    return b->fwd_step;
  return step >= 0 && step < b->v->nops && (b->bw[step] || b->fwd_need[step]) && b->step[step];
}

/* The bound at STEP; with NEED, one on the same side of *NEED (remat_peak_bound_near). */
static uint64_t bound_at(remat_peak_bound *b, int step, const remat_peak_partial *p,
                         const uint64_t *need, long *work) {
  if (!is_step(b, step))
    return 0;
  int n;
  uint64_t sum = step_fixed(b, step, p, &n);
  if (need) {
    /* the buffers alone exceed NEED, or the largest cut cannot bring them to it: the
     * bound is on the same side of NEED as SUM */
    if (sum > *need)
      return sum;
    uint64_t up = cut_upper(b, p, forward_step(b, step), b->stack, n);
    if (up != UINT64_MAX && sum + up < *need)
      return sum;
  }
  cut_costs c = {1, NULL, NULL, NULL, NULL};
  return sum + (uint64_t)floor(min_cut(b, p, forward_step(b, step), b->stack, n, &c, work));
}

uint64_t remat_peak_bound_at(remat_peak_bound *b, int step, const remat_peak_partial *p) {
  long work = 0;
  return bound_at(b, step, p, NULL, &work);
}

uint64_t remat_peak_bound_near(remat_peak_bound *b, int step, const remat_peak_partial *p,
                               uint64_t need) {
  long work = 0;
  return bound_at(b, step, p, &need, &work);
}

double remat_peak_bound_cost(remat_peak_bound *b, int step, const remat_peak_partial *p,
                             uint64_t limit, const double *op_cost, double lambda, double need) {
  if (!is_step(b, step))
    return 0;
  int n;
  uint64_t sum = step_fixed(b, step, p, &n);
  if (sum > limit)
    return 0; /* no completion peaks within LIMIT: the peak's bound says so */
  /* keeping every target is a cut: the bound is at most that, less the Lagrangian term */
  uint64_t up = cut_upper(b, p, forward_step(b, step), b->stack, n);
  if (up != UINT64_MAX &&
      lambda * (double)up - lambda * (double)(limit - sum) < need * (1 - 1e-6) - 1e-6)
    return 0;
  long work = 0;
  cut_costs cc = {lambda, op_cost, NULL, NULL, NULL};
  double c = min_cut(b, p, forward_step(b, step), b->stack, n, &cc, &work) -
             lambda * (double)(limit - sum);
  return c > 0 ? c : 0;
}

void remat_peak_bound_cut_saved(remat_peak_bound *b, const double *save, const double *recompute,
                                unsigned char *saved) {
  const remat_split_view *v = b->v;
  memset(saved, 0, (size_t)v->nvals);
  if (!b->fwd_step)
    return;
  int n;
  step_fixed(b, REMAT_PEAK_FWD_END, NULL, &n);
  long work = 0;
  cut_costs c = {1, NULL, save, recompute, saved};
  min_cut(b, NULL, true, b->stack, n, &c, &work);
  /* the outputs the backward reads, or computes from (the cut left them out: they are
   * live at the forward's end anyway) */
  for (int x = v->nvals - 1; x >= 0; x--) {
    int op = v->val_op[x];
    bool derived = b->node_at[x] == b->stamp && !saved[x];
    if (!derived || op < 0)
      continue;
    FOR_OPERANDS(v, op, u) {
      if (!available(b, u) || (v->vflags[u] & RV_PARAM) || b->free_[u])
        continue;
      saved[u] = 1;
    }
  }
  for (int r = 0; r < v->num_outputs; r++) {
    int x = v->ret_val[r];
    if (b->first_rd[x] >= 0 || b->grad[x])
      saved[x] = !b->free_[x] && !(v->vflags[x] & RV_PARAM);
  }
}

int remat_peak_bound_ops(const remat_peak_bound *b, int *ops) {
  int n = 0;
  for (int i = 0; i < b->v->nops; i++)
    if (is_step(b, i))
      ops[n++] = i;
  return n;
}

typedef struct step_live {
  uint64_t live;
  int op;
} step_live;

static int by_live_desc(const void *a, const void *c) {
  const step_live *x = a, *y = c;
  if (x->live != y->live)
    return x->live < y->live ? 1 : -1;
  return x->op - y->op;
}

uint64_t remat_peak_bound_split(remat_peak_bound *b, const remat_mem_schedule *c, long work_limit,
                                int *flows) {
  long work = 0;
  uint64_t best = remat_peak_bound_bwd_end(b),
           fe = bound_at(b, REMAT_PEAK_FWD_END, NULL, NULL, &work);
  int nflows = 1;
  if (fe > best)
    best = fe;
  step_live *s = xcalloc((size_t)c->nsteps + 1, sizeof *s);
  int n = 0;
  for (int t = 0; t < c->nsteps; t++)
    if (t < c->nfwd ? b->fwd_need[c->op[t]] && is_step(b, c->op[t]) : b->bw[c->op[t]])
      s[n++] = (step_live){c->live[t], c->op[t]};
  qsort(s, (size_t)n, sizeof *s, by_live_desc);
  for (int k = 0; k < n && s[k].live > best && (!work_limit || work < work_limit); k++) {
    uint64_t lb = bound_at(b, s[k].op, NULL, NULL, &work);
    nflows++;
    if (lb > best)
      best = lb;
  }
  free(s);
  if (flows)
    *flows = nflows;
  return best;
}
