/* checkpoint.c: --remat-checkpoint, activation-checkpoint tagging.
 *
 * Writes rt.policy tags on the forward ops of joint functions for --remat-mincut to
 * honour: FSDP all-gathers of parameters (recompute or save), a save list (every N-th
 * matching op saved), AutoParallel's stage heuristic (ac=auto|<GiB>) or a memory budget.
 * The definitions (forward, recomputable, live set, cost units) are in docs/design.md,
 * "Checkpoint tagging".
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it, and
 * docs/design.md "Checkpoint tagging" is generated from it). */
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
#include "rt_graph.h"
#include "union_knapsack.h"

/* What the pass requires, keeps and breaks. */
static const char contract[] =
    "requires: verified rt IR. keeps: every op and value; every tag the input carries "
    "except those a previous run of this pass wrote (with rt.ac_reason), which it "
    "recomputes; functions without rt.num_outputs. breaks: nothing; writes rt.policy, "
    "rt.ac_region and rt.ac_reason on forward ops of functions with rt.num_outputs";

/* ---- options -------------------------------------------------------------------------- */

/* RematCheckpointOptions: remat-c/Passes.h. */
typedef RematCheckpointOptions checkpoint_options;

enum ac_mode { AC_NONE, AC_AUTO, AC_FIXED };
enum fsdp_mode { FSDP_RECOMPUTE, FSDP_SAVE, FSDP_OFF };

/* A list of ops (save-ops, always-save): rt op names, the kinds mm (an rt.matmul of
 * rank-2 operands: aten.mm, a linear layer; and a convolution, docs/design.md "Ops remat
 * does not model") and bmm (batched, rank 3: attention), and names of rt.extern ops
 * ("aten.max_pool2d_with_indices.default": a dotted name that is not rt's). */
typedef struct oplist {
  bool op[RT_OP_COUNT];
  bool mm, bmm;
  bool any;
  char externs[REMAT_OPTION_STRING_MAX + 2]; /* ",name,name," (the pass state is plain) */
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
  char dump[REMAT_OPTION_STRING_MAX];   /* budget-dump: "": none */
} plan;

/* Parses a comma list of ops for OPTION; "none" adds nothing. 0, or -1 with a message. */
static int parse_oplist(const char *text, const char *option, oplist *l, char **err) {
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
    if (id == RT_OP_NONE && strchr(name, '.') && strncmp(name, "rt.", 3)) {
      size_t n = strlen(l->externs);
      snprintf(l->externs + n, sizeof l->externs - n, "%s%s,", n ? "" : ",", name);
      l->any = true;
      continue;
    }
    if (id == RT_OP_NONE) {
      remat_error_add(err,
                      "unknown op '%s' in option '%s' (expected rt op names, mm, bmm or an "
                      "rt.extern's name such as aten.convolution.default)",
                      name, option);
      return -1;
    }
    l->op[id] = l->any = true;
  }
  return 0;
}

/* Turns option text into a plan; 0, or -1 with a message. */
static int make_plan(const checkpoint_options *o, plan *p, char **err) {
  memset(p, 0, sizeof *p);
  if (!strcmp(o->ac, "none"))
    p->ac = AC_NONE;
  else if (!strcmp(o->ac, "auto"))
    p->ac = AC_AUTO;
  else {
    char *end;
    double g = strtod(o->ac, &end);
    if (!remat_is_decimal(o->ac, true) || *end || !isfinite(g) || !(g > 0)) {
      remat_error_add(err,
                      "invalid value '%s' for option 'ac': expected none, auto or a "
                      "stage size in GiB > 0",
                      o->ac);
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
    remat_error_add(err,
                    "invalid value '%s' for option 'fsdp': expected recompute, save or "
                    "off",
                    o->fsdp);
    return -1;
  }
  if (parse_oplist(o->save_ops, "save-ops", &p->save, err) ||
      parse_oplist(o->always_save, "always-save", &p->always, err))
    return -1;
  if (o->save_every < 1) {
    remat_error_add(err, "invalid value %lld for option 'save-every': expected an integer >= 1",
                    (long long)o->save_every);
    return -1;
  }
  p->save_every = o->save_every;
  if (o->memory_budget < -1) {
    remat_error_add(err,
                    "invalid value %lld for option 'memory-budget': expected bytes >= 0 "
                    "(or -1: off)",
                    (long long)o->memory_budget);
    return -1;
  }
  p->budget = o->memory_budget;
  if (p->budget >= 0 && p->ac != AC_NONE) {
    remat_error_add(err, "options 'ac' and 'memory-budget' exclude each other");
    return -1;
  }
  p->greedy = o->budget_greedy;
  strcpy(p->dump, o->budget_dump);
  strcpy(p->report, o->report);
  return 0;
}

static int check_options(const void *o, char *err, size_t cap) {
  plan p;
  char *msg = NULL;
  int rc = make_plan(o, &p, &msg);
  remat_error_copy(msg, err, cap);
  return rc;
}

/* ---- the joint function as a graph ----------------------------------------------------- */

/* Operand sources: >= 0 an op index in the block, < 0 the argument -1 - src. */
typedef struct node {
  MlirOperation op;
  rt_op_id id;
  bool forward;   /* depends on no tangent (never true for the terminator) */
  bool constant;  /* no operands (and may recompute): free to recompute, never saved */
  bool arith;     /* an arith op (scalar arithmetic: recomputable like any cheap op) */
  bool scalar;    /* its first result is a scalar */
  bool fwd_only;  /* an rt.extern with recompute = "forward": never recomputed */
  rt_policy user; /* tag present in the input and not written by this pass */
  rt_policy tag;  /* what this run writes; RT_POLICY_NONE: nothing */
  int64_t region; /* rt.ac_region written with tag */
  const char *reason;
  uint64_t bytes; /* of the results */
  int nin, *in;   /* operand sources (into graph.src) */
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
  rt_graph view; /* the entry block, any ops (RT_GRAPH_ANY_OPS), with its use lists */
  /* what the run decided, for the report */
  int fsdp_chains, save_matched;
  double stage_gib;
  stage *stages;
  int nstages;
  uint64_t fixed, chosen, recompute_cost;
  int candidates, parts, largest, widest;
  bool exact;
  node *n;
  int count; /* ops of the entry block; the last one is the terminator (view.ret) */
  intptr_t nargs;
  bool *arg_param;
  int *src; /* every node's operand sources, in node order */
} graph;

/* Source of value V of the view (-1: not of the block): its op's index, -1 - argument
 * number, or INT32_MIN when from elsewhere. */
static int source_of(const rt_graph *view, int v) {
  return v < 0 ? INT32_MIN : view->val_op[v] >= 0 ? view->val_op[v] : -1 - v;
}

static void graph_free(graph *g) {
  free(g->n);
  free(g->src);
  free(g->arg_param);
  rt_graph_free(&g->view);
  free(g->stages);
}

/* Builds the graph of joint function FUNC with NUM_OUTPUTS forward outputs. Tags written
 * by an earlier run (rt.ac_reason present) are removed first. */
static void graph_build(graph *g, MlirOperation func, int64_t num_outputs) {
  memset(g, 0, sizeof *g);
  g->func = func;
  rt_graph *v = &g->view;
  if (rt_graph_load(v, func, RT_GRAPH_ANY_OPS | RT_GRAPH_USES, "--remat-checkpoint",
                    "joint function"))
    remat_fatal("checkpoint: a joint function without a body"); /* run skips those */
  g->nargs = v->nargs;
  g->arg_param = xcalloc(g->nargs + 1, sizeof *g->arg_param);
  bool *arg_tangent = xcalloc(g->nargs + 1, sizeof *arg_tangent);
  for (intptr_t a = 0; a < g->nargs; a++) {
    g->arg_param[a] = rt_func_arg_has_attr(func, a, "rt.param");
    arg_tangent[a] = rt_func_arg_has_attr(func, a, "rt.tangent");
  }
  g->count = v->nops + !mlirOperationIsNull(v->ret);
  g->n = xcalloc(g->count + 1, sizeof *g->n);
  g->src = xmalloc(((size_t)v->opnd_start[v->nops] + (size_t)v->nret + 1) * sizeof *g->src);
  for (int i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    n->op = v->ops[i];
    n->id = i < v->nops ? (rt_op_id)v->opid[i] : rt_op_lookup(v->ret);
    if (rt_op_has_attr(n->op, "rt.ac_reason")) { /* our own tag from an earlier run */
      rt_policy_set(n->op, RT_POLICY_NONE);
      mlirOperationRemoveDiscardableAttributeByName(n->op, rt_str("rt.ac_region"));
      mlirOperationRemoveDiscardableAttributeByName(n->op, rt_str("rt.ac_reason"));
    }
    n->user = rt_policy_get(n->op);
    n->fwd_only = n->id == RT_OP_EXTERN && rt_extern_recompute_of(n->op) == RT_EXTERN_FORWARD;
  }
  int term = g->count - 1;
  for (int i = 0; i < g->count; i++) {
    node *n = &g->n[i];
    const int *opnd = i < v->nops ? &v->opnd[v->opnd_start[i]] : v->ret_val;
    n->nin = i < v->nops ? v->opnd_start[i + 1] - v->opnd_start[i] : v->nret;
    n->in = &g->src[i < v->nops ? v->opnd_start[i] : v->opnd_start[v->nops]];
    /* an rt.extern without operands (aten.rand) is a constant only when it may run twice */
    n->constant = n->nin == 0 &&
                  (n->id != RT_OP_EXTERN || rt_extern_recompute_of(n->op) == RT_EXTERN_PURE);
    MlirStringRef opname = mlirIdentifierStr(mlirOperationGetName(n->op));
    n->arith = n->id == RT_OP_NONE && opname.length > 6 && !memcmp(opname.data, "arith.", 6);
    int r0 = i < v->nops ? v->op_res[i] : v->nvals, nres = i < v->nops ? v->op_res[i + 1] - r0 : 0;
    n->scalar = nres > 0 && rt_type_is_scalar(v->types[v->vtype[r0]].type);
    bool tangent = false;
    for (int k = 0; k < n->nin; k++) {
      int s = n->in[k] = source_of(v, opnd[k]);
      if ((s >= 0 && !g->n[s].forward) || (s < 0 && s != INT32_MIN && arg_tangent[-1 - s]))
        tangent = true;
    }
    n->forward = i != term && !tangent;
    for (int r = r0; r < r0 + nres; r++)
      n->bytes += rt_graph_bytes(v, r);
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
  for (int i = term - 1; i >= 0; i--) {
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
  if (n->user != RT_POLICY_NONE || n->id == RT_OP_NONE ||
      (n->fwd_only && rt_policy_is_recompute(p)))
    return; /* an rt.extern with recompute = "forward" never recomputes */
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
        n->op, rt_str("rt.ac_region"), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), n->region));
    mlirOperationSetDiscardableAttributeByName(n->op, rt_str("rt.ac_reason"),
                                               mlirStringAttrGet(ctx, rt_str(n->reason)));
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
    const rt_graph *view = &g->view;
    int v = view->op_res[cur];
    if (view->use_start[v + 1] - view->use_start[v] != 1)
      break;
    int j = view->use[view->use_start[v]];
    if (j < 0 || !g->n[j].forward || mlirOperationGetNumResults(g->n[j].op) != 1 ||
        (k = chain_operand(g, j)) < 0 || g->n[j].in[k] != cur)
      break;
    if (!rt_op_is_view(g->n[j].id))
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

/* An rt.extern named aten.convolution or aten._convolution (any overload): a convolution
 * is the matmul of a CNN. */
static bool is_convolution(MlirStringRef name) {
  for (int k = 0; k < 2; k++) {
    const char *c = k ? "aten._convolution" : "aten.convolution";
    size_t n = strlen(c);
    if (name.length >= n && !memcmp(name.data, c, n) && (name.length == n || name.data[n] == '.'))
      return true;
  }
  return false;
}

static bool oplist_has(const oplist *l, const node *n) {
  if (l->op[n->id])
    return true;
  if (n->id == RT_OP_EXTERN) {
    MlirStringRef name = rt_op_label(n->op);
    if ((l->op[RT_OP_MATMUL] || l->mm) && is_convolution(name))
      return true;
    char *key = xasprintf(",%.*s,", (int)name.length, name.data);
    bool listed = strstr(l->externs, key) != NULL;
    free(key);
    return listed;
  }
  if (n->id == RT_OP_CONV) /* rt.conv is the matmul of a CNN */
    return l->op[RT_OP_MATMUL] || l->mm;
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
 * recompute by default (not a matmul, conv, attention, reduction or collective, nor an
 * rt.extern other than recompute = "pure"), with operands, not tagged yet. */
static bool recomputable(const graph *g, int i) {
  const node *n = &g->n[i];
  rt_op_kind k = rt_op_kind_of(n->id);
  return n->need && n->id != RT_OP_NONE && !n->constant && k != RT_KIND_MATMUL &&
         k != RT_KIND_CONV && k != RT_KIND_ATTENTION && k != RT_KIND_REDUCTION &&
         k != RT_KIND_COLLECTIVE &&
         (n->id != RT_OP_EXTERN || rt_extern_recompute_of(n->op) == RT_EXTERN_PURE) &&
         policy_of(g, i) == RT_POLICY_NONE;
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

/* Cost of running op i once, in bytes moved (docs/design.md): operand and result bytes
 * (a gather's source counts the elements it reads: its result's bytes); an op with flops
 * (rt_op_flops: a matmul, a conv op, an rt.extern) at least its flops / FLOPS_PER_BYTE. */
static uint64_t op_cost(const graph *g, int i) {
  const node *n = &g->n[i];
  uint64_t c = n->bytes;
  for (int k = 0; k < n->nin; k++) {
    uint64_t b;
    if (n->id == RT_OP_GATHER && k == 0)
      c += n->bytes; /* it reads one source element per result element, not the source:
                        an embedding's lookup does not cost its table */
    else if (rt_value_bytes(mlirOperationGetOperand(n->op, k), &b) == 0)
      c += b;
  }
  double flops = rt_op_flops(n->op);
  if (flops > 0) {
    double fc = flops / FLOPS_PER_BYTE;
    if (fc > (double)c)
      c = fc >= 1.8e19 ? UINT64_MAX : (uint64_t)fc;
  }
  return c;
}

/* Why a needed value is saved whatever the choice (fixed bytes). */
enum fixed_why {
  FIX_NONE,
  FIX_USER,          /* the user's save tag */
  FIX_FSDP,          /* fsdp=save */
  FIX_ALWAYS,        /* the always-save list */
  FIX_COLLECTIVE,    /* a collective's result the backward needs: never recomputed */
  FIX_NEEDS_GATHER,  /* its recompute would need a collective's result that is not saved */
  FIX_NEEDS_OP,      /* its recompute would need a tensor from an op that is neither rt
                      * nor arith (the min-cut refuses those anyway) */
  FIX_FORWARD,       /* an rt.extern result with recompute = "forward": never recomputed */
  FIX_NEEDS_FORWARD, /* its recompute would need such a result that is not saved */
};

static const char *fixed_why_text(enum fixed_why w) {
  switch (w) {
  case FIX_NONE: return "";
  case FIX_USER: return "user save tag";
  case FIX_FSDP: return "fsdp=save";
  case FIX_ALWAYS: return "always-save";
  case FIX_COLLECTIVE: return "collective result";
  case FIX_NEEDS_GATHER: return "its recompute needs a collective result";
  case FIX_NEEDS_OP: return "its recompute needs a non-rt op";
  case FIX_FORWARD: return "rt.extern with recompute=forward";
  case FIX_NEEDS_FORWARD: return "its recompute needs an rt.extern with recompute=forward";
  }
  return "";
}

/* The budget problem of one joint function. */
typedef struct budget {
  int nc;              /* candidates */
  int *cand;           /* candidate -> op */
  int *index;          /* op -> candidate, -1 */
  enum fixed_why *why; /* op -> why it is fixed (FIX_NONE: not fixed) */
  uint64_t fixed;
  /* the knapsack over the candidates that are not fixed ("items") */
  int n, *item_of; /* item -> candidate */
  uint64_t *w, *v;
  int m, *gstart, *gitem;
  uint64_t *gv;
  bool private_only; /* beyond BUDGET_CHAIN_PAIRS: shared ops counted as always paid */
  uint64_t shared;   /* then: their cost */
} budget;

/* What a forward value is to a recompute chain (docs/design.md, "Memory budget"). */
enum chain_role {
  ROLE_AVAILABLE, /* the backward has it: an argument, constant, candidate, tagged or fixed
                   * value, or a scalar of an op outside rt and arith (the min-cut keeps it
                   * for its few bytes) */
  ROLE_OP,        /* recomputed when a chain needs it: rt ops and scalar arith (a dropout
                   * offset, offset + k: a mask is always recomputable from seed and offset) */
  ROLE_GATHER,    /* a collective's result nobody saves: a chain through it cannot be run */
  ROLE_FOREIGN,   /* a tensor of an op outside rt and arith: likewise */
  ROLE_FORWARD,   /* a result of an rt.extern with recompute = "forward" nobody saves: likewise */
};

static enum chain_role role_of(const graph *g, const budget *b, int s) {
  const node *d = &g->n[s];
  if (b->index[s] != -1 || d->constant || policy_of(g, s) != RT_POLICY_NONE ||
      b->why[s] != FIX_NONE)
    return ROLE_AVAILABLE;
  if (d->id == RT_OP_NONE && !d->arith)
    return d->scalar ? ROLE_AVAILABLE : ROLE_FOREIGN;
  if (rt_op_kind_of(d->id) == RT_KIND_COLLECTIVE)
    return ROLE_GATHER;
  return d->fwd_only ? ROLE_FORWARD : ROLE_OP;
}

/* The recompute chain of candidate op c: the ops the backward runs to recompute it from
 * what it has: c itself, then, through operands, every ROLE_OP value not seen[] == stamp.
 * Fills chain[0..) (c first) and returns the count, or -1 as soon as it would exceed
 * limit. */
static int chain_of(const graph *g, const budget *b, int c, int *seen, int stamp, int *chain,
                    int limit) {
  int head = 0, tail = 0;
  seen[c] = stamp;
  chain[tail++] = c;
  while (head < tail) {
    const node *n = &g->n[chain[head++]];
    for (int a = 0; a < n->nin; a++) {
      int s = n->in[a];
      if (s < 0 || seen[s] == stamp)
        continue;
      seen[s] = stamp;
      if (role_of(g, b, s) != ROLE_OP)
        continue;
      if (tail == limit)
        return -1;
      chain[tail++] = s;
    }
  }
  return tail;
}

static uint64_t hash_ints(const int *a, int n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int k = 0; k < n; k++)
    h = (h ^ (uint64_t)(uint32_t)a[k]) * 0x100000001b3ull;
  return h;
}

/* Chain memberships (an op in a candidate's chain) the exact model may list; beyond, the
 * model counts only ops of a single chain (budget_build). A residual stream the backward
 * never reads puts the whole stream before a value in its chain: quadratic. */
#define BUDGET_CHAIN_PAIRS (1 << 23)

/* Groups from the (op, item) memberships: an op of one chain adds its cost to that
 * item's value; ops with the same set of two or more chains are one group. */
static void budget_groups(graph *g, budget *b, const int *pair_op, const int *pair_item,
                          size_t npairs) {
  int count = g->count;
  int *ostart = xcalloc((size_t)count + 2, sizeof *ostart);
  int *oitem = xmalloc(sizeof *oitem * (npairs + 1));
  int *fill = xmalloc(sizeof *fill * ((size_t)count + 1));
  for (size_t a = 0; a < npairs; a++)
    ostart[pair_op[a] + 1]++;
  for (int i = 0; i < count; i++)
    ostart[i + 1] += ostart[i];
  memcpy(fill, ostart, sizeof *fill * (size_t)count);
  for (size_t a = 0; a < npairs; a++) /* ascending items per op: pairs come by item */
    oitem[fill[pair_op[a]]++] = pair_item[a];
  size_t hcap = 16;
  while (hcap < 2 * (size_t)count + 2)
    hcap *= 2;
  int *htab = xmalloc(sizeof *htab * hcap);
  for (size_t h = 0; h < hcap; h++)
    htab[h] = -1;
  b->gstart = xmalloc(sizeof *b->gstart * ((size_t)count + 2));
  b->gitem = xmalloc(sizeof *b->gitem * (npairs + 1));
  b->gv = xmalloc(sizeof *b->gv * ((size_t)count + 1));
  b->gstart[0] = 0;
  for (int o = 0; o < count; o++) {
    int *its = oitem + ostart[o], cnt = ostart[o + 1] - ostart[o];
    if (cnt == 0)
      continue;
    uint64_t c = op_cost(g, o);
    if (cnt == 1) {
      b->v[its[0]] = sat_add(b->v[its[0]], c);
      continue;
    }
    for (size_t h = hash_ints(its, cnt) & (hcap - 1);; h = (h + 1) & (hcap - 1)) {
      int q = htab[h];
      if (q < 0) { /* a new group */
        q = htab[h] = b->m++;
        memcpy(b->gitem + b->gstart[q], its, sizeof *its * (size_t)cnt);
        b->gstart[q + 1] = b->gstart[q] + cnt;
        b->gv[q] = 0;
      }
      if (b->gstart[q + 1] - b->gstart[q] == cnt &&
          !memcmp(b->gitem + b->gstart[q], its, sizeof *its * (size_t)cnt)) {
        b->gv[q] = sat_add(b->gv[q], c);
        break;
      }
    }
  }
  free(htab), free(ostart), free(oitem), free(fill);
}

/* Beyond BUDGET_CHAIN_PAIRS: an op whose chains all belong to one item adds its cost to
 * that item; ops of several chains are counted as always recomputed (never gained). One
 * reverse pass: an op's owner is its users' (an item, or the owner of a chain op). */
static void budget_private(graph *g, budget *b, const int *item_at) {
  enum { NONE = -1, MANY = -2 };
  int count = g->count;
  int *owner = xmalloc(sizeof *owner * ((size_t)count + 1));
  for (int i = 0; i < count; i++)
    owner[i] = NONE;
  for (int j = count - 1; j >= 0; j--) {
    int tok = item_at[j] >= 0 ? item_at[j] : owner[j];
    if (tok == NONE || (item_at[j] < 0 && role_of(g, b, j) != ROLE_OP))
      continue;
    for (int a = 0; a < g->n[j].nin; a++) {
      int s = g->n[j].in[a];
      if (s < 0 || role_of(g, b, s) != ROLE_OP)
        continue;
      owner[s] = owner[s] == NONE || owner[s] == tok ? tok : MANY;
    }
  }
  for (int i = 0; i < count; i++)
    if (owner[i] >= 0)
      b->v[owner[i]] = sat_add(b->v[owner[i]], op_cost(g, i));
    else if (owner[i] == MANY)
      b->shared = sat_add(b->shared, op_cost(g, i));
  free(owner);
}

/* Builds the problem (docs/design.md, "Memory budget"): needed values, fixed bytes,
 * candidates, and over the candidates that are not fixed the set-union knapsack: an
 * item's value is its op's cost plus the ops of its chain no other chain has; an op
 * several chains have is a group, paid unless all of them are saved (ops with the same
 * set of chains are one group). */
static void budget_build(graph *g, budget *b) {
  int count = g->count;
  memset(b, 0, sizeof *b);
  b->cand = xmalloc(sizeof *b->cand * ((size_t)count + 1));
  b->index = xmalloc(sizeof *b->index * ((size_t)count + 1));
  b->why = xcalloc((size_t)count + 1, sizeof *b->why);
  /* Needed by the backward: read by a live backward op or returned as a gradient, or an
   * input of a needed value that a recompute tag (user or FSDP) makes the backward
   * recompute. Users come after their operands: one reverse pass. */
  bool *needed = xmalloc(sizeof *needed * ((size_t)count + 1));
  for (int i = 0; i < count; i++)
    needed[i] = g->n[i].forward && g->n[i].bwd_use;
  for (int i = count - 1; i >= 0; i--)
    if (needed[i] && forced_recompute(g, i))
      for (int a = 0; a < g->n[i].nin; a++)
        if (g->n[i].in[a] >= 0 && g->n[g->n[i].in[a]].forward)
          needed[g->n[i].in[a]] = true;
  for (int i = 0; i < count; i++) {
    node *n = &g->n[i];
    b->index[i] = -1;
    if (!needed[i] || n->constant || n->id == RT_OP_NONE || forced_recompute(g, i))
      continue;
    rt_policy pol = policy_of(g, i);
    if (rt_policy_is_save(pol))
      b->why[i] = n->user != RT_POLICY_NONE    ? FIX_USER
                  : !strcmp(n->reason, "fsdp") ? FIX_FSDP
                                               : FIX_ALWAYS;
    else if (pol == RT_POLICY_NONE && rt_op_kind_of(n->id) == RT_KIND_COLLECTIVE)
      b->why[i] = FIX_COLLECTIVE;
    else if (pol == RT_POLICY_NONE && n->fwd_only)
      b->why[i] = FIX_FORWARD;
    else if (pol == RT_POLICY_NONE) {
      b->index[i] = b->nc;
      b->cand[b->nc++] = i;
    }
  }
  free(needed);
  /* A candidate whose chain would run a collective nobody saves, or an op outside rt and
   * arith, is fixed (saved). blocked[o]: such a value is among o's ancestors through
   * chain ops (one forward pass; a collective result wins over a foreign op). */
  enum fixed_why *blocked = xcalloc((size_t)count + 1, sizeof *blocked);
  for (int i = 0; i < count; i++) {
    bool cand = b->index[i] >= 0;
    if (!cand && role_of(g, b, i) != ROLE_OP)
      continue;
    for (int a = 0; a < g->n[i].nin; a++) {
      int s = g->n[i].in[a];
      if (s < 0)
        continue;
      enum chain_role r = role_of(g, b, s);
      enum fixed_why w = r == ROLE_GATHER    ? FIX_NEEDS_GATHER
                         : r == ROLE_FOREIGN ? FIX_NEEDS_OP
                         : r == ROLE_FORWARD ? FIX_NEEDS_FORWARD
                         : r == ROLE_OP      ? blocked[s]
                                             : FIX_NONE;
      if (w == FIX_NEEDS_GATHER || (w != FIX_NONE && blocked[i] == FIX_NONE))
        blocked[i] = w;
    }
  }
  for (int k = 0; k < b->nc; k++)
    b->why[b->cand[k]] = blocked[b->cand[k]];
  free(blocked);
  /* items: the candidates that are not fixed; fixed ones stay available (index -2) */
  int *item_at = xmalloc(sizeof *item_at * ((size_t)count + 1));
  b->item_of = xmalloc(sizeof *b->item_of * ((size_t)b->nc + 1));
  b->w = xmalloc(sizeof *b->w * ((size_t)b->nc + 1));
  b->v = xmalloc(sizeof *b->v * ((size_t)b->nc + 1));
  for (int i = 0; i < count; i++)
    item_at[i] = -1;
  for (int k = 0; k < b->nc; k++) {
    int c = b->cand[k];
    if (b->why[c] != FIX_NONE) {
      b->index[c] = -2;
      continue;
    }
    b->item_of[b->n] = k;
    b->w[b->n] = g->n[c].bytes;
    b->v[b->n] = op_cost(g, c);
    item_at[c] = b->n++;
  }
  for (int i = 0; i < count; i++)
    if (b->why[i] != FIX_NONE)
      b->fixed = sat_add(b->fixed, g->n[i].bytes);
  /* the memberships, while they fit */
  int *seen = xmalloc(sizeof *seen * ((size_t)count + 1));
  int *chain = xmalloc(sizeof *chain * ((size_t)count + 1));
  for (int i = 0; i < count; i++)
    seen[i] = -1;
  size_t npairs = 0, pcap = 1024;
  int *pair_op = xmalloc(sizeof *pair_op * pcap), *pair_item = xmalloc(sizeof *pair_item * pcap);
  for (int it = 0; it < b->n && !b->private_only; it++) {
    int left = BUDGET_CHAIN_PAIRS - (int)npairs;
    int len = chain_of(g, b, b->cand[b->item_of[it]], seen, it, chain, left + 1);
    if (len < 0) {
      b->private_only = true;
      break;
    }
    if (npairs + (size_t)len > pcap) {
      while (pcap < npairs + (size_t)len)
        pcap *= 2;
      pair_op = xrealloc(pair_op, pcap, sizeof *pair_op);
      pair_item = xrealloc(pair_item, pcap, sizeof *pair_item);
    }
    for (int j = 1; j < len; j++) {
      pair_op[npairs] = chain[j];
      pair_item[npairs++] = it;
    }
  }
  if (b->private_only) {
    b->gstart = xcalloc(1, sizeof *b->gstart);
    b->gitem = xmalloc(sizeof *b->gitem);
    b->gv = xmalloc(sizeof *b->gv);
    budget_private(g, b, item_at);
  } else
    budget_groups(g, b, pair_op, pair_item, npairs);
  free(pair_op), free(pair_item), free(seen), free(chain), free(item_at);
}

static void budget_free(budget *b) {
  free(b->cand), free(b->index), free(b->why), free(b->item_of), free(b->w), free(b->v);
  free(b->gstart), free(b->gitem), free(b->gv);
}

/* The error when the fixed bytes exceed the budget: at the function, naming every reason
 * and the fixed values (op, location, reason, bytes; the first 8 of them). */
static void budget_error(const graph *g, const plan *p, const budget *b) {
  MlirStringRef name = rt_func_name(g->func);
  size_t cap = 1024, len = 0;
  char *list = xmalloc(cap);
  int shown = 0, more = 0;
  list[0] = 0;
  for (int i = 0; i < g->count; i++) {
    if (b->why[i] == FIX_NONE)
      continue;
    if (shown == 8) {
      more++;
      continue;
    }
    char loc[256];
    MlirStringRef label = rt_op_label(g->n[i].op);
    char *row = xasprintf("%s%.*s at %s (%s, %llu bytes)", shown ? "; " : "", (int)label.length,
                          label.data,
                          remat_report_loc(mlirOperationGetLocation(g->n[i].op), loc, sizeof loc),
                          fixed_why_text(b->why[i]), (unsigned long long)g->n[i].bytes);
    size_t rl = strlen(row);
    if (len + rl + 1 > cap)
      list = xrealloc(list, cap = 2 * (len + rl + 1), 1);
    memcpy(list + len, row, rl + 1);
    len += rl;
    free(row);
    shown++;
  }
  rt_emit_error(g->func,
                "memory-budget=%lld is infeasible for '@%.*s': %llu bytes must be saved "
                "whatever the choice (save tags of the user, fsdp=save and always-save; "
                "collective results and those of rt.extern ops with recompute=forward; values "
                "whose recompute needs one of those or a non-rt op): %s%s%.0d%s",
                (long long)p->budget, (int)name.length, name.data, (unsigned long long)b->fixed,
                list, more ? "; and " : "", more, more ? " more" : "");
  free(list);
}

/* Writes the problem and the choice for bench/ilp (docs/design.md, "Memory budget"). */
static void budget_dump(FILE *f, const graph *g, const plan *p, const budget *b, const bool *take,
                        const uk_result *r) {
  MlirStringRef name = rt_func_name(g->func);
  fprintf(f, "function @%.*s\nbudget %lld fixed %llu cap %llu\n", (int)name.length, name.data,
          (long long)p->budget, (unsigned long long)b->fixed,
          (unsigned long long)((uint64_t)p->budget - b->fixed));
  for (int it = 0; it < b->n; it++) {
    char loc[256];
    int op = b->cand[b->item_of[it]];
    MlirStringRef label = rt_op_label(g->n[op].op);
    fprintf(f, "item %d %llu %llu %.*s %s\n", it, (unsigned long long)b->w[it],
            (unsigned long long)b->v[it], (int)label.length, label.data,
            remat_report_loc(mlirOperationGetLocation(g->n[op].op), loc, sizeof loc));
  }
  for (int q = 0; q < b->m; q++) {
    fprintf(f, "group %llu %d", (unsigned long long)b->gv[q], b->gstart[q + 1] - b->gstart[q]);
    for (int k = b->gstart[q]; k < b->gstart[q + 1]; k++)
      fprintf(f, " %d", b->gitem[k]);
    fprintf(f, "\n");
  }
  if (b->private_only)
    fprintf(f, "shared %llu\n", (unsigned long long)b->shared);
  fprintf(f, "choice %s value %llu saved", r->exact && !b->private_only ? "exact" : "heuristic",
          (unsigned long long)r->value);
  for (int it = 0; it < b->n; it++)
    if (take[it])
      fprintf(f, " %d", it);
  fprintf(f, "\nend\n");
}

/* memory-budget: fixed values must_save; the chosen candidates must_save, the others and
 * the ops their chains need prefer_recompute (so the min-cut saves no other activation);
 * other forward ops stay untagged (a recompute tag on a value nothing needs would only
 * make the min-cut cut above it). Returns 0, or -1 after an error when the fixed bytes
 * exceed the budget. */
static int tag_budget(graph *g, const plan *p, FILE *dump) {
  budget b;
  budget_build(g, &b);
  if (b.fixed > (uint64_t)p->budget) {
    budget_error(g, p, &b);
    budget_free(&b);
    return -1;
  }
  uk_problem up = {b.n, b.w, b.v, b.m, b.gv, b.gstart, b.gitem, (uint64_t)p->budget - b.fixed};
  bool *take = xmalloc(sizeof *take * ((size_t)b.n + 1));
  uk_result r;
  uk_solve(&up, p->greedy, take, &r);
  bool *every = xmalloc(sizeof *every * ((size_t)b.n + 1));
  for (int it = 0; it < b.n; it++)
    every[it] = true;
  uint64_t total = uk_value(&up, every, NULL);
  free(every);
  g->exact = r.exact && !b.private_only;
  g->fixed = b.fixed;
  g->candidates = b.n;
  g->parts = r.parts;
  g->largest = r.largest;
  g->widest = r.widest;
  g->recompute_cost = sat_add(total - r.value, b.shared);
  for (int it = 0; it < b.n; it++)
    if (take[it])
      g->chosen += b.w[it];
  /* Candidates fixed by their chain are saved; tagged values keep their tags; collective
   * results stay untagged (the min-cut may gather again in the backward from a saved
   * primal, which the budget does not count). */
  for (int i = 0; i < g->count; i++)
    if (b.why[i] == FIX_NEEDS_GATHER || b.why[i] == FIX_NEEDS_OP || b.why[i] == FIX_NEEDS_FORWARD)
      tag(g, i, RT_POLICY_MUST_SAVE, 0, "budget");
  int *seen = xmalloc(sizeof *seen * ((size_t)g->count + 1));
  int *chain = xmalloc(sizeof *chain * ((size_t)g->count + 1));
  for (int i = 0; i < g->count; i++)
    seen[i] = -1;
  for (int it = 0; it < b.n; it++) {
    int c = b.cand[b.item_of[it]];
    if (take[it]) {
      tag(g, c, RT_POLICY_MUST_SAVE, 0, "budget");
      continue;
    }
    /* tagged ops are available to chain_of: each op is visited once over all chains */
    int len = chain_of(g, &b, c, seen, it, chain, g->count + 1);
    for (int j = 0; j < len; j++)
      tag(g, chain[j], RT_POLICY_PREFER_RECOMPUTE, 0, "budget");
  }
  if (dump)
    budget_dump(dump, g, p, &b, take, &r);
  free(seen), free(chain), free(take);
  budget_free(&b);
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
    MlirStringRef label = rt_op_label(n->op); /* an rt.extern by its own name */
    char *name = xstrndup(label.data, label.length);
    remat_report_row(f, row++, name, v, n->bytes, remat_report_tag_why(n->op, why, sizeof why));
    free(name);
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
      MlirStringRef label = rt_op_label(g->n[s->point].op);
      fprintf(f, "  stage %d: %d op%s, %llu bytes; point %.*s %s, %llu bytes live\n", k + 1,
              s->nops, s->nops == 1 ? "" : "s", (unsigned long long)s->bytes, (int)label.length,
              label.data,
              remat_report_loc(mlirOperationGetLocation(g->n[s->point].op), loc, sizeof loc),
              (unsigned long long)s->live);
    }
  }
  if (p->budget >= 0)
    fprintf(f,
            "  budget: %lld bytes: %llu fixed, %llu chosen among %d candidate%s (%d part%s, "
            "largest %d, widest %d); recompute cost %llu (%s)\n",
            (long long)p->budget, (unsigned long long)g->fixed, (unsigned long long)g->chosen,
            g->candidates, g->candidates == 1 ? "" : "s", g->parts, g->parts == 1 ? "" : "s",
            g->largest, g->widest, (unsigned long long)g->recompute_cost,
            g->exact ? "exact" : "heuristic");
  fprintf(f,
          "  tags: %d must_save, %d must_recompute, %d prefer_recompute; user tags kept: "
          "%d\n",
          count[RT_POLICY_MUST_SAVE], count[RT_POLICY_MUST_RECOMPUTE],
          count[RT_POLICY_PREFER_RECOMPUTE], user);
}

/* ---- the pass ------------------------------------------------------------------------- */

/* Tags one joint function; 0, or -1 after an error. */
static int tag_function(MlirOperation func, int64_t num_outputs, const plan *p, FILE *rep,
                        FILE *dump) {
  graph g;
  graph_build(&g, func, num_outputs);
  int rc = 0;
  if (g.count > 0) {
    if (p->fsdp != FSDP_OFF)
      tag_fsdp(&g, p->fsdp);
    if (p->always.any)
      tag_always_save(&g, p);
    if (p->budget >= 0)
      rc = tag_budget(&g, p, dump);
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
  FILE *dump = remat_report_open(p->dump, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-checkpoint: cannot open the budget-dump file '%s'", p->dump);
    remat_report_close(rep);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  int joint = 0;
  MlirRegion body = mlirOperationGetRegion(module, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      int64_t num_outputs;
      if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") ||
          !rt_func_num_outputs(op, &num_outputs) || mlirBlockIsNull(rt_func_entry_block(op)))
        continue;
      joint++;
      if (tag_function(op, num_outputs, p, rep, dump)) {
        mlirExternalPassSignalFailure(pass);
        break;
      }
    }
  /* An empty report would read as if the pass had not run. */
  if (rep && joint == 0)
    fprintf(rep, "remat-checkpoint: no joint function (func.func with rt.num_outputs): "
                 "nothing tagged\n");
  if (remat_report_close(rep)) {
    rt_emit_error(module, "--remat-checkpoint: cannot write the report to '%s'", p->report);
    mlirExternalPassSignalFailure(pass);
  }
  if (remat_report_close(dump)) {
    rt_emit_error(module, "--remat-checkpoint: cannot write the budget-dump file '%s'", p->dump);
    mlirExternalPassSignalFailure(pass);
  }
}

static MlirPass create(const void *options) {
  plan p;
  char *err = NULL;
  if (make_plan(options, &p, &err)) /* check_options ran before: a bug */
    remat_fatal("unchecked options: %s", err);
  return remat_pass_create(&remat_checkpoint_pass, "RematCheckpoint", run, &p, sizeof p);
}

REMAT_PASS_INFO(checkpoint, Checkpoint, REMAT_CHECKPOINT_OPTIONS,
                "tag activation-checkpoint policies (FSDP gathers, save list, stages, budget)",
                contract, check_options, create)
