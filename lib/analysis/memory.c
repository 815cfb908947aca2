/* memory.c: the peak-memory estimate of a split (see memory.h; the model, and what a real
 * allocator adds to it, is in docs/design.md "Memory estimate").
 *
 * Each case is a saved set. From it two reverse walks give the ops each function runs
 * (the min-cut's own plan for the split, the same walks for the other cases); a schedule
 * orders them; buffers get an allocation step and a last step; a difference array over
 * the steps gives the live bytes. Every walk is a loop over arrays: O(ops + uses), plus a
 * sort of the ops recomputed before each backward op. */
#include "memory.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "report.h"
#include "rt.h"
#include "support.h"

const char *remat_mem_case_name(remat_mem_case c) {
  switch (c) {
  case REMAT_MEM_NO_REMAT: return "no remat";
  case REMAT_MEM_SPLIT: return "this split";
  case REMAT_MEM_RECOMPUTE_ALL: return "recompute all";
  case REMAT_MEM_NCASES: break;
  }
  return "?";
}

/* Shared state of one estimate. */
typedef struct sim {
  const remat_split_view *v;
  uint64_t *bytes; /* [nvals] bytes of a value's buffer; 0 for immediates */
  bool *imm;       /* [nvals] scalar constants: immediates, never a buffer */
  bool *reshape;   /* [nops] rt.reshape: its result aliases its operand */
  bool *step_op;   /* [nops] ops that are steps (all but the immediates' ops) */
  uint64_t *work;  /* [nops] bytes an op allocates while it runs (attention's workspace) */
  bool eager_fwd;  /* the forward in fwd_order's order (objective=peak), else program order */
} sim;

/* What one case runs: in_f/in_b per op, saved per value. */
typedef struct plan {
  unsigned char *in_f, *in_b, *saved;
} plan;

/* The min-cut's plan walks (passes/mincut.c plan()) for a saved set: the backward runs
 * what the gradients need and is not saved; the forward what the outputs and the saved
 * values need. SAVE_ARGS: primal arguments the backward reaches join the saved set
 * ("recompute all"). */
static void plan_walks(const sim *s, plan *p, bool save_args) {
  const remat_split_view *v = s->v;
  unsigned char *need = xcalloc(v->nvals, 1);
  for (int r = v->num_outputs; r < v->nret; r++)
    need[v->ret_val[r]] = 1;
  for (int i = v->nops - 1; i >= 0; i--) {
    bool n = false;
    FOR_RESULTS(v, i, r) n |= need[r] && !p->saved[r];
    if (!n)
      continue;
    p->in_b[i] = 1;
    FOR_OPERANDS(v, i, u) need[u] = 1;
  }
  for (int a = 0; a < v->nargs; a++)
    if (need[a] && !(v->vflags[a] & RV_TANGENT) && !p->saved[a]) {
      if (!save_args)
        remat_fatal("the backward needs a primal argument that is not saved");
      p->saved[a] = 1;
    }
  memset(need, 0, v->nvals);
  for (int r = 0; r < v->num_outputs; r++)
    need[v->ret_val[r]] = 1;
  for (int x = 0; x < v->nvals; x++)
    need[x] |= p->saved[x];
  for (int i = v->nops - 1; i >= 0; i--) {
    if (v->oflags[i] & RO_BW)
      continue;
    bool n = false;
    FOR_RESULTS(v, i, r) n |= need[r] != 0;
    if (!n)
      continue;
    p->in_f[i] = 1;
    FOR_OPERANDS(v, i, u) need[u] = 1;
  }
  free(need);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The backward's order (memory.h): its ops that depend on a tangent in program order,
 * each preceded by the forward ops it needs the backward to run (recomputed or moved)
 * that no earlier one needed, in program order, so each runs just before its first user
 * (as PyTorch's partitioner reorders recomputation to mimic the autograd engine); forward
 * ops only the gradients read come last. Program order is topological and each list
 * holds every not yet placed forward op its backward op reaches, so the order is too. */
int remat_bwd_order(int nops, const int *val_op, const int *opnd_start, const int *opnd,
                    const unsigned char *bw, const unsigned char *in_b, const unsigned char *saved,
                    int *order) {
  unsigned char *done = xcalloc((size_t)nops + 1, 1);
  /* Each op is expanded once, so the stack holds at most every operand slot once. */
  int *stack = xcalloc((size_t)opnd_start[nops] + 1, sizeof *stack);
  int n = 0;
  for (int a = 0; a < nops; a++) {
    if (!in_b[a] || !bw[a])
      continue;
    int top = 0, first = n;
    for (int k = opnd_start[a]; k < opnd_start[a + 1]; k++)
      stack[top++] = opnd[k];
    while (top > 0) {
      int u = stack[--top], op = val_op[u];
      if (op < 0 || saved[u] || !in_b[op] || bw[op] || done[op])
        continue;
      done[op] = 1;
      order[n++] = op;
      for (int k = opnd_start[op]; k < opnd_start[op + 1]; k++)
        stack[top++] = opnd[k];
    }
    qsort(order + first, (size_t)(n - first), sizeof *order, cmp_int);
    order[n++] = a;
  }
  for (int i = 0; i < nops; i++)
    if (in_b[i] && !bw[i] && !done[i])
      order[n++] = i;
  free(done);
  free(stack);
  return n;
}

static int fwd_order(const sim *s, const unsigned char *in_f, const unsigned char *saved,
                     int *order);

/* The steps: the forward's ops in FWD's order (NFWD of them; NULL: fwd_order's when
 * S->eager_fwd, else program order), then the backward's in ORDER (the order @f_bwd runs
 * them: for the split, the one the min-cut emitted), both without the immediates' ops. */
static void schedule(const sim *s, const plan *p, const int *fwd, int nfwd, const int *order,
                     int norder, remat_mem_schedule *out) {
  const remat_split_view *v = s->v;
  out->op = xcalloc(2 * (size_t)v->nops + 1, sizeof *out->op);
  int n = 0, *own = NULL;
  if (!fwd && s->eager_fwd) {
    fwd = own = xcalloc((size_t)v->nops + 1, sizeof *own);
    nfwd = fwd_order(s, p->in_f, p->saved, own);
  }
  if (fwd) {
    for (int k = 0; k < nfwd; k++) {
      int i = fwd[k];
      if (i < 0 || i >= v->nops || !p->in_f[i])
        remat_fatal("the forward's order names an op the forward does not run");
      if (s->step_op[i])
        out->op[n++] = i;
    }
  } else {
    for (int i = 0; i < v->nops; i++)
      if (p->in_f[i] && s->step_op[i])
        out->op[n++] = i;
  }
  free(own);
  out->nfwd = n;
  for (int k = 0; k < norder; k++) {
    int i = order[k];
    if (i < 0 || i >= v->nops || !p->in_b[i])
      remat_fatal("the backward's order names an op the backward does not run");
    if (s->step_op[i])
      out->op[n++] = i;
  }
  out->nsteps = n;
}

/* Buffers: allocated at a step, freed after their last step. */
typedef struct buffers {
  int n;
  int *alloc, *last;
  uint64_t *bytes;
} buffers;

static int buf_new(buffers *b, uint64_t bytes, int step) {
  b->alloc[b->n] = step;
  b->last[b->n] = step;
  b->bytes[b->n] = bytes;
  return b->n++;
}

static void buf_use(buffers *b, int id, int step) {
  if (b->last[id] < step)
    b->last[id] = step;
}

/* Runs the ops of steps [from, to) with value->buffer map BUF (reshape results alias
 * their operand's buffer). */
static void run_steps(const sim *s, const remat_mem_schedule *c, int from, int to, int *buf,
                      buffers *b) {
  const remat_split_view *v = s->v;
  for (int t = from; t < to; t++) {
    int i = c->op[t];
    FOR_OPERANDS(v, i, u) {
      if (s->imm[u])
        continue;
      if (buf[u] < 0)
        remat_fatal("an op reads a value its function does not have");
      buf_use(b, buf[u], t);
    }
    FOR_RESULTS(v, i, r) {
      if (s->imm[r])
        continue;
      int src = v->opnd_start[i] < v->opnd_start[i + 1] ? v->opnd[v->opnd_start[i]] : -1;
      buf[r] = s->reshape[i] && src >= 0 && buf[src] >= 0 ? buf[src] : buf_new(b, s->bytes[r], t);
    }
    if (s->work[i]) /* live during its own step only */
      buf_new(b, s->work[i], t);
  }
}

/* Live bytes per step of one case. */
static void simulate(const sim *s, const plan *p, const int *fwd, int nfwd, const int *order,
                     int norder, remat_mem_schedule *c) {
  const remat_split_view *v = s->v;
  schedule(s, p, fwd, nfwd, order, norder, c);
  int nsteps = c->nsteps, end = nsteps - 1;
  buffers b = {0};
  size_t cap = 2 * (size_t)v->nvals + (size_t)v->nops + 1;
  b.alloc = xcalloc(cap, sizeof *b.alloc);
  b.last = xcalloc(cap, sizeof *b.last);
  b.bytes = xcalloc(cap, sizeof *b.bytes);
  int *fbuf = xcalloc(v->nvals, sizeof *fbuf), *bbuf = xcalloc(v->nvals, sizeof *bbuf);
  for (int x = 0; x < v->nvals; x++)
    fbuf[x] = bbuf[x] = -1;
  /* Arguments: parameters live for the whole step, counted once; other primal arguments
   * from the start until their last use; tangents from the backward's start. */
  for (int a = 0; a < v->nargs; a++) {
    unsigned f = v->vflags[a];
    if (f & RV_TANGENT) {
      bbuf[a] = buf_new(&b, s->bytes[a], c->nfwd);
      b.last[bbuf[a]] = c->nfwd - 1; /* unused: never live */
    } else if (f & RV_PARAM) {
      fbuf[a] = bbuf[a] = buf_new(&b, s->bytes[a], 0);
      b.last[fbuf[a]] = end;
    } else {
      fbuf[a] = buf_new(&b, s->bytes[a], 0);
      b.last[fbuf[a]] = -1; /* live from its first use on: see buf_use */
    }
  }
  run_steps(s, c, 0, c->nfwd, fbuf, &b);
  for (int r = 0; r < v->num_outputs; r++) /* returned: live to the forward's end */
    if (fbuf[v->ret_val[r]] >= 0)
      buf_use(&b, fbuf[v->ret_val[r]], c->nfwd - 1);
  for (int x = 0; x < v->nvals; x++)
    if (p->saved[x]) {
      if (fbuf[x] < 0 && !s->imm[x])
        remat_fatal("a saved value the forward does not compute");
      bbuf[x] = fbuf[x];
      if (fbuf[x] >= 0) /* returned: live to the forward's end, used or not later */
        buf_use(&b, fbuf[x], c->nfwd - 1);
      c->saved_bytes = sat_add(c->saved_bytes, s->bytes[x]);
    }
  run_steps(s, c, c->nfwd, nsteps, bbuf, &b);
  for (int r = v->num_outputs; r < v->nret; r++)
    if (bbuf[v->ret_val[r]] >= 0)
      buf_use(&b, bbuf[v->ret_val[r]], end);
  c->live = xcalloc((size_t)nsteps + 1, sizeof *c->live);
  uint64_t *freed = xcalloc((size_t)nsteps + 1, sizeof *freed);
  for (int k = 0; k < b.n; k++) {
    if (b.last[k] < b.alloc[k] || b.alloc[k] >= nsteps)
      continue;
    c->live[b.alloc[k]] = sat_add(c->live[b.alloc[k]], b.bytes[k]);
    freed[b.last[k] + 1] = sat_add(freed[b.last[k] + 1], b.bytes[k]);
  }
  uint64_t cur = 0;
  c->peak_step = -1;
  for (int t = 0; t < nsteps; t++) {
    cur = sat_add(cur, c->live[t]);
    cur = cur > freed[t] ? cur - freed[t] : 0; /* exact unless saturated */
    c->live[t] = cur;
    if (c->peak_step < 0 || cur > c->peak) {
      c->peak = cur;
      c->peak_step = t;
    }
  }
  if (c->peak_step >= 0) {
    int i = c->op[c->peak_step];
    c->peak_where = c->peak_step < c->nfwd ? "forward"
                    : v->oflags[i] & RO_BW ? "backward"
                    : p->in_f[i]           ? "backward, recomputed"
                                           : "backward, moved";
  }
  free(freed);
  free(fbuf);
  free(bbuf);
  free(b.alloc);
  free(b.last);
  free(b.bytes);
}

/* What running op I again costs: its matmul or conv flops; *BYTES += its operand + result bytes. */
static double op_cost(const sim *s, int i, uint64_t *bytes) {
  const remat_split_view *v = s->v;
  FOR_OPERANDS(v, i, u) *bytes = sat_add(*bytes, s->bytes[u]);
  FOR_RESULTS(v, i, r) *bytes = sat_add(*bytes, s->bytes[r]);
  return rt_op_flops(v->ops[i]);
}

/* Ops run in both functions: what the backward spends recomputing. */
static void recompute_cost(const sim *s, const plan *p, remat_mem_schedule *c) {
  const remat_split_view *v = s->v;
  for (int i = 0; i < v->nops; i++) {
    if (!p->in_f[i] || !p->in_b[i] || (v->oflags[i] & (RO_BW | RO_CONST)))
      continue;
    c->recompute_ops++;
    c->recompute_flops += op_cost(s, i, &c->recompute_bytes);
    if (rt_op_lookup(v->ops[i]) == RT_OP_EXTERN)
      c->extern_flops += rt_extern_flops(v->ops[i]);
  }
}

/* The per-value and per-op facts every simulation of V reads. */
static void sim_init(sim *s, const remat_split_view *v, unsigned char **bw_out) {
  *s = (sim){v, NULL, NULL, NULL, NULL, NULL, false};
  s->bytes = xcalloc(v->nvals, sizeof *s->bytes);
  s->imm = xcalloc(v->nvals, sizeof *s->imm);
  s->reshape = xcalloc(v->nops, sizeof *s->reshape);
  s->step_op = xcalloc(v->nops, sizeof *s->step_op);
  s->work = xcalloc(v->nops, sizeof *s->work);
  for (int x = 0; x < v->nvals; x++) {
    int op = v->val_op[x];
    s->imm[x] = op >= 0 && (v->oflags[op] & RO_CONST) &&
                rt_type_is_scalar(mlirValueGetType(v->vals[x]));
    if (!s->imm[x] && rt_value_bytes(v->vals[x], &s->bytes[x]))
      remat_fatal("a value without a byte size after rt_verify");
  }
  unsigned char *bw = xcalloc((size_t)v->nops + 1, 1);
  for (int i = 0; i < v->nops; i++) {
    bw[i] = (v->oflags[i] & RO_BW) != 0;
    s->reshape[i] = rt_op_lookup(v->ops[i]) == RT_OP_RESHAPE;
    FOR_RESULTS(v, i, r) s->step_op[i] |= !s->imm[r];
    rt_attention a;
    if (rt_op_kind_of(rt_op_lookup(v->ops[i])) == RT_KIND_ATTENTION &&
        rt_attention_of(v->ops[i], &a))
      s->work[i] = rt_attention_workspace(&a, rt_element_bytes(rt_element_type(mlirValueGetType(
                                                  mlirOperationGetOperand(v->ops[i], 0)))));
  }
  *bw_out = bw;
}

static void sim_fini(sim *s) {
  free(s->bytes);
  free(s->imm);
  free(s->reshape);
  free(s->step_op);
  free(s->work);
}

/* One case: P's saved set planned (PLANNED: P's in_f/in_b are given) and simulated with
 * its forward in FWD's order (schedule) and its backward in ORDER, or in remat_bwd_order's
 * order when ORDER is NULL. */
static void run_case(const sim *s, const unsigned char *bw, plan *p, bool planned, bool save_args,
                     const int *fwd, int nfwd, const int *order, int norder,
                     remat_mem_schedule *c) {
  const remat_split_view *v = s->v;
  if (!planned)
    plan_walks(s, p, save_args);
  int *own = NULL;
  if (!order) {
    order = own = xcalloc((size_t)v->nops + 1, sizeof *own);
    norder =
        remat_bwd_order(v->nops, v->val_op, v->opnd_start, v->opnd, bw, p->in_b, p->saved, own);
  }
  simulate(s, p, fwd, nfwd, order, norder, c);
  free(own);
  recompute_cost(s, p, c);
}

void remat_memory_estimate(const remat_split_view *v, remat_mem_estimate *e) {
  memset(e, 0, sizeof *e);
  sim s;
  unsigned char *bw;
  sim_init(&s, v, &bw);
  for (int k = 0; k < REMAT_MEM_NCASES; k++) {
    plan p = {xcalloc(v->nops, 1), xcalloc(v->nops, 1), xcalloc(v->nvals, 1)};
    bool planned = false, save_args = false;
    switch ((remat_mem_case)k) {
    case REMAT_MEM_NO_REMAT:
      for (int x = 0; x < v->nvals; x++)
        p.saved[x] = (v->vflags[x] & RV_BW_READ) != 0;
      break;
    case REMAT_MEM_SPLIT: /* what the min-cut emitted */
      for (int i = 0; i < v->nops; i++) {
        p.in_f[i] = (v->oflags[i] & RO_IN_FWD) != 0;
        p.in_b[i] = (v->oflags[i] & RO_IN_BWD) != 0;
      }
      for (int x = 0; x < v->nvals; x++)
        p.saved[x] = (v->vflags[x] & RV_SAVED) != 0;
      planned = true;
      break;
    case REMAT_MEM_RECOMPUTE_ALL: save_args = true; break;
    case REMAT_MEM_NCASES: break;
    }
    /* the split runs the order the min-cut emitted; the others the same rule's order */
    bool emitted = k == REMAT_MEM_SPLIT && v->bwd_order;
    run_case(&s, bw, &p, planned, save_args, emitted ? v->fwd_order : NULL, emitted ? v->nfwd : 0,
             emitted ? v->bwd_order : NULL, emitted ? v->nbwd : 0, &e->c[k]);
    free(p.in_f);
    free(p.in_b);
    free(p.saved);
  }
  free(bw);
  sim_fini(&s);
}

struct remat_mem_sim {
  sim s;
  unsigned char *bw;
};

remat_mem_sim *remat_mem_sim_new(const remat_split_view *v) {
  remat_mem_sim *m = xcalloc(1, sizeof *m);
  sim_init(&m->s, v, &m->bw);
  m->s.eager_fwd = true;
  return m;
}

void remat_mem_sim_free(remat_mem_sim *m) {
  if (!m)
    return;
  sim_fini(&m->s);
  free(m->bw);
  free(m);
}

void remat_mem_sim_plan(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                        unsigned char *in_b) {
  const remat_split_view *v = m->s.v;
  memset(in_f, 0, (size_t)v->nops);
  memset(in_b, 0, (size_t)v->nops);
  plan p = {in_f, in_b, saved};
  plan_walks(&m->s, &p, true);
}

const uint64_t *remat_mem_sim_bytes(const remat_mem_sim *m) { return m->s.bytes; }

void remat_mem_sim_run(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                       unsigned char *in_b, remat_mem_schedule *c) {
  const remat_split_view *v = m->s.v;
  memset(c, 0, sizeof *c);
  memset(in_f, 0, (size_t)v->nops);
  memset(in_b, 0, (size_t)v->nops);
  plan p = {in_f, in_b, saved};
  run_case(&m->s, m->bw, &p, false, true, NULL, 0, NULL, 0, c);
}

void remat_mem_sim_run_order(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                             unsigned char *in_b, const int *order, int norder,
                             remat_mem_schedule *c) {
  memset(c, 0, sizeof *c);
  plan p = {in_f, in_b, saved};
  run_case(&m->s, m->bw, &p, true, false, NULL, 0, order, norder, c);
}

/* Whether operand K of op I is its first occurrence among I's operands (an op that reads a
 * value twice uses it once). */
static bool first_operand(const remat_split_view *v, int i, int k) {
  for (int q = v->opnd_start[i]; q < k; q++)
    if (v->opnd[q] == v->opnd[k])
      return false;
  return true;
}

/* What running op I now adds to the live bytes: its results' buffers (reshapes alias,
 * immediates hold none) less the operands whose last remaining use it is (parameters and
 * gradients stay). REMAINING: uses not yet scheduled per value. */
static int64_t list_score(const sim *s, const unsigned char *keep, const int *remaining, int i) {
  const remat_split_view *v = s->v;
  int64_t d = 0;
  if (!s->reshape[i])
    FOR_RESULTS(v, i, r) d += (int64_t)s->bytes[r];
  for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++) {
    int u = v->opnd[k];
    bool first = first_operand(v, i, k); /* each operand once */
    if (first && remaining[u] == 1 && !keep[u])
      d -= (int64_t)s->bytes[u];
  }
  return d;
}

/* Whether an op of list score D runs first: it frees more than it allocates, or (TIES) as
 * much. */
static bool frees_enough(int64_t d, bool ties) { return ties ? d <= 0 : d < 0; }

/* A binary heap of ops, the least PRIO on top. */
typedef struct prio_heap {
  int *a, n;
  const int *prio;
} prio_heap;

static void heap_push(prio_heap *h, int op) {
  int k = h->n++;
  for (; k > 0 && h->prio[h->a[(k - 1) / 2]] > h->prio[op]; k = (k - 1) / 2)
    h->a[k] = h->a[(k - 1) / 2];
  h->a[k] = op;
}

static int heap_pop(prio_heap *h) {
  int top = h->a[0], last = h->a[--h->n], k = 0;
  for (;;) {
    int c = 2 * k + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && h->prio[h->a[c + 1]] < h->prio[h->a[c]])
      c++;
    if (h->prio[h->a[c]] >= h->prio[last])
      break;
    h->a[k] = h->a[c];
    k = c;
  }
  if (h->n > 0)
    h->a[k] = last;
  return top;
}

int remat_mem_sim_list_order(const remat_mem_sim *m, const unsigned char *in_b,
                             const unsigned char *saved, const int *prio, bool ties, int *order) {
  const sim *s = &m->s;
  const remat_split_view *v = s->v;
  int nops = v->nops, nvals = v->nvals;
  int *remaining = xcalloc((size_t)nvals + 1, sizeof *remaining);
  int *deps = xcalloc((size_t)nops + 1, sizeof *deps);
  unsigned char *keep = xcalloc((size_t)nvals + 1, 1);
  for (int a = 0; a < v->nargs; a++)
    keep[a] = (v->vflags[a] & RV_PARAM) != 0;
  for (int r = v->num_outputs; r < v->nret; r++)
    keep[v->ret_val[r]] = 1;
  /* users of each value among the backward's ops (CSR), each op once per value */
  int *ustart = xcalloc((size_t)nvals + 2, sizeof *ustart);
  for (int i = 0; i < nops; i++) {
    if (!in_b[i])
      continue;
    for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++) {
      int u = v->opnd[k];
      bool first = first_operand(v, i, k);
      if (!first)
        continue;
      remaining[u]++;
      ustart[u + 1]++;
      int op = v->val_op[u];
      if (op >= 0 && in_b[op] && !saved[u])
        deps[i]++;
    }
  }
  for (int x = 0; x < nvals; x++)
    ustart[x + 1] += ustart[x];
  int *users = xcalloc((size_t)ustart[nvals] + 1, sizeof *users);
  int *fill = xcalloc((size_t)nvals + 1, sizeof *fill);
  for (int i = 0; i < nops; i++) {
    if (!in_b[i])
      continue;
    for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++) {
      int u = v->opnd[k];
      bool first = first_operand(v, i, k);
      if (first)
        users[ustart[u] + fill[u]++] = i;
    }
  }
  int n = 0;
  /* the ops that depend on a tangent keep their program order: each waits for the one
   * before it */
  int *next_bw = xcalloc((size_t)nops + 1, sizeof *next_bw);
  for (int i = 0, last = -1; i < nops; i++) {
    next_bw[i] = -1;
    if (!in_b[i] || !m->bw[i])
      continue;
    if (last >= 0) {
      next_bw[last] = i;
      deps[i]++;
    }
    last = i;
  }
  /* whether each ready op frees more than it allocates: it changes (only ever to true) when
   * an operand's uses left drop to one, for the op that has that use; the ready ops wait in
   * two heaps by PRIO, those that free and the others (an op that comes to free is pushed
   * on the first; its entry in the second is skipped) */
  unsigned char *frees = xcalloc((size_t)nops + 1, 1), *done = xcalloc((size_t)nops + 1, 1);
  prio_heap h[2] = {{xcalloc((size_t)nops + 1, sizeof(int)), 0, prio},
                    {xcalloc((size_t)nops + 1, sizeof(int)), 0, prio}};
#define MAKE_READY(op)                                                    \
  do {                                                                    \
    frees[op] = frees_enough(list_score(s, keep, remaining, (op)), ties); \
    heap_push(&h[frees[op]], (op));                                       \
  } while (0)
  for (int i = 0; i < nops; i++)
    if (in_b[i] && deps[i] == 0)
      MAKE_READY(i);
  for (;;) {
    /* an op that frees more than it allocates first, else the earliest in PRIO */
    while (h[1].n > 0 && done[h[1].a[0]])
      heap_pop(&h[1]);
    while (h[0].n > 0 && (done[h[0].a[0]] || frees[h[0].a[0]]))
      heap_pop(&h[0]);
    int which = h[1].n > 0 ? 1 : 0;
    if (h[which].n == 0)
      break;
    int i = heap_pop(&h[which]);
    order[n++] = i;
    done[i] = 1;
    for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++) {
      int u = v->opnd[k];
      if (!first_operand(v, i, k) || --remaining[u] != 1)
        continue;
      for (int q = ustart[u]; q < ustart[u + 1]; q++) { /* the one use left, if ready */
        int r = users[q];
        if (!done[r] && deps[r] == 0 && !frees[r] &&
            frees_enough(list_score(s, keep, remaining, r), ties)) {
          frees[r] = 1;
          heap_push(&h[1], r);
        }
      }
    }
    FOR_RESULTS(v, i, r) {
      if (saved[r])
        continue;
      for (int k = ustart[r]; k < ustart[r + 1]; k++)
        if (--deps[users[k]] == 0)
          MAKE_READY(users[k]);
    }
    if (next_bw[i] >= 0 && --deps[next_bw[i]] == 0)
      MAKE_READY(next_bw[i]);
  }
#undef MAKE_READY
  free(h[0].a);
  free(h[1].a);
  free(frees);
  free(done);
  free(next_bw);
  free(remaining);
  free(deps);
  free(keep);
  free(ustart);
  free(users);
  free(fill);
  return n;
}

/* ---- the forward's order (objective=peak) ---------------------------------------------- */

enum { FWD_GROUP = 16 }; /* ops fwd_order places together at most */

/* The forward's order of a split (IN_F, SAVED): the ops an output needs in program order;
 * each other op (one only the saved set needs: GELU's derivative, a weight's transpose)
 * as early as it can run together with the others of its kind that it enables (up to
 * FWD_GROUP, program order among them) when they free at least as many bytes as they
 * allocate, else at its place in program order. No op runs later than in program order,
 * and those an output needs keep their order: the lower bound (peak_bound.h) holds.
 * The immediates an op placed early reads run just before it. ORDER gets every op with
 * IN_F; returns their number. Each step tries the ready ops' groups: O(ops x ready ops x
 * FWD_GROUP x uses), well under the simulation's own cost on the zoo's models. */
static int fwd_order(const sim *s, const unsigned char *in_f, const unsigned char *saved,
                     int *order) {
  const remat_split_view *v = s->v;
  int nops = v->nops, nvals = v->nvals, n = 0, nready = 0;
  unsigned char *need = xcalloc((size_t)nvals + 1, 1), *extra = xcalloc((size_t)nops + 1, 1);
  unsigned char *done = xcalloc((size_t)nops + 1, 1), *keep = xcalloc((size_t)nvals + 1, 1);
  unsigned char *in_group = xcalloc((size_t)nops + 1, 1);
  int *deps = xcalloc((size_t)nops + 1, sizeof *deps);
  int *ready = xcalloc((size_t)nops + 1, sizeof *ready), group[FWD_GROUP];
  int *ustart = xcalloc((size_t)nvals + 2, sizeof *ustart);
  int *fill = xcalloc((size_t)nvals + 1, sizeof *fill);
  for (int r = 0; r < v->num_outputs; r++) /* returned: live to the forward's end */
    need[v->ret_val[r]] = keep[v->ret_val[r]] = 1;
  for (int i = nops - 1; i >= 0; i--) {
    if (!in_f[i])
      continue;
    bool out = false;
    FOR_RESULTS(v, i, r) out |= need[r] != 0;
    extra[i] = !out;
    if (out)
      FOR_OPERANDS(v, i, u) need[u] = 1;
  }
  for (int x = 0; x < nvals; x++)
    keep[x] |= saved[x] || (v->vflags[x] & RV_PARAM) || s->imm[x];
  /* users of each value among the forward's ops (CSR), each op once per value */
  for (int i = 0; i < nops; i++) {
    if (!in_f[i])
      continue;
    for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++) {
      int u = v->opnd[k], op = v->val_op[u];
      if (!first_operand(v, i, k))
        continue;
      ustart[u + 1]++;
      if (extra[i] && !s->imm[u] && op >= 0 && in_f[op])
        deps[i]++;
    }
  }
  for (int x = 0; x < nvals; x++)
    ustart[x + 1] += ustart[x];
  int *users = xcalloc((size_t)ustart[nvals] + 1, sizeof *users);
  for (int i = 0; i < nops; i++)
    if (in_f[i])
      for (int k = v->opnd_start[i]; k < v->opnd_start[i + 1]; k++)
        if (first_operand(v, i, k))
          users[ustart[v->opnd[k]] + fill[v->opnd[k]]++] = i;
  for (int i = 0; i < nops; i++)
    if (extra[i] && deps[i] == 0)
      ready[nready++] = i;
  for (int next = 0;;) {
    int ng = 0;
    for (int q = 0; q < nready && ng == 0; q++) {
      int i = ready[q];
      if (done[i]) { /* placed: drop it */
        ready[q--] = ready[--nready];
        continue;
      }
      /* I and the extras it enables, breadth first */
      group[ng++] = i;
      in_group[i] = 1;
      for (int g = 0; g < ng && ng < FWD_GROUP; g++)
        FOR_RESULTS(v, group[g], r) {
          for (int e = ustart[r]; e < ustart[r + 1] && ng < FWD_GROUP; e++) {
            int w = users[e];
            if (!extra[w] || done[w] || in_group[w])
              continue;
            bool runs = true;
            FOR_OPERANDS(v, w, u) {
              int op = v->val_op[u];
              runs &= s->imm[u] || op < 0 || !in_f[op] || done[op] || in_group[op];
            }
            if (runs) {
              group[ng++] = w;
              in_group[w] = 1;
            }
          }
        }
      /* bytes it allocates less those it frees: values whose uses left are all in it */
      int64_t d = 0;
      for (int g = 0; g < ng; g++) {
        int w = group[g];
        if (!s->reshape[w])
          FOR_RESULTS(v, w, r) d += (int64_t)s->bytes[r];
        for (int k = v->opnd_start[w]; k < v->opnd_start[w + 1]; k++) {
          int u = v->opnd[k];
          if (!first_operand(v, w, k) || keep[u])
            continue;
          bool last = true; /* W is the group's last use of U, and none is left outside */
          for (int e = ustart[u]; e < ustart[u + 1] && last; e++) {
            int y = users[e];
            last = in_group[y] ? y <= w : done[y];
          }
          if (last)
            d -= (int64_t)s->bytes[u];
        }
      }
      if (d > 0) {
        for (int g = 0; g < ng; g++)
          in_group[group[g]] = 0;
        ng = 0;
      }
    }
    if (ng == 0) { /* the next op in program order */
      while (next < nops && (!in_f[next] || done[next]))
        next++;
      if (next == nops)
        break;
      group[ng++] = next;
    }
    qsort(group, (size_t)ng, sizeof *group, cmp_int);
    for (int g = 0; g < ng; g++) {
      int i = group[g];
      in_group[i] = 0;
      FOR_OPERANDS(v, i, u) {
        int op = v->val_op[u];
        if (s->imm[u] && op >= 0 && in_f[op] && !done[op]) {
          done[op] = 1;
          order[n++] = op;
        }
      }
      done[i] = 1;
      order[n++] = i;
      FOR_RESULTS(v, i, r) {
        if (s->imm[r])
          continue;
        for (int e = ustart[r]; e < ustart[r + 1]; e++)
          if (extra[users[e]] && --deps[users[e]] == 0)
            ready[nready++] = users[e];
      }
    }
  }
  free(need);
  free(extra);
  free(done);
  free(keep);
  free(in_group);
  free(deps);
  free(ready);
  free(ustart);
  free(fill);
  free(users);
  return n;
}

int remat_mem_sim_fwd_order(const remat_mem_sim *m, const unsigned char *in_f,
                            const unsigned char *saved, int *order) {
  return fwd_order(&m->s, in_f, saved, order);
}

double remat_mem_sim_op_cost(const remat_mem_sim *m, int i, uint64_t *bytes) {
  return op_cost(&m->s, i, bytes);
}

void remat_mem_sim_run_emitted(remat_mem_sim *m, unsigned char *saved, unsigned char *in_f,
                               unsigned char *in_b, remat_mem_schedule *c, bool *listed,
                               uint64_t *jit_peak) {
  const remat_split_view *v = m->s.v;
  remat_mem_sim_plan(m, saved, in_f, in_b);
  size_t n = (size_t)v->nops + 1;
  int *jit = xcalloc(n, sizeof *jit), *list = xcalloc(n, sizeof *list);
  int *prio = xcalloc(n, sizeof *prio);
  int njit = remat_bwd_order(v->nops, v->val_op, v->opnd_start, v->opnd, m->bw, in_b, saved, jit);
  for (int k = 0; k < njit; k++)
    prio[jit[k]] = k;
  int *fwd = xcalloc(n, sizeof *fwd), nfwd = fwd_order(&m->s, in_f, saved, fwd);
  plan p = {in_f, in_b, saved};
  memset(c, 0, sizeof *c);
  run_case(&m->s, m->bw, &p, true, false, fwd, nfwd, jit, njit, c);
  if (jit_peak)
    *jit_peak = c->peak;
  *listed = false;
  for (int ties = 0; ties < 2; ties++) { /* the list schedule: the better tie rule */
    int nlist = remat_mem_sim_list_order(m, in_b, saved, prio, ties, list);
    if (nlist != njit)
      remat_fatal("the list schedule lost backward ops");
    remat_mem_schedule b = {0};
    run_case(&m->s, m->bw, &p, true, false, fwd, nfwd, list, nlist, &b);
    if (b.peak < c->peak) {
      remat_mem_schedule_free(c);
      *c = b;
      *listed = true;
    } else {
      remat_mem_schedule_free(&b);
    }
  }
  free(fwd);
  free(jit);
  free(list);
  free(prio);
}

void remat_mem_schedule_free(remat_mem_schedule *c) {
  free(c->op);
  free(c->live);
  c->op = NULL;
  c->live = NULL;
}

void remat_memory_free(remat_mem_estimate *e) {
  for (int k = 0; k < REMAT_MEM_NCASES; k++)
    remat_mem_schedule_free(&e->c[k]);
  memset(e, 0, sizeof *e);
}

void remat_memory_print(FILE *f, const remat_split_view *v, const remat_mem_estimate *e) {
  fprintf(f, "  peak memory (estimate)   peak bytes  saved bytes  steps (fwd+bwd)  peak at\n");
  for (int k = 0; k < REMAT_MEM_NCASES; k++) {
    const remat_mem_schedule *c = &e->c[k];
    char steps[48], at[512] = "-";
    snprintf(steps, sizeof steps, "%d+%d", c->nfwd, c->nsteps - c->nfwd);
    if (c->peak_step >= 0) {
      MlirOperation op = v->ops[c->op[c->peak_step]];
      MlirStringRef n = rt_op_label(op);
      char loc[256];
      snprintf(at, sizeof at, "step %d (%s) %.*s %s", c->peak_step, c->peak_where, (int)n.length,
               n.data, remat_report_loc(mlirOperationGetLocation(op), loc, sizeof loc));
    }
    fprintf(f, "    %-20s %12llu %12llu  %15s  %s\n", remat_mem_case_name((remat_mem_case)k),
            (unsigned long long)c->peak, (unsigned long long)c->saved_bytes, steps, at);
  }
  for (int k = REMAT_MEM_SPLIT; k <= REMAT_MEM_RECOMPUTE_ALL; k++) {
    const remat_mem_schedule *c = &e->c[k];
    fprintf(f, "  recompute cost (%s): %d ops, %llu bytes moved, %.0f matmul flops",
            remat_mem_case_name((remat_mem_case)k), c->recompute_ops,
            (unsigned long long)c->recompute_bytes, c->recompute_flops - c->extern_flops);
    if (c->extern_flops > 0) /* said only where there are some: older reports unchanged */
      fprintf(f, ", %.0f rt.extern flops", c->extern_flops);
    fputc('\n', f);
  }
}
