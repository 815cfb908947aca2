/* checkpoint.c: --remat-checkpoint, activation-checkpoint tagging.
 *
 * Writes rt.policy tags on the forward ops of joint functions for --remat-mincut to
 * honour: FSDP all-gathers of parameters (recompute or save), a save list (every N-th
 * matching op saved), AutoParallel's stage heuristic (ac=auto|<GiB>) or a memory budget.
 * The definitions (forward, recomputable, live set, cost units) are in docs/design.md,
 * "Checkpoint tagging".
 *
 * Contract: requires verified rt IR; keeps every op and value, and every tag the input
 * already carries except the ones a previous run of this pass wrote (those with
 * rt.ac_reason), which it recomputes; writes rt.policy, rt.ac_region and rt.ac_reason on
 * forward ops of functions with rt.num_outputs; other functions are left alone. Breaks
 * nothing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "passes.h"
#include "report.h"
#include "rt.h"

/* ---- options -------------------------------------------------------------------------- */

/* RematCheckpointOptions: remat-c/Passes.h. */
typedef RematCheckpointOptions checkpoint_options;

enum ac_mode { AC_NONE, AC_AUTO, AC_FIXED };
enum fsdp_mode { FSDP_RECOMPUTE, FSDP_SAVE, FSDP_OFF };

/* A list of ops (save-ops, always-save): rt op names, and the kinds mm (an rt.matmul of
 * rank-2 operands: aten.mm, a linear layer) and bmm (batched, rank 3: attention). */
typedef struct oplist {
  bool op[RT_OP_COUNT];
  bool mm, bmm;
  bool any;
} oplist;

/* The options as the run uses them. */
typedef struct plan {
  enum ac_mode ac;
  double stage_gib; /* AC_FIXED */
  enum fsdp_mode fsdp;
  oplist save, always;
  int64_t save_every;
  int64_t budget; /* -1: off */
  bool greedy;
  char report[REMAT_OPTION_STRING_MAX]; /* "": none */
} plan;

/* Parses a comma list of ops for OPTION; "none" adds nothing. 0, or -1 with a message. */
static int parse_oplist(const char *text, const char *option, oplist *l, char *err,
                        size_t cap) {
  char list[REMAT_OPTION_STRING_MAX];
  snprintf(list, sizeof list, "%s", text);
  for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    if (!strcmp(name, "none"))
      continue;
    if (!strcmp(name, "mm") || !strcmp(name, "bmm")) {
      *(name[0] == 'm' ? &l->mm : &l->bmm) = l->any = true;
      continue;
    }
    rt_op_id id = rt_op_from_name(name);
    if (id == RT_OP_NONE) {
      snprintf(err, cap, "unknown op '%s' in option '%s' (expected rt op names, mm or bmm)",
               name, option);
      return -1;
    }
    l->op[id] = l->any = true;
  }
  return 0;
}

/* Turns option text into a plan; 0, or -1 with a message. */
static int make_plan(const checkpoint_options *o, plan *p, char *err, size_t cap) {
  memset(p, 0, sizeof *p);
  if (!strcmp(o->ac, "none"))
    p->ac = AC_NONE;
  else if (!strcmp(o->ac, "auto"))
    p->ac = AC_AUTO;
  else {
    char *end;
    double g = strtod(o->ac, &end);
    if (!*o->ac || *end || !isfinite(g) || !(g > 0)) {
      snprintf(err, cap, "invalid value '%s' for option 'ac': expected none, auto or a "
                         "stage size in GiB > 0", o->ac);
      return -1;
    }
    p->ac = AC_FIXED;
    p->stage_gib = g;
  }
  if (!strcmp(o->fsdp, "recompute"))
    p->fsdp = FSDP_RECOMPUTE;
  else if (!strcmp(o->fsdp, "save"))
    p->fsdp = FSDP_SAVE;
  else if (!strcmp(o->fsdp, "off"))
    p->fsdp = FSDP_OFF;
  else {
    snprintf(err, cap, "invalid value '%s' for option 'fsdp': expected recompute, save or "
                       "off", o->fsdp);
    return -1;
  }
  if (parse_oplist(o->save_ops, "save-ops", &p->save, err, cap) ||
      parse_oplist(o->always_save, "always-save", &p->always, err, cap))
    return -1;
  if (o->save_every < 1) {
    snprintf(err, cap, "invalid value %lld for option 'save-every': expected an integer >= 1",
             (long long)o->save_every);
    return -1;
  }
  p->save_every = o->save_every;
  if (o->memory_budget < -1) {
    snprintf(err, cap, "invalid value %lld for option 'memory-budget': expected bytes >= 0 "
                       "(or -1: off)", (long long)o->memory_budget);
    return -1;
  }
  p->budget = o->memory_budget;
  if (p->budget >= 0 && p->ac != AC_NONE) {
    snprintf(err, cap, "options 'ac' and 'memory-budget' exclude each other");
    return -1;
  }
  p->greedy = o->budget_greedy;
  strcpy(p->report, o->report);
  return 0;
}

static int check_options(const void *o, char *err, size_t cap) {
  plan p;
  return make_plan(o, &p, err, cap);
}

/* ---- the joint function as a graph ----------------------------------------------------- */

/* Operand sources: >= 0 an op index in the block, < 0 the argument -1 - src. */
typedef struct node {
  MlirOperation op;
  rt_op_id id;
  bool forward;   /* depends on no tangent (never true for the terminator) */
  bool constant;  /* no operands: free to recompute, never saved */
  rt_policy user; /* tag present in the input and not written by this pass */
  rt_policy tag;  /* what this run writes; RT_POLICY_NONE: nothing */
  int64_t region; /* rt.ac_region written with tag */
  const char *reason;
  uint64_t bytes; /* of the results */
  int nin, *in;   /* operand sources */
  bool fwd_out;   /* returned among the first rt.num_outputs results */
  bool bwd_use;   /* a live backward op uses it, or it is returned as a gradient */
  bool need;      /* forward, and the backward needs it: bwd_use, or a forward op that
                   * uses it needs it (AutoParallel's finite distance to the backward) */
} node;

/* One stage of the stage heuristic, for the report. */
typedef struct stage {
  int nops, point;
  uint64_t bytes, live;
} stage;

typedef struct graph {
  MlirOperation func;
  /* what the run decided, for the report */
  int fsdp_chains, save_matched;
  double stage_gib;
  stage *stages;
  int nstages;
  uint64_t fixed, chosen, recompute_cost;
  int candidates;
  bool exact;
  node *n;
  int count; /* ops of the entry block; the last one is the terminator */
  intptr_t nargs;
  bool *arg_param;
  ptr_map index; /* op pointer -> index */
} graph;

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, str(name)));
}

/* Source of value v: op index, -1 - argument number, or INT32_MIN when from elsewhere. */
static int source_of(const graph *g, MlirBlock entry, MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), entry)
               ? -1 - (int)mlirBlockArgumentGetArgNumber(v)
               : INT32_MIN;
  int i = ptr_map_get(&g->index, mlirOpResultGetOwner(v).ptr);
  return i >= 0 ? i : INT32_MIN;
}

static void graph_free(graph *g) {
  for (int i = 0; i < g->count; i++)
    free(g->n[i].in);
  free(g->n);
  free(g->arg_param);
  ptr_map_free(&g->index);
  free(g->stages);
}

/* Builds the graph of joint function FUNC with NUM_OUTPUTS forward outputs. Tags written
 * by an earlier run (rt.ac_reason present) are removed first. */
static void graph_build(graph *g, MlirOperation func, int64_t num_outputs) {
  memset(g, 0, sizeof *g);
  g->func = func;
  MlirBlock entry = rt_func_entry_block(func);
  g->nargs = mlirBlockGetNumArguments(entry);
  g->arg_param = xcalloc(g->nargs + 1, sizeof *g->arg_param);
  bool *arg_tangent = xcalloc(g->nargs + 1, sizeof *arg_tangent);
  for (intptr_t a = 0; a < g->nargs; a++) {
    g->arg_param[a] = rt_func_arg_has_attr(func, a, "rt.param");
    arg_tangent[a] = rt_func_arg_has_attr(func, a, "rt.tangent");
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    g->count++;
  g->n = xcalloc(g->count + 1, sizeof *g->n);
  ptr_map_init(&g->index, (size_t)g->count);
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    node *n = &g->n[i];
    n->op = op;
    n->id = rt_op_lookup(op);
    ptr_map_put(&g->index, op.ptr, i);
    if (has_attr(op, "rt.ac_reason")) { /* our own tag from an earlier run */
      rt_policy_set(op, RT_POLICY_NONE);
      mlirOperationRemoveDiscardableAttributeByName(op, str("rt.ac_region"));
      mlirOperationRemoveDiscardableAttributeByName(op, str("rt.ac_reason"));
    }
    n->user = rt_policy_get(op);
  }
  int term = g->count - 1;
  for (i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    n->nin = (int)mlirOperationGetNumOperands(n->op);
    n->in = xcalloc(n->nin + 1, sizeof *n->in);
    n->constant = n->nin == 0;
    bool tangent = false;
    for (int k = 0; k < n->nin; k++) {
      int s = n->in[k] = source_of(g, entry, mlirOperationGetOperand(n->op, k));
      if ((s >= 0 && !g->n[s].forward) || (s < 0 && s != INT32_MIN && arg_tangent[-1 - s]))
        tangent = true;
    }
    n->forward = i != term && !tangent;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(n->op); r++) {
      uint64_t b;
      if (rt_value_bytes(mlirOperationGetResult(n->op, r), &b) == 0)
        n->bytes += b;
    }
  }
  /* Uses, from the operand lists. Live backward ops are those a gradient result needs
   * (the min-cut drops the others); a forward value is read by the backward when a live
   * backward op uses it or it is returned as a gradient. Users come after their operands,
   * so one reverse pass settles each op before its operands. */
  bool *live = xcalloc(g->count + 1, sizeof *live);
  node *t = &g->n[term];
  for (int k = 0; k < t->nin; k++) {
    int s = t->in[k];
    if (s < 0)
      continue;
    if (k < num_outputs)
      g->n[s].fwd_out = true;
    else if (g->n[s].forward)
      g->n[s].bwd_use = true;
    else
      live[s] = true;
  }
  for (i = term - 1; i >= 0; i--) {
    node *n = &g->n[i];
    if (n->forward) {
      n->need = n->need || n->bwd_use;
      for (int k = 0; n->need && k < n->nin; k++)
        if (n->in[k] >= 0)
          g->n[n->in[k]].need = true;
    } else if (live[i])
      for (int k = 0; k < n->nin; k++) {
        int s = n->in[k];
        if (s >= 0 && g->n[s].forward)
          g->n[s].bwd_use = g->n[s].need = true;
        else if (s >= 0)
          live[s] = true;
      }
  }
  free(live);
  free(arg_tangent);
}

/* Sets the tag this run writes on op i, unless the user tagged it. Only rt ops are
 * tagged. */
static void tag(graph *g, int i, rt_policy p, int64_t region, const char *reason) {
  node *n = &g->n[i];
  if (n->user != RT_POLICY_NONE || n->id == RT_OP_NONE)
    return;
  n->tag = p;
  n->region = region;
  n->reason = reason;
}

/* The policy the op ends with: the user's, else this run's. */
static rt_policy policy_of(const graph *g, int i) {
  return g->n[i].user != RT_POLICY_NONE ? g->n[i].user : g->n[i].tag;
}

static void write_tags(graph *g) {
  MlirContext ctx = mlirOperationGetContext(g->func);
  for (int i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    if (n->user != RT_POLICY_NONE || n->tag == RT_POLICY_NONE)
      continue;
    rt_policy_set(n->op, n->tag);
    mlirOperationSetDiscardableAttributeByName(
        n->op, str("rt.ac_region"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), n->region));
    mlirOperationSetDiscardableAttributeByName(n->op, str("rt.ac_reason"),
                                               mlirStringAttrGet(ctx, str(n->reason)));
  }
}

/* ---- FSDP all-gathers ---------------------------------------------------------------- */

/* One FSDP gather: ops[0..n) in block order are the single-input ops from the parameter
 * to the all-gather, the all-gather, its wait, then the single-input single-user chain
 * after the wait. */
typedef struct fsdp_chain {
  int *ops, n;
  int gather;        /* position of the all-gather in ops */
  int last_non_view; /* position in ops of the last op after the gather that is no view */
} fsdp_chain;

/* Views: ops that PyTorch would express as an alias of their input. */
static bool is_view(rt_op_id id) {
  return id == RT_OP_RESHAPE || id == RT_OP_TRANSPOSE || id == RT_OP_BROADCAST ||
         id == RT_OP_SLICE;
}

/* The operand an FSDP chain follows through op I: an rt op, not a collective, whose
 * operands are one tensor plus any scalars and constants (an FX node's immediates:
 * rt.mul(%p, %c2) with %c2 an arith.constant is a single-input op of %p, as
 * AutoParallel sees `mul(p, 2)`). Returns that operand's index, or -1. */
static int chain_operand(const graph *g, int i) {
  const node *n = &g->n[i];
  if (n->id == RT_OP_NONE || rt_op_kind_of(n->id) == RT_KIND_COLLECTIVE)
    return -1;
  int found = -1;
  for (int k = 0; k < n->nin; k++) {
    int s = n->in[k];
    if ((s >= 0 && g->n[s].constant) ||
        rt_type_is_scalar(mlirValueGetType(mlirOperationGetOperand(n->op, k))))
      continue;
    if (found >= 0)
      return -1;
    found = k;
  }
  return found;
}

/* The one place that decides what an FSDP gather is: if forward op W is the rt.wait of
 * an rt.all_gather whose input reaches an rt.param argument through single-input ops
 * (chain_operand), fills C (ops allocated, caller frees) and returns true. Tagging uses
 * C only. */
static bool fsdp_find(const graph *g, int w, fsdp_chain *c) {
  const node *wait = &g->n[w];
  if (wait->id != RT_OP_WAIT || !wait->forward || wait->in[0] < 0 ||
      g->n[wait->in[0]].id != RT_OP_ALL_GATHER)
    return false;
  int ag = wait->in[0], s = g->n[ag].in[0], npre = 0, k;
  while (s >= 0 && (k = chain_operand(g, s)) >= 0) { /* up to the argument */
    npre++;
    s = g->n[s].in[k];
  }
  if (s >= 0 || s == INT32_MIN || !g->arg_param[-1 - s])
    return false;
  c->ops = xmalloc(sizeof *c->ops * (g->count + 1));
  c->n = npre;
  for (int j = npre - 1, t = g->n[ag].in[0]; j >= 0; j--, t = g->n[t].in[chain_operand(g, t)])
    c->ops[j] = t;
  c->gather = c->n;
  c->ops[c->n++] = ag;
  c->last_non_view = c->n;
  c->ops[c->n++] = w;
  /* After the wait: while the value has one use and its user is a single-input forward
   * op of it. */
  for (int cur = w;;) {
    MlirValue v = mlirOperationGetResult(g->n[cur].op, 0);
    MlirOpOperand u = mlirValueGetFirstUse(v);
    if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      break;
    int j = ptr_map_get(&g->index, mlirOpOperandGetOwner(u).ptr);
    if (j < 0 || !g->n[j].forward || mlirOperationGetNumResults(g->n[j].op) != 1 ||
        (k = chain_operand(g, j)) < 0 || g->n[j].in[k] != cur)
      break;
    if (!is_view(g->n[j].id))
      c->last_non_view = c->n;
    c->ops[c->n++] = cur = j;
  }
  return true;
}

static void tag_fsdp(graph *g, enum fsdp_mode mode) {
  for (int w = 0; w < g->count; w++) {
    fsdp_chain c;
    if (!fsdp_find(g, w, &c))
      continue;
    g->fsdp_chains++;
    for (int k = 0; k < c.n; k++) {
      if (mode == FSDP_RECOMPUTE)
        tag(g, c.ops[k], RT_POLICY_MUST_RECOMPUTE, 0, "fsdp");
      else if (k == c.last_non_view)
        tag(g, c.ops[k], RT_POLICY_MUST_SAVE, 0, "fsdp");
      else if (k > c.last_non_view) /* views of the saved weight: never saved themselves */
        tag(g, c.ops[k], RT_POLICY_PREFER_RECOMPUTE, 0, "fsdp");
    }
    free(c.ops);
  }
}

/* ---- save lists ----------------------------------------------------------------------- */

static bool oplist_has(const oplist *l, const node *n) {
  if (l->op[n->id])
    return true;
  if (n->id != RT_OP_MATMUL || !(l->mm || l->bmm))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(n->op, 0)));
  return rank == 2 ? l->mm : l->bmm;
}

/* always-save: forward ops the backward needs, saved without advancing the save list's
 * counter (AutoParallel's attention ops in its save list). */
static void tag_always_save(graph *g, const plan *p) {
  for (int i = 0; i < g->count; i++)
    if (g->n[i].need && g->n[i].tag == RT_POLICY_NONE && oplist_has(&p->always, &g->n[i]))
      tag(g, i, RT_POLICY_MUST_SAVE, 0, "always-save");
}

/* The 1st, (N+1)th, ... forward op of the list that the backward needs is saved, the
 * others recomputed. Forward-only ops (a loss head) are not counted: AutoParallel's
 * counter runs over the recomputable forward nodes, those at a finite distance from the
 * backward. Ops the user or the FSDP rule tagged keep their tag but still count; ops of
 * the always-save list do not. */
static void tag_save_ops(graph *g, const plan *p) {
  int64_t k = 0;
  for (int i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    if (!n->need || !oplist_has(&p->save, n) || oplist_has(&p->always, n))
      continue;
    if (n->tag == RT_POLICY_NONE)
      tag(g, i, k % p->save_every == 0 ? RT_POLICY_MUST_SAVE : RT_POLICY_PREFER_RECOMPUTE, 0,
          "save-ops");
    k++;
  }
  g->save_matched = (int)k;
}

/* ---- stages (ac=auto|<GiB>) ---------------------------------------------------------- */

/* Ops the stage walk visits: forward rt ops the backward needs and the min-cut may
 * recompute by default (not a matmul, reduction or collective), with operands, not tagged
 * yet. */
static bool recomputable(const graph *g, int i) {
  const node *n = &g->n[i];
  rt_op_kind k = rt_op_kind_of(n->id);
  return n->need && n->id != RT_OP_NONE && !n->constant && k != RT_KIND_MATMUL &&
         k != RT_KIND_REDUCTION && k != RT_KIND_COLLECTIVE && policy_of(g, i) == RT_POLICY_NONE;
}

/* A recompute tag from the user or the FSDP rule: the backward recomputes the value
 * whatever the stages say. */
static bool forced_recompute(const graph *g, int i) {
  const node *n = &g->n[i];
  return rt_policy_is_recompute(n->user) ||
         (rt_policy_is_recompute(n->tag) && !strcmp(n->reason, "fsdp"));
}

/* Bytes a forward op's results add to a live set: those of values the backward needs,
 * except constants and values the backward recomputes anyway. */
static uint64_t live_weight(const graph *g, int i) {
  const node *n = &g->n[i];
  if (!n->need || n->constant || forced_recompute(g, i))
    return 0;
  return n->bytes;
}

/* last[i]: the last op at which value i is live in the forward: g->count for a forward
 * output, else its last user among the ops the backward needs (forward-only users do not
 * count, as in AutoParallel), where a use by a value with a forced recompute tag counts as
 * uses at that value's own last use: its inputs must stay live until it is recomputed
 * (AutoParallel hands a must_recompute node's predecessors to its users). -1: none. Users
 * come after their operands, so a reverse pass settles each last[j] before it is passed
 * on. */
static void last_uses(const graph *g, int *last) {
  for (int i = 0; i < g->count; i++)
    last[i] = g->n[i].fwd_out ? g->count : -1;
  for (int j = g->count - 1; j >= 0; j--) {
    const node *n = &g->n[j];
    if (!n->need)
      continue;
    int until = forced_recompute(g, j) && last[j] > j ? last[j] : j;
    for (int k = 0; k < n->nin; k++)
      if (n->in[k] >= 0 && until > last[n->in[k]])
        last[n->in[k]] = until;
  }
}

static void tag_stages(graph *g, const plan *p) {
  int *walk = xmalloc(sizeof *walk * (g->count + 1));
  uint64_t *live = xcalloc(g->count + 2, sizeof *live); /* live[q]: bytes live after op q */
  int *last = xmalloc(sizeof *last * (g->count + 1));
  last_uses(g, last);
  int nwalk = 0;
  double total = 0;
  for (int i = 0; i < g->count; i++)
    if (recomputable(g, i)) {
      walk[nwalk++] = i;
      total += (double)g->n[i].bytes;
    }
  /* Live after q: defined at or before q, used by a forward op after q (or a forward
   * output). Difference array over [def, last use). */
  int64_t *diff = xcalloc(g->count + 2, sizeof *diff);
  for (int i = 0; i < g->count; i++) {
    uint64_t w = live_weight(g, i);
    if (w && last[i] > i) {
      diff[i] += (int64_t)w;
      diff[last[i]] -= (int64_t)w;
    }
  }
  int64_t run = 0;
  for (int q = 0; q < g->count; q++)
    live[q] = (uint64_t)(run += diff[q]);
  double stage_bytes = p->ac == AC_AUTO ? sqrt(total / 1073741824.0) * 1073741824.0
                                        : p->stage_gib * 1073741824.0;
  /* Values defined up to the current point that may still be live: each leaves the list
   * once dead, so tagging costs the sizes of the live sets, not n per stage. */
  int *open = xmalloc(sizeof *open * (g->count + 1)), nopen = 0, next = 0;
  int64_t region = 0;
  g->stage_gib = stage_bytes / 1073741824.0;
  /* Nothing recomputable weighs anything (zero-size dims): one stage, not one per op. */
  if (!(stage_bytes > 0))
    stage_bytes = INFINITY;
  g->stages = xmalloc(sizeof *g->stages * (nwalk + 1));
  for (int a = 0; a < nwalk;) {
    /* one stage: walk[a..b) */
    double sum = 0;
    int b = a;
    while (b < nwalk && (b == a || sum < stage_bytes)) /* a stage holds one op at least */
      sum += (double)g->n[walk[b++]].bytes;
    region++;
    int best = walk[a];
    for (int k = a; k < b; k++)
      if (live[walk[k]] <= live[best]) /* ties: the later point */
        best = walk[k];
    g->stages[g->nstages++] = (stage){b - a, best, (uint64_t)sum, live[best]};
    for (; next <= best; next++)
      if (live_weight(g, next) && last[next] > next)
        open[nopen++] = next;
    int kept = 0;
    for (int k = 0; k < nopen; k++) {
      int i = open[k];
      if (last[i] <= best)
        continue; /* dead from here on */
      open[kept++] = i;
      if (g->n[i].tag == RT_POLICY_NONE || g->n[i].tag == RT_POLICY_PREFER_RECOMPUTE)
        /* a save list's recompute tag gives way to the stage boundary */
        tag(g, i, RT_POLICY_MUST_SAVE, region, "ac-stage");
    }
    nopen = kept;
    for (int k = a; k < b; k++)
      if (g->n[walk[k]].tag == RT_POLICY_NONE)
        tag(g, walk[k], RT_POLICY_PREFER_RECOMPUTE, region, "ac-stage");
    a = b;
  }
  free(open);
  free(diff);
  free(live);
  free(last);
  free(walk);
}

/* ---- memory budget ------------------------------------------------------------------- */

/* Machine balance of the cost model: flops that take as long as moving one byte. */
#define FLOPS_PER_BYTE 128

/* Cost of running op i once, in bytes moved (docs/design.md): operand and result bytes;
 * a matmul costs at least 2*B*M*N*K / FLOPS_PER_BYTE. */
static uint64_t op_cost(const graph *g, int i) {
  const node *n = &g->n[i];
  uint64_t c = n->bytes;
  for (int k = 0; k < n->nin; k++) {
    uint64_t b;
    if (rt_value_bytes(mlirOperationGetOperand(n->op, k), &b) == 0)
      c += b;
  }
  if (n->id == RT_OP_MATMUL) {
    remat_shape a = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(n->op, 0)));
    remat_shape r = rt_shape_of(mlirValueGetType(mlirOperationGetResult(n->op, 0)));
    double flops = 2.0 * (double)a.d[a.rank - 1]; /* K */
    for (int d = 0; d < r.rank; d++)
      flops *= (double)r.d[d]; /* B*M*N */
    double fc = flops / FLOPS_PER_BYTE;
    if (fc > (double)c)
      c = fc >= 1.8e19 ? UINT64_MAX : (uint64_t)fc;
  }
  return c;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Limits of the exact choice: the DP table (items x capacity bits, and the capacity
 * itself), then the nodes branch and bound may visit. */
#define BUDGET_DP_CELLS (1ull << 28)
#define BUDGET_DP_CAPACITY (1ull << 22)
#define BUDGET_BB_NODES 20000000L

typedef struct item {
  uint64_t bytes, value;
  int index;
} item;

/* Higher value per byte first; ties by index, so the order is deterministic. */
static int by_density(const void *pa, const void *pb) {
  const item *a = pa, *b = pb;
  long double l = (long double)a->value * b->bytes, r = (long double)b->value * a->bytes;
  return l > r ? -1 : l < r ? 1 : (a->index > b->index) - (a->index < b->index);
}

/* Branch and bound over items sorted by density, bounded by the fractional (LP) fill. */
typedef struct bb {
  const item *it;
  int n;
  bool *cur, *best;
  uint64_t best_value;
  long nodes;
} bb;

static void bb_search(bb *s, int k, uint64_t room, uint64_t value) {
  if (value > s->best_value || (k == 0 && s->best_value == 0)) {
    s->best_value = value;
    memcpy(s->best, s->cur, sizeof *s->cur * s->n);
  }
  if (k == s->n || s->nodes-- <= 0)
    return;
  long double bound = value; /* the LP relaxation of what is left */
  uint64_t r = room;
  for (int i = k; i < s->n && r > 0; i++) {
    if (s->it[i].bytes <= r) {
      bound += s->it[i].value;
      r -= s->it[i].bytes;
    } else {
      bound += (long double)s->it[i].value * r / s->it[i].bytes;
      r = 0;
    }
  }
  if (bound <= (long double)s->best_value)
    return;
  if (s->it[k].bytes <= room) {
    s->cur[k] = true;
    bb_search(s, k + 1, room - s->it[k].bytes, sat_add(value, s->it[k].value));
    s->cur[k] = false;
  }
  bb_search(s, k + 1, room, value);
}

/* 0/1 knapsack: chooses take[] maximizing the summed value within cap bytes. Exact by DP
 * over bytes (in units of the sizes' gcd) when its table fits, else by branch and bound
 * within BUDGET_BB_NODES nodes; greedy by value per byte when forced. Returns true when
 * the choice is proven optimal. */
static bool knapsack(int n, const uint64_t *bytes, const uint64_t *value, uint64_t cap,
                     bool force_greedy, bool *take) {
  memset(take, 0, sizeof *take * n);
  uint64_t u = 0;
  for (int k = 0; k < n; k++)
    u = gcd(u, bytes[k]);
  uint64_t W = u ? cap / u : 0;
  if (!force_greedy && (n == 0 || u == 0 ||
                        (W < BUDGET_DP_CAPACITY && (uint64_t)n * (W + 1) <= BUDGET_DP_CELLS))) {
    uint64_t *best = xcalloc(W + 1, sizeof *best);
    size_t words = (size_t)((W + 64) / 64);
    uint64_t *keep = xcalloc((size_t)n * words + 1, sizeof *keep); /* keep[k][w] bits */
    for (int k = 0; k < n; k++) {
      uint64_t wk = u ? bytes[k] / u : 0;
      if (wk > W)
        continue;
      for (uint64_t w = W + 1; w-- > wk;) {
        uint64_t v = sat_add(best[w - wk], value[k]);
        if (v > best[w]) {
          best[w] = v;
          keep[(size_t)k * words + w / 64] |= 1ull << (w % 64);
        }
      }
    }
    uint64_t w = W; /* walk back from the full capacity */
    for (int k = n - 1; k >= 0; k--)
      if (keep[(size_t)k * words + w / 64] >> (w % 64) & 1) {
        take[k] = true;
        w -= u ? bytes[k] / u : 0;
      }
    free(best);
    free(keep);
    return true;
  }
  item *it = xmalloc(sizeof *it * (n + 1));
  bool *cur = xcalloc(n + 1, sizeof *cur), *got = xcalloc(n + 1, sizeof *got);
  for (int k = 0; k < n; k++)
    it[k] = (item){bytes[k], value[k], k};
  qsort(it, n, sizeof *it, by_density);
  bool exact = false;
  if (force_greedy) { /* highest value per byte first, while it fits */
    uint64_t room = cap;
    for (int k = 0; k < n; k++)
      if (it[k].bytes <= room) {
        got[k] = true;
        room -= it[k].bytes;
      }
  } else {
    bb s = {it, n, cur, got, 0, BUDGET_BB_NODES};
    bb_search(&s, 0, cap, 0);
    exact = s.nodes > 0;
  }
  for (int k = 0; k < n; k++)
    take[it[k].index] = got[k];
  free(it), free(cur), free(got);
  return exact;
}

/* The cost of recomputing candidate v from what the backward has: its op and every
 * non-candidate forward op it needs back to arguments, constants, candidates
 * (index[] != -1) and tagged ops, each counted once (seen[] == stamp); UINT64_MAX when
 * that needs a collective's result or a non-rt op. With mark, tags those ops
 * prefer_recompute. */
static uint64_t recompute_chain(graph *g, int v, const int *index, int *seen, int stamp,
                                int *stack, bool mark) {
  uint64_t cost = op_cost(g, v);
  int head = 0, tail = 0; /* stack[] as a queue: afterwards it lists what was visited */
  seen[v] = stamp;
  stack[tail++] = v;
  while (head < tail) {
    node *n = &g->n[stack[head++]];
    for (int a = 0; a < n->nin; a++) {
      int s = n->in[a];
      if (s < 0 || seen[s] == stamp || index[s] != -1 || g->n[s].constant ||
          policy_of(g, s) != RT_POLICY_NONE)
        continue;
      seen[s] = stamp;
      if (rt_op_kind_of(g->n[s].id) == RT_KIND_COLLECTIVE || g->n[s].id == RT_OP_NONE)
        cost = UINT64_MAX;
      else
        cost = sat_add(cost, op_cost(g, s));
      stack[tail++] = s;
    }
  }
  for (int k = 1; mark && k < tail; k++)
    tag(g, stack[k], RT_POLICY_PREFER_RECOMPUTE, 0, "budget");
  return cost;
}

static void budget_error(const graph *g, const plan *p, uint64_t fixed) {
  MlirStringRef name = rt_func_name(g->func);
  rt_emit_error(g->func, "memory-budget=%lld is infeasible for '@%.*s': values that must be "
                         "saved (user or FSDP save tags, collective results) take %llu bytes",
                (long long)p->budget, (int)name.length, name.data, (unsigned long long)fixed);
}

/* Candidates: forward results the backward needs (uses, or needs to recompute a value
 * tagged for recompute), that this run may tag (untagged, not a constant, not a
 * collective). Values that must be saved whatever the choice (user or FSDP
 * save tags, collective results the backward uses) are fixed bytes. The recompute cost of
 * not saving a candidate is its op's cost plus the cost of every non-candidate op it needs
 * back to arguments, constants, candidates or tagged ops. Returns 0, or -1 after an error
 * when the fixed bytes exceed the budget. */
static int tag_budget(graph *g, const plan *p) {
  int *cand = xmalloc(sizeof *cand * (g->count + 1)), nc = 0;
  int *index = xmalloc(sizeof *index * (g->count + 1)); /* op -> candidate number, -1 */
  int *stack = xmalloc(sizeof *stack * (g->count + 1));
  int *seen = xmalloc(sizeof *seen * (g->count + 1));
  /* Needed by the backward: used by it, or an input of a value it recomputes because of
   * a recompute tag (user or FSDP) and needs. Producers come first: one reverse pass. */
  bool *needed = xmalloc(sizeof *needed * (g->count + 1));
  for (int i = 0; i < g->count; i++)
    needed[i] = g->n[i].forward && g->n[i].bwd_use;
  for (int i = g->count - 1; i >= 0; i--)
    if (needed[i] && forced_recompute(g, i))
      for (int a = 0; a < g->n[i].nin; a++)
        if (g->n[i].in[a] >= 0 && g->n[g->n[i].in[a]].forward)
          needed[g->n[i].in[a]] = true;
  uint64_t fixed = 0;
  for (int i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    index[i] = seen[i] = -1;
    if (!n->forward || n->constant || !needed[i] || n->id == RT_OP_NONE ||
        forced_recompute(g, i))
      continue;
    rt_policy pol = policy_of(g, i);
    if (rt_policy_is_save(pol) ||
        (pol == RT_POLICY_NONE && rt_op_kind_of(n->id) == RT_KIND_COLLECTIVE))
      fixed = sat_add(fixed, n->bytes);
    else if (pol == RT_POLICY_NONE) {
      index[i] = nc;
      cand[nc++] = i;
    }
  }
  uint64_t *bytes = xmalloc(sizeof *bytes * (nc + 1)), *cost = xmalloc(sizeof *cost * (nc + 1));
  bool *take = xmalloc(sizeof *take * (nc + 1));
  /* A candidate whose recompute would need a collective's result (never recomputed) is
   * saved instead: fixed, and marked by cost UINT64_MAX. */
  for (int k = 0; k < nc; k++) {
    bytes[k] = g->n[cand[k]].bytes;
    cost[k] = recompute_chain(g, cand[k], index, seen, k, stack, false);
    if (cost[k] == UINT64_MAX)
      fixed = sat_add(fixed, bytes[k]);
  }
  int nfree = 0; /* the candidates the choice is about, packed to the front */
  for (int k = 0; k < nc; k++)
    if (cost[k] != UINT64_MAX) {
      bytes[nfree] = bytes[k], cost[nfree] = cost[k];
      index[cand[k]] = nfree++;
    } else
      index[cand[k]] = -2;
  if (fixed > (uint64_t)p->budget) {
    budget_error(g, p, fixed);
    free(bytes), free(cost), free(take);
    free(cand), free(index), free(stack), free(seen), free(needed);
    return -1;
  }
  g->exact = knapsack(nfree, bytes, cost, (uint64_t)p->budget - fixed, p->greedy, take);
  g->fixed = fixed;
  g->candidates = nfree;
  for (int k = 0; k < nfree; k++)
    if (take[k])
      g->chosen += bytes[k];
    else
      g->recompute_cost = sat_add(g->recompute_cost, cost[k]);
  for (int k = 0; k < nc; k++) {
    int i = index[cand[k]];
    tag(g, cand[k], i == -2 || take[i] ? RT_POLICY_MUST_SAVE : RT_POLICY_PREFER_RECOMPUTE, 0,
        "budget");
  }
  /* The ops the recompute of the others needs are recomputed too, never saved. Other
   * forward ops stay untagged: a recompute tag on an op nothing needs would only force
   * the min-cut to cut above it. */
  for (int k = 0; k < nc; k++)
    if (rt_policy_is_recompute(g->n[cand[k]].tag))
      recompute_chain(g, cand[k], index, seen, nc + k, stack, true);
  free(bytes), free(cost), free(take);
  free(cand), free(index), free(stack), free(seen), free(needed);
  return 0;
}

/* ---- report ------------------------------------------------------------------------- */

/* One block per joint function: the values this run tagged must_save and the rule that
 * did it, then what each rule found. */
static void report(FILE *f, const graph *g, const plan *p) {
  MlirStringRef name = rt_func_name(g->func);
  int count[RT_POLICY_INVALID + 1] = {0}, user = 0, row = 0;
  fprintf(f, "remat-checkpoint: @%.*s\n", (int)name.length, name.data);
  remat_report_table_header(f);
  for (int i = 0; i < g->count; i++) {
    const node *n = &g->n[i];
    user += n->user != RT_POLICY_NONE;
    count[n->user != RT_POLICY_NONE ? RT_POLICY_NONE : n->tag]++;
    if (n->user != RT_POLICY_NONE || n->tag != RT_POLICY_MUST_SAVE)
      continue;
    char why[32]; /* the tags are written: the same words as the min-cut's report */
    MlirValue v = mlirOperationGetResult(n->op, 0);
    remat_report_row(f, row++, rt_op_name(n->id), mlirValueGetType(v), n->bytes,
                     remat_report_tag_why(n->op, why, sizeof why),
                     mlirOperationGetLocation(n->op));
  }
  if (p->fsdp != FSDP_OFF)
    fprintf(f, "  fsdp: %d parameter gather%s (%s)\n", g->fsdp_chains,
            g->fsdp_chains == 1 ? "" : "s", p->fsdp == FSDP_SAVE ? "save" : "recompute");
  if (p->budget < 0 && p->save.any)
    fprintf(f, "  save-ops: %d matched; saved the 1st of every %lld\n", g->save_matched,
            (long long)p->save_every);
  if (p->budget < 0 && p->ac != AC_NONE) {
    fprintf(f, "  stages: %d of %.6g GiB\n", g->nstages, g->stage_gib);
    for (int k = 0; k < g->nstages; k++) {
      const stage *s = &g->stages[k];
      char loc[256];
      fprintf(f, "  stage %d: %d ops, %llu bytes; point %s %s, %llu bytes live\n", k + 1,
              s->nops, (unsigned long long)s->bytes, rt_op_name(g->n[s->point].id),
              remat_report_loc(mlirOperationGetLocation(g->n[s->point].op), loc, sizeof loc),
              (unsigned long long)s->live);
    }
  }
  if (p->budget >= 0)
    fprintf(f, "  budget: %lld bytes: %llu fixed, %llu chosen among %d candidates; recompute "
               "cost %llu (%s)\n",
            (long long)p->budget, (unsigned long long)g->fixed, (unsigned long long)g->chosen,
            g->candidates, (unsigned long long)g->recompute_cost,
            p->greedy ? "greedy" : g->exact ? "exact" : "best found");
  fprintf(f, "  tags: %d must_save, %d must_recompute, %d prefer_recompute; user tags kept: "
             "%d\n",
          count[RT_POLICY_MUST_SAVE], count[RT_POLICY_MUST_RECOMPUTE],
          count[RT_POLICY_PREFER_RECOMPUTE], user);
}

/* ---- the pass ------------------------------------------------------------------------- */

/* Tags one joint function; 0, or -1 after an error. */
static int tag_function(MlirOperation func, int64_t num_outputs, const plan *p, FILE *rep) {
  graph g;
  graph_build(&g, func, num_outputs);
  int rc = 0;
  if (g.count > 0) {
    if (p->fsdp != FSDP_OFF)
      tag_fsdp(&g, p->fsdp);
    if (p->always.any)
      tag_always_save(&g, p);
    if (p->budget >= 0)
      rc = tag_budget(&g, p);
    else {
      if (p->save.any)
        tag_save_ops(&g, p);
      if (p->ac != AC_NONE)
        tag_stages(&g, p);
    }
    if (rc == 0)
      write_tags(&g);
    if (rc == 0 && rep)
      report(rep, &g, p);
  }
  graph_free(&g);
  return rc;
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const plan *p = ud;
  int failed;
  FILE *rep = remat_report_open(p->report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-checkpoint: cannot open the report file '%s'", p->report);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  MlirRegion body = mlirOperationGetRegion(module, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      int64_t num_outputs;
      if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") ||
          !rt_func_num_outputs(op, &num_outputs) ||
          mlirBlockIsNull(rt_func_entry_block(op)))
        continue;
      if (tag_function(op, num_outputs, p, rep)) {
        mlirExternalPassSignalFailure(pass);
        break;
      }
    }
  remat_report_close(rep);
}

static const char contract[] =
    "requires verified rt IR; tags forward ops of joint functions (rt.policy, rt.ac_region, "
    "rt.ac_reason); keeps user tags; replaces only its own earlier tags";

static MlirPass create(const void *options) {
  plan p;
  char err[256];
  if (make_plan(options, &p, err, sizeof err)) /* check_options ran before: a bug */
    remat_fatal("unchecked options: %s", err);
  return remat_pass_create(&remat_checkpoint_pass, "RematCheckpoint", run, &p, sizeof p);
}

REMAT_PASS_INFO(remat_checkpoint_pass, RematCheckpointOptions, REMAT_CHECKPOINT_OPTIONS,
                "remat-checkpoint",
                "tag activation-checkpoint policies (FSDP gathers, save list, stages, budget)",
                contract, check_options, create)
