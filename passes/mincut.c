/* mincut.c: --remat-mincut, the min-cut split of joint forward+backward functions into a
 * forward that saves values and a backward that reads or recomputes them.
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it, and
 * docs/design.md "Min-cut" is generated from it).
 *
 * How (one function at a time, every walk a loop over the op array, so 10^5-op functions
 * need no recursion and no use-list scans):
 *   1. number the arguments and op results; operands become value indices;
 *   2. backward = depends on a tangent (forward walk); live backward ops (reverse walk
 *      from the gradient results); candidates = every other value except constants;
 *   3. the flow network of docs/design.md over the candidates that can reach the backward;
 *   4. max-flow; the saved set is the in->out edges crossing the cut closest to the sink;
 *   5. reverse walks pick the backward's recomputed ops and the forward's ops; the joint
 *      function becomes the forward (its forward ops stay in place), the backward ops move
 *      into a new function, in remat_bwd_order's order, and only the recomputed ops the
 *      forward also runs are cloned, so the rewrite costs what moves, not the function's
 *      size. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_model.h"
#include "flow_network.h"
#include "memory.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "passes.h"
#include "peak_search.h"
#include "report.h"
#include "rt.h"
#include "rt_graph.h"
#include "show.h"
#include "split_view.h"

/* What the pass requires, keeps and breaks. */
static const char contract[] =
    "requires: verified rt IR; each joint function (a func.func with rt.num_outputs) has "
    "one block of rt and arith ops ending in func.return, at least one rt.tangent argument, "
    "and forward outputs that do not depend on a tangent. keeps: other functions; the "
    "forward ops' relative order and the backward ops' (those that depend on a tangent), "
    "locations and attributes (rt.policy); argument attributes (rt.param, rt.tangent). "
    "breaks: replaces each joint @f by @f_fwd(primals...) -> (outputs..., saved...) "
    "{rt.num_outputs, rt.saved_bytes} and @f_bwd(saved..., tangents...) -> (grads...) "
    "{rt.forward = @f_fwd}; saved values in value order (primal arguments first, then op "
    "results in op order); dead ops are dropped; @f_bwd runs each forward op it needs just "
    "before its first backward use (the order the peak estimate simulates)";

/* The time since *T, which becomes now. */
static double lap_ms(double *t) {
  double start = *t;
  *t = remat_now_ms();
  return *t - start;
}

/* ---- options ---------------------------------------------------------------------- */

typedef struct mincut_pass {
  RematMincutOptions opts;
  bool banned[RT_OP_COUNT]; /* from opts.ban and opts.ban_random */
  bool peak;                /* objective=peak */
  remat_peak_method search; /* peak-search */
} mincut_pass;

/* objective, peak-budget and peak-search. 0, or -1 with a message. */
static int parse_objective(const RematMincutOptions *o, bool *peak, remat_peak_method *search,
                           char **err) {
  static const char *const names[] = {"auto", "exact", "heuristic", "enumerate"};
  if (strcmp(o->objective, "bytes") && strcmp(o->objective, "peak")) {
    remat_error_add(err, "objective must be bytes or peak, got '%s'", o->objective);
    return -1;
  }
  *peak = !strcmp(o->objective, "peak");
  if (o->peak_budget < 0) {
    remat_error_add(err, "peak-budget must be a number of bytes >= 0 (0: none), got %lld",
                    (long long)o->peak_budget);
    return -1;
  }
  if (o->peak_budget > 0 && !*peak) {
    remat_error_add(err, "peak-budget needs objective=peak");
    return -1;
  }
  for (int k = 0; k < 4; k++)
    if (!strcmp(o->peak_search, names[k])) {
      *search = (remat_peak_method)k;
      return 0;
    }
  remat_error_add(err, "peak-search must be auto, exact, heuristic or enumerate, got '%s'",
                  o->peak_search);
  return -1;
}

/* Fills banned[] from a comma list of op names and kind names. 0, or -1 with a message. */
static int parse_ban(const char *list, bool ban_random, bool banned[RT_OP_COUNT], char **err) {
  memset(banned, 0, RT_OP_COUNT * sizeof *banned);
  if (ban_random)
    banned[RT_OP_UNIFORM_PHILOX] = true;
  if (!strcmp(list, "none") || !*list)
    return 0;
  char buf[REMAT_OPTION_STRING_MAX];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    rt_op_id id = rt_op_from_name(item);
    if (id != RT_OP_NONE) {
      banned[id] = true;
      continue;
    }
    bool kind_found = false;
    for (int k = RT_KIND_NONE + 1; k < RT_KIND_COUNT; k++)
      if (!strcmp(item, rt_op_kind_name((rt_op_kind)k))) {
        kind_found = true;
        for (int i = 1; i < RT_OP_COUNT; i++)
          if (rt_op_kind_of((rt_op_id)i) == (rt_op_kind)k)
            banned[i] = true;
      }
    if (!kind_found) {
      remat_error_add(err, "ban: '%s' is neither an rt op nor an op kind (" RT_KIND_NAMES ")",
                      item);
      return -1;
    }
  }
  return 0;
}

/* ---- the joint function as arrays ------------------------------------------------- */

typedef struct joint {
  /* the function (rt_graph.h): func, ret, nargs, nops, nvals, nret, ops, opid, op_res,
   * opnd_start, opnd, vals, val_op, vtype, ret_val, types */
  RT_GRAPH_MEMBERS(g);
  void *block; /* holds vf, of and node (load) */
  MlirContext ctx;
  int64_t num_outputs;
  unsigned *vf; /* RV_* (split_view.h) */
  unsigned *of; /* RO_* */
  int *node;    /* in-node of a value in the network (out-node = in-node + 1), or -1 */
  /* results */
  int nsaved;
  int *saved; /* value indices, ascending */
  int nbwd;
  int *bwd_order; /* the ops of @f_bwd in the order it runs them (remat_bwd_order) */
  int nfwd;
  int *fwd_order; /* objective=peak: the ops of @f_fwd in the order it runs them; NULL:
                     program order (they stay in place) */
  uint64_t saved_bytes, param_bytes, baseline_bytes; /* param_bytes: of saved_bytes */
  double flow, solve_ms;
  double load_ms, classify_ms, network_ms, plan_ms, rewrite_ms; /* network: cut - solve */
  int recomputed, moved;
  remat_peak_result *peak;      /* objective=peak: the search's choice and reference points */
  uint64_t jit_peak, list_peak; /* objective=peak: the chosen split's estimated peak in
                                   remat_bwd_order's order and in the list schedule's */
  bool listed;                  /* @f_bwd runs in the list schedule's order */
} joint;

static void joint_free(joint *j) {
  rt_graph_free(&j->g);
  free(j->block);
  free(j->saved);
  free(j->bwd_order);
  free(j->fwd_order);
  if (j->peak)
    free(j->peak->saved);
  free(j->peak);
}

/* Reads the body of J->func into arrays (rt_graph_load) and adds the pass's own: flags
 * and the network's node of each value. 0, or -1 after a diagnostic. */
static int load(joint *j) {
  if (rt_graph_load(&j->g, j->func, 0, "--remat-mincut", "joint function") < 0)
    return -1;
  size_t nops = (size_t)j->nops, nvals = (size_t)j->nvals;
  /* one allocation for the three (after parsing 10^6 ops each large malloc costs ~5 ms,
   * rt_graph.c) */
  _Static_assert(sizeof(int) == sizeof(unsigned), "of, vf and node share one block");
  unsigned *at = j->block = xmalloc((nops + 2 * nvals) * sizeof *at);
  j->of = at;
  j->vf = at + nops;
  j->node = (int *)(at + nops + nvals);
  memset(j->vf, 0, nvals * sizeof *j->vf);
  for (int i = 0; i < j->nops; i++)
    j->of[i] = j->constant[i] ? RO_CONST_OP : 0;
  for (int a = 0; a < j->nargs; a++) {
    if (rt_func_arg_has_attr(j->func, a, "rt.tangent"))
      j->vf[a] |= RV_TANGENT;
    /* a buffer (rt.buffer: running statistics, masks) is persistent state like a
     * parameter, only without a gradient */
    if (rt_func_arg_has_attr(j->func, a, "rt.param") ||
        rt_func_arg_has_attr(j->func, a, "rt.buffer"))
      j->vf[a] |= RV_PARAM;
  }
  return 0;
}

/* ---- classification --------------------------------------------------------------- */

/* A reduction that shrinks its operand at most RATIO times (bytes; RATIO > 0) costs about
 * what an elementwise op costs to recompute: torch's min-cut bans only reductions whose
 * result is more than 4x smaller than their inputs (a batch norm's mean over a 1x1 image,
 * resnet18's last stage at 32x32, is not). */
static bool cheap_reduction(const joint *j, int i, int64_t ratio) {
  if (ratio <= 0 || rt_op_kind_of((rt_op_id)j->opid[i]) != RT_KIND_REDUCTION)
    return false;
  uint64_t in = rt_graph_bytes(&j->g, j->opnd[j->opnd_start[i]]);
  uint64_t out = rt_graph_bytes(&j->g, j->op_res[i]);
  return in / (uint64_t)ratio + (in % (uint64_t)ratio != 0) <= out; /* in <= ratio * out */
}

/* Backward ops, constants, policy tags, bans, and which candidates the backward reads.
 * 0, or -1 after a diagnostic. */
static int classify(joint *j, const mincut_pass *p) {
  MlirStringRef fname = rt_func_name(j->func);
  bool any_tangent = false;
  for (int a = 0; a < j->nargs; a++)
    if (j->vf[a] & RV_TANGENT) {
      j->vf[a] |= RV_BW;
      any_tangent = true;
    }
  if (!any_tangent) {
    rt_emit_error(j->func,
                  "joint function '@%.*s' has no 'rt.tangent' argument: nothing "
                  "depends on the outputs' cotangents, there is no backward to split",
                  (int)fname.length, fname.data);
    return -1;
  }
  for (int i = 0; i < j->nops; i++) {
    MlirOperation op = j->ops[i];
    rt_op_id id = (rt_op_id)j->opid[i];
    rt_policy pol = rt_policy_get(op);
    bool bw = false;
    FOR_OPERANDS(j, i, v) bw |= (j->vf[v] & RV_BW) != 0;
    unsigned f = (bw ? RO_BW : 0) | (j->of[i] & RO_CONST_OP);
    if (rt_policy_is_save(pol))
      f |= RO_SAVE_TAG;
    if (rt_policy_is_recompute(pol))
      f |= RO_RECOMPUTE_TAG;
    if (!bw && !(f & RO_SAVE_TAG) && (f & RO_CONST_OP))
      f |= RO_CONST;
    /* rt.extern: banned unless recompute = "pure" (and ban does not name it) */
    rt_extern_recompute rc = id == RT_OP_EXTERN ? rt_extern_recompute_of(op) : RT_EXTERN_PURE;
    /* a recompute tag lifts the ban, as in PyTorch's partitioner; a constant is cloned
     * where it is used whatever the ban (ban=elementwise names rt.full) */
    if (id != RT_OP_NONE && (p->banned[id] || rc != RT_EXTERN_PURE) &&
        !rt_policy_is_recompute(pol) && !(f & RO_CONST) &&
        !cheap_reduction(j, i, p->opts.reduction_ratio))
      f |= RO_BANNED;
    if (rc == RT_EXTERN_FORWARD && !bw) {
      if (rt_policy_is_recompute(pol)) {
        MlirStringRef n = rt_op_label(op);
        rt_emit_error(op,
                      "no valid split of '@%.*s': 'rt.extern' (%.*s) has recompute = "
                      "\"forward\" but is tagged \"%s\": it runs in the forward only",
                      (int)fname.length, fname.data, (int)n.length, n.data, rt_policy_name(pol));
        return -1;
      }
      f |= RO_FORWARD;
    }
    if (bw && pol == RT_POLICY_MUST_SAVE) {
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
      rt_emit_error(op,
                    "no valid split of '@%.*s': '%.*s' is tagged \"must_save\" but depends "
                    "on a tangent, so the forward cannot compute it",
                    (int)fname.length, fname.data, (int)n.length, n.data);
      return -1;
    }
    j->of[i] = f;
    FOR_RESULTS(j, i, v) j->vf[v] |= (bw ? RV_BW : 0) | (f & RO_CONST ? RV_CONST : 0);
  }
  for (int r = 0; r < j->num_outputs; r++)
    if (j->vf[j->ret_val[r]] & RV_BW) {
      rt_emit_error(j->ret,
                    "forward output #%d of '@%.*s' depends on a tangent: forward "
                    "outputs must be computable without the cotangents",
                    r, (int)fname.length, fname.data);
      return -1;
    }
  /* Live backward ops (reverse walk from the gradients): what they read from the forward
   * side is RV_BW_READ. RV_BNEED marks the live backward values for now. */
  for (int r = (int)j->num_outputs; r < j->nret; r++) {
    int v = j->ret_val[r];
    j->vf[v] |= (j->vf[v] & RV_BW) ? RV_BNEED : (j->vf[v] & RV_CONST) ? 0 : RV_BW_READ;
  }
  for (int i = j->nops - 1; i >= 0; i--) {
    if (!(j->of[i] & RO_BW))
      continue;
    bool live = false;
    FOR_RESULTS(j, i, v) live |= (j->vf[v] & RV_BNEED) != 0;
    if (!live)
      continue;
    FOR_OPERANDS(j, i, v) {
      if (j->vf[v] & RV_BW)
        j->vf[v] |= RV_BNEED;
      else if (!(j->vf[v] & RV_CONST))
        j->vf[v] |= RV_BW_READ;
    }
  }
  for (int v = 0; v < j->nvals; v++)
    j->vf[v] &= ~RV_BNEED;
  /* Candidates from which the backward is reachable, and what the forward outputs need. */
  for (int r = 0; r < j->num_outputs; r++)
    j->vf[j->ret_val[r]] |= RV_OUT_NEED;
  for (int v = 0; v < j->nvals; v++)
    if (j->vf[v] & RV_BW_READ)
      j->vf[v] |= RV_REACH;
  for (int i = j->nops - 1; i >= 0; i--) {
    if (j->of[i] & (RO_BW | RO_CONST))
      continue;
    unsigned any = 0;
    FOR_RESULTS(j, i, v) any |= j->vf[v] & (RV_REACH | RV_OUT_NEED);
    FOR_OPERANDS(j, i, v) {
      if (!(j->vf[v] & RV_CONST))
        j->vf[v] |= any;
    }
  }
  return 0;
}

/* ---- the flow network -------------------------------------------------------------- */

enum { SOURCE = 0, SINK = 1 };

/* Adds an edge to NET, or only counts it when NET is NULL. */
static void add_edge(flow_network *net, size_t *count, int from, int to, double cap) {
  if (net && flow_network_add_edge(net, (size_t)from, (size_t)to, cap))
    remat_fatal("flow_network_add_edge failed");
  ++*count;
}

static bool has_source_edge(const joint *j, int v) {
  int op = j->val_op[v];
  if (op < 0)
    return true; /* a primal argument */
  unsigned f = j->of[op], out = 0;
  FOR_RESULTS(j, op, r) out |= j->vf[r] & RV_OUT_NEED; /* the forward runs the op */
  return (f & (RO_SAVE_TAG | RO_FORWARD)) || ((f & RO_BANNED) && out);
}

/* A banned op runs once. The plain network lets the cut put a banned op b on the sink
 * side (the backward computes it) while the forward still computes b for a consumer
 * whose value it saves: b would run twice. So each value u downstream of a banned op
 * gets a node A(u), "u or a value computed from u is on the source side", with infinite
 * edges u_in -> A(u), A(u) -> A(v) for each operand v, and A(b) -> b_in: a source-side
 * consumer pulls b_in to the source side, where b is computed in the forward (and saved
 * if the backward needs it).
 *
 * No cut is infinite: every v_in -> v_out edge is finite, and no in-node has both an
 * infinite way in from the source (arguments, save tags, banned ops the outputs need and,
 * through A, banned ops a source-side value needs, and through the cycle of a banned op's
 * results, its other results) and an edge to the sink (recompute tags, which lift bans and
 * exclude save tags). */
/* The edges of the network of docs/design.md (plus the run-once nodes above), added to NET,
 * or only counted when NET is NULL; their number. TW: the weight of each type, ANODE: the
 * run-once node of each value or -1. */
static size_t network_edges(const joint *j, const remat_cost_model *model, const double *tw,
                            const int *anode, flow_network *net) {
  size_t n = 0;
  for (int v = 0; v < j->nvals; v++) {
    if (j->node[v] < 0)
      continue;
    int in = j->node[v], out = in + 1, op = j->val_op[v];
    double w = j->vf[v] & RV_PARAM ? remat_type_weight(model, j->types[j->vtype[v]].type, true)
                                   : tw[j->vtype[v]];
    if (w < 0)
      remat_fatal("value without a byte size after rt_verify");
    add_edge(net, &n, in, out, w);
    if (j->vf[v] & RV_BW_READ)
      add_edge(net, &n, out, SINK, FLOW_INFINITY);
    if (has_source_edge(j, v))
      add_edge(net, &n, SOURCE, in, FLOW_INFINITY);
    if (op < 0)
      continue;
    unsigned f = j->of[op];
    if (f & RO_RECOMPUTE_TAG)
      add_edge(net, &n, in, SINK, FLOW_INFINITY);
    FOR_OPERANDS(j, op, u) {
      if (j->node[u] >= 0)
        add_edge(net, &n, j->node[u] + 1, in, FLOW_INFINITY);
      if (anode[v] >= 0 && anode[u] >= 0)
        add_edge(net, &n, anode[v], anode[u], FLOW_INFINITY);
    }
    if (anode[v] >= 0) {
      add_edge(net, &n, in, anode[v], FLOW_INFINITY);
      if (f & RO_BANNED)
        add_edge(net, &n, anode[v], in, FLOW_INFINITY);
    }
    /* A banned op of several results (an rt.extern) runs once for all of them: their
     * in-nodes are on one side (a cycle through those in the network). */
    int next = v;
    if (f & RO_BANNED)
      do
        next = next + 1 < j->op_res[op + 1] ? next + 1 : j->op_res[op];
      while (j->node[next] < 0);
    if (next != v)
      add_edge(net, &n, in, j->node[next], FLOW_INFINITY);
  }
  return n;
}

/* Builds the network, solves it and marks RV_SAVED. 0, or -1 after a diagnostic. */
static int cut(joint *j, const mincut_pass *p, FILE *dump) {
  remat_cost_model model = {p->opts.scalar_factor, p->opts.params_free};
  double *tw = xmalloc((size_t)j->ntypes * sizeof *tw); /* weight of each type */
  for (int t = 0; t < j->ntypes; t++)
    tw[t] = remat_type_weight(&model, j->types[t].type, false);
  int nodes = 2;
  for (int v = 0; v < j->nvals; v++) {
    j->node[v] = -1;
    if (j->vf[v] & RV_REACH) {
      j->node[v] = nodes;
      nodes += 2;
    }
  }
  /* A(u) for the network's values computed from a banned op (or banned themselves). */
  int *anode = xcalloc(j->nvals, sizeof *anode);
  for (int v = 0; v < j->nvals; v++)
    anode[v] = -1;
  for (int i = 0; i < j->nops; i++) {
    bool below = (j->of[i] & RO_BANNED) != 0;
    FOR_OPERANDS(j, i, v) below |= anode[v] >= 0;
    FOR_RESULTS(j, i, u) {
      if (below && j->node[u] >= 0)
        anode[u] = nodes++;
    }
  }
  flow_network *net = flow_network_create((size_t)nodes);
  if (!net)
    remat_fatal("flow_network_create failed");
  /* counted first, so that the edge arrays are allocated once at their size: grown by
   * doubling they held up to twice it, copied on each step (peak RSS of remat-opt on the
   * 10^6-op chain: 818 -> 753 MB) */
  if (flow_network_reserve_edges(net, network_edges(j, &model, tw, anode, NULL)))
    remat_fatal("flow_network_reserve_edges failed");
  network_edges(j, &model, tw, anode, net);
  free(anode);
  free(tw);
  if (dump) {
    MlirStringRef name = rt_func_name(j->func);
    fprintf(dump, "c function @%.*s\n", (int)name.length, name.data);
    if (flow_network_write_dimacs(net, SOURCE, SINK, dump))
      remat_fatal("flow_network_write_dimacs failed");
  }
  double t0 = remat_now_ms();
  j->flow = flow_network_max_flow(net, SOURCE, SINK);
  j->solve_ms = remat_now_ms() - t0;
  if (j->flow < 0)
    remat_fatal("max-flow failed");
  if (j->flow == FLOW_INFINITY)
    remat_fatal("infinite cut (see the comment above cut)");
  unsigned char *side = xcalloc((size_t)nodes, 1);
  if (flow_network_source_side(net, side))
    remat_fatal("no minimum cut after a finite max-flow");
  for (int v = 0; v < j->nvals; v++) {
    int in = j->node[v];
    if (in < 0)
      continue;
    if (side[in] && !side[in + 1])
      j->vf[v] |= RV_SAVED;
    if ((j->vf[v] & RV_BW_READ) && side[in + 1])
      remat_fatal("a value the backward reads is on the source side");
    if (!side[in] && j->val_op[v] >= 0)
      j->of[j->val_op[v]] |= RO_SINK_SIDE; /* may be recomputed in the backward */
  }
  free(side);
  flow_network_destroy(net);
  return 0;
}

/* The backward's ops: a reverse walk from the gradients, reading saved values and
 * recomputing the rest (ops whose in-node the cut left on the sink side, and constants). */
static void plan_backward(joint *j) {
  for (int v = 0; v < j->nvals; v++)
    j->vf[v] &= ~RV_BNEED;
  for (int r = (int)j->num_outputs; r < j->nret; r++)
    j->vf[j->ret_val[r]] |= RV_BNEED;
  for (int i = j->nops - 1; i >= 0; i--) {
    unsigned f = j->of[i] & ~(RO_IN_BWD | RO_RECOMPUTE);
    bool need = false;
    FOR_RESULTS(j, i, v) need |= (j->vf[v] & RV_BNEED) && !(j->vf[v] & RV_SAVED);
    j->of[i] = f;
    if (!need)
      continue;
    if (!(f & (RO_BW | RO_CONST | RO_SINK_SIDE)))
      remat_fatal("the backward needs a value that is neither saved nor recomputed");
    j->of[i] |= RO_IN_BWD | (f & RO_BW ? 0 : RO_RECOMPUTE);
    FOR_OPERANDS(j, i, v) j->vf[v] |= RV_BNEED;
  }
  for (int a = 0; a < j->nargs; a++)
    if ((j->vf[a] & RV_BNEED) && !(j->vf[a] & (RV_SAVED | RV_TANGENT)))
      remat_fatal("the backward needs a primal argument that is not saved");
}

/* What each new function contains; the forward: a reverse walk from its outputs and the
 * saved values. */
static void plan(joint *j) {
  plan_backward(j);
  for (int v = 0; v < j->nvals; v++)
    if (j->vf[v] & RV_SAVED)
      j->vf[v] |= RV_FNEED;
  for (int r = 0; r < j->num_outputs; r++)
    j->vf[j->ret_val[r]] |= RV_FNEED;
  for (int i = j->nops - 1; i >= 0; i--) {
    if (j->of[i] & RO_BW)
      continue;
    bool need = false;
    FOR_RESULTS(j, i, v) need |= (j->vf[v] & RV_FNEED) != 0;
    if (!need)
      continue;
    j->of[i] |= RO_IN_FWD;
    FOR_OPERANDS(j, i, v) j->vf[v] |= RV_FNEED;
  }
  j->saved = xcalloc(j->nvals, sizeof *j->saved);
  for (int v = 0; v < j->nvals; v++)
    if (j->vf[v] & RV_SAVED)
      j->saved[j->nsaved++] = v;
  /* @f_bwd's order: recomputation just in time, the order the estimate simulates */
  unsigned char *bw = xcalloc((size_t)j->nops + 1, 1), *in_b = xcalloc((size_t)j->nops + 1, 1);
  unsigned char *saved = xcalloc((size_t)j->nvals + 1, 1);
  for (int i = 0; i < j->nops; i++) {
    bw[i] = (j->of[i] & RO_BW) != 0;
    in_b[i] = (j->of[i] & RO_IN_BWD) != 0;
  }
  for (int v = 0; v < j->nvals; v++)
    saved[v] = (j->vf[v] & RV_SAVED) != 0;
  j->bwd_order = xcalloc((size_t)j->nops + 1, sizeof *j->bwd_order);
  j->nbwd =
      remat_bwd_order(j->nops, j->val_op, j->opnd_start, j->opnd, bw, in_b, saved, j->bwd_order);
  free(bw);
  free(in_b);
  free(saved);
  for (int i = 0; i < j->nops; i++) {
    unsigned f = j->of[i];
    if ((f & RO_BANNED) && (f & RO_RECOMPUTE) && (f & RO_IN_FWD))
      remat_fatal("a banned op runs in both functions");
    if ((f & RO_RECOMPUTE) && !(f & RO_CONST))
      (f & RO_IN_FWD) ? j->recomputed++ : j->moved++;
  }
}

/* ---- rewriting -------------------------------------------------------------------- */

typedef struct sig {
  int n;
  MlirType *types;
  MlirLocation *locs; /* arguments only */
  MlirAttribute *dicts;
} sig;

static void sig_init(sig *s, int cap) {
  s->n = 0;
  s->types = xcalloc(cap, sizeof *s->types);
  s->locs = xcalloc(cap, sizeof *s->locs);
  s->dicts = xcalloc(cap, sizeof *s->dicts);
}

static void sig_add(sig *s, MlirType t, MlirLocation loc, MlirAttribute dict) {
  s->types[s->n] = t;
  s->locs[s->n] = loc;
  s->dicts[s->n++] = dict;
}

static void sig_free(sig *s) {
  free(s->types);
  free(s->locs);
  free(s->dicts);
}

/* The arg_attrs (or res_attrs) of S; a null attribute when every dictionary is empty:
 * func.func then carries none. */
static MlirAttribute dicts_attr(MlirContext ctx, const sig *s) {
  for (int i = 0; i < s->n; i++)
    if (mlirDictionaryAttrGetNumElements(s->dicts[i]) > 0)
      return mlirArrayAttrGet(ctx, s->n, s->dicts);
  return (MlirAttribute){NULL};
}

/* The function_type of ARGS -> RES. */
static MlirAttribute func_type_attr(MlirContext ctx, const sig *args, const sig *res) {
  return mlirTypeAttrGet(mlirFunctionTypeGet(ctx, args->n, args->types, res->n, res->types));
}

/* A func.func NAME with the signature ARGS -> RES, an entry block holding the arguments,
 * the joint function's location, visibility and discardable attributes (but not its
 * rt.* function attributes), plus EXTRA. */
static MlirOperation new_func(joint *j, const char *name, const sig *args, const sig *res,
                              const MlirNamedAttribute *extra, int nextra) {
  MlirContext ctx = j->ctx;
  intptr_t ndisc = mlirOperationGetNumDiscardableAttributes(j->func);
  MlirNamedAttribute *attrs = xcalloc((size_t)(5 + ndisc + nextra), sizeof *attrs);
  int n = 0;
  attrs[n++] = rt_named_attr(ctx, "sym_name", mlirStringAttrGet(ctx, rt_str(name)));
  attrs[n++] = rt_named_attr(ctx, "function_type", func_type_attr(ctx, args, res));
  MlirAttribute a = dicts_attr(ctx, args);
  if (!mlirAttributeIsNull(a))
    attrs[n++] = rt_named_attr(ctx, "arg_attrs", a);
  if (!mlirAttributeIsNull(a = dicts_attr(ctx, res)))
    attrs[n++] = rt_named_attr(ctx, "res_attrs", a);
  MlirAttribute vis = mlirOperationGetAttributeByName(j->func, rt_str("sym_visibility"));
  if (!mlirAttributeIsNull(vis))
    attrs[n++] = rt_named_attr(ctx, "sym_visibility", vis);
  for (intptr_t i = 0; i < ndisc; i++) {
    MlirNamedAttribute d = mlirOperationGetDiscardableAttribute(j->func, i);
    MlirStringRef dn = mlirIdentifierStr(d.name);
    if (rt_str_eq(dn, "rt.num_outputs") || rt_str_eq(dn, "rt.saved_bytes") ||
        rt_str_eq(dn, "rt.forward"))
      continue;
    attrs[n++] = d;
  }
  for (int i = 0; i < nextra; i++)
    attrs[n++] = extra[i];
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(args->n, args->types, args->locs);
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st =
      mlirOperationStateGet(rt_str("func.func"), mlirOperationGetLocation(j->func));
  mlirOperationStateAddAttributes(&st, n, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation f = mlirOperationCreate(&st);
  free(attrs);
  return f;
}

/* Points the operands of OP (op I or its clone) that MAP sends elsewhere at their new
 * values: one C API call per changed operand, none for the others. */
static void remap_operands(joint *j, int i, MlirOperation op, const MlirValue *map) {
  int k = 0;
  FOR_OPERANDS(j, i, v) {
    if (map[v].ptr != j->vals[v].ptr)
      mlirOperationSetOperand(op, k, map[v]);
    k++;
  }
}

static MlirOperation new_return(joint *j, const int *vals, int n, const MlirValue *map) {
  MlirValue *opnds = xcalloc(n, sizeof *opnds);
  for (int i = 0; i < n; i++)
    opnds[i] = map ? map[vals[i]] : j->vals[vals[i]];
  MlirOperationState st =
      mlirOperationStateGet(rt_str("func.return"), mlirOperationGetLocation(j->ret));
  mlirOperationStateAddOperands(&st, n, opnds);
  free(opnds);
  return mlirOperationCreate(&st);
}

static MlirLocation value_loc(joint *j, int v) {
  return j->val_op[v] < 0 ? mlirValueGetLocation(j->vals[v])
                          : mlirOperationGetLocation(j->ops[j->val_op[v]]);
}

/* Splits the joint function with work proportional to what moves, not to its size:
 *   - @f_bwd is a new function after it: the backward ops and the recomputed ops the
 *     forward does not run MOVE into it, the recomputed ops the forward also runs are
 *     cloned, in j->bwd_order (each recomputed op just before its first use); operands that change (saved values and tangents become arguments, clones'
 *     results) are set through a value-indexed map;
 *   - the joint function itself becomes @f_fwd: its forward ops stay where they are; it
 *     gets the new name, signature, return and attributes.
 * What the forward does not run and the backward does not take (dead ops) and the tangent
 * arguments stay in it until finish_rewrite, so that the report and the pictures can read
 * every op and value of the joint function. The result is what cloning both functions
 * from the joint one, @f_bwd's ops in j->bwd_order, gives. */
static void rewrite(joint *j, const char *fwd_name, const char *bwd_name) {
  MlirContext ctx = j->ctx;
  MlirOperation func = j->func;
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, rt_str("arg_attrs"));
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, rt_str("res_attrs"));
  int cap = j->nargs + j->nret + j->nsaved;
  sig args, res;

  /* @f_bwd(saved..., tangents...) -> (grads...) */
  sig_init(&args, cap);
  sig_init(&res, cap);
  for (int s = 0; s < j->nsaved; s++) {
    int v = j->saved[s];
    sig_add(&args, mlirValueGetType(j->vals[v]), value_loc(j, v),
            j->val_op[v] < 0 ? rt_dict_at(ctx, arg_attrs, v) : mlirDictionaryAttrGet(ctx, 0, NULL));
  }
  for (int a = 0; a < j->nargs; a++)
    if (j->vf[a] & RV_TANGENT)
      sig_add(&args, mlirValueGetType(j->vals[a]), value_loc(j, a), rt_dict_at(ctx, arg_attrs, a));
  for (int r = (int)j->num_outputs; r < j->nret; r++)
    sig_add(&res, mlirValueGetType(j->vals[j->ret_val[r]]), value_loc(j, j->ret_val[r]),
            rt_dict_at(ctx, res_attrs, r));
  MlirNamedAttribute bwd_extra[1] = {
      rt_named_attr(ctx, "rt.forward", mlirFlatSymbolRefAttrGet(ctx, rt_str(fwd_name)))};
  MlirOperation bwd = new_func(j, bwd_name, &args, &res, bwd_extra, 1);
  sig_free(&args);
  sig_free(&res);
  MlirBlock bb = mlirRegionGetFirstBlock(mlirOperationGetRegion(bwd, 0));
  MlirValue *map = xmalloc((size_t)j->nvals * sizeof *map);
  memcpy(map, j->vals, (size_t)j->nvals * sizeof *map);
  int k = 0;
  for (int s = 0; s < j->nsaved; s++)
    map[j->saved[s]] = mlirBlockGetArgument(bb, k++);
  for (int a = 0; a < j->nargs; a++)
    if (j->vf[a] & RV_TANGENT)
      map[a] = mlirBlockGetArgument(bb, k++);
  for (int k = 0; k < j->nbwd; k++) {
    int i = j->bwd_order[k];
    unsigned f = j->of[i];
    MlirOperation op = j->ops[i];
    if (f & RO_IN_FWD) { /* recomputed, and the forward runs it too */
      op = mlirOperationClone(op);
      int r = 0;
      FOR_RESULTS(j, i, v) { /* a saved result of several stays the saved one */
        if (!(j->vf[v] & RV_SAVED))
          map[v] = mlirOperationGetResult(op, r);
        r++;
      }
    } else {
      mlirOperationRemoveFromParent(op);
    }
    remap_operands(j, i, op, map);
    mlirBlockAppendOwnedOperation(bb, op);
  }
  mlirBlockAppendOwnedOperation(
      bb, new_return(j, j->ret_val + j->num_outputs, j->nret - (int)j->num_outputs, map));
  free(map);
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(func), func, bwd);

  /* @f_fwd(primals...) -> (outputs..., saved...): the joint function, renamed */
  sig_init(&args, cap);
  sig_init(&res, cap);
  for (int a = 0; a < j->nargs; a++)
    if (!(j->vf[a] & RV_TANGENT))
      sig_add(&args, mlirValueGetType(j->vals[a]), value_loc(j, a), rt_dict_at(ctx, arg_attrs, a));
  int *fwd_ret = xcalloc(cap, sizeof *fwd_ret), nfwd_ret = 0;
  for (int r = 0; r < j->num_outputs; r++) {
    fwd_ret[nfwd_ret++] = j->ret_val[r];
    sig_add(&res, mlirValueGetType(j->vals[j->ret_val[r]]), value_loc(j, j->ret_val[r]),
            rt_dict_at(ctx, res_attrs, r));
  }
  for (int s = 0; s < j->nsaved; s++) {
    fwd_ret[nfwd_ret++] = j->saved[s];
    sig_add(&res, mlirValueGetType(j->vals[j->saved[s]]), value_loc(j, j->saved[s]),
            mlirDictionaryAttrGet(ctx, 0, NULL));
  }
  /* objective=peak: the forward's ops in j->fwd_order (each after the one before it) */
  for (int k = 1; k < j->nfwd; k++)
    mlirOperationMoveAfter(j->ops[j->fwd_order[k]], j->ops[j->fwd_order[k - 1]]);
  MlirBlock fb = mlirOperationGetBlock(j->ret);
  mlirBlockInsertOwnedOperationBefore(fb, j->ret, new_return(j, fwd_ret, nfwd_ret, NULL));
  mlirOperationDestroy(j->ret);
  j->ret = (MlirOperation){NULL};
  free(fwd_ret);
  /* the attributes new_func gives a function: the others go */
  mlirOperationSetInherentAttributeByName(func, rt_str("sym_name"),
                                          mlirStringAttrGet(ctx, rt_str(fwd_name)));
  mlirOperationSetInherentAttributeByName(func, rt_str("function_type"),
                                          func_type_attr(ctx, &args, &res));
  mlirOperationSetInherentAttributeByName(func, rt_str("arg_attrs"), dicts_attr(ctx, &args));
  mlirOperationSetInherentAttributeByName(func, rt_str("res_attrs"), dicts_attr(ctx, &res));
  mlirOperationSetInherentAttributeByName(func, rt_str("no_inline"), (MlirAttribute){NULL});
  mlirOperationRemoveDiscardableAttributeByName(func, rt_str("rt.forward"));
  mlirOperationSetDiscardableAttributeByName(
      func, rt_str("rt.num_outputs"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), j->num_outputs));
  mlirOperationSetDiscardableAttributeByName(
      func, rt_str("rt.saved_bytes"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), (int64_t)j->saved_bytes));
  sig_free(&args);
  sig_free(&res);
}

/* The end of the rewrite: erases what @f_fwd kept of the joint function but does not run
 * (dead ops, last user first) and its tangent arguments. */
static void finish_rewrite(joint *j) {
  for (int i = j->nops - 1; i >= 0; i--)
    if (!(j->of[i] & (RO_IN_FWD | RO_IN_BWD)))
      mlirOperationDestroy(j->ops[i]);
  MlirBlock fb = mlirRegionGetFirstBlock(mlirOperationGetRegion(j->func, 0));
  for (int a = j->nargs - 1; a >= 0; a--)
    if (j->vf[a] & RV_TANGENT)
      mlirBlockEraseArgument(fb, (unsigned)a);
}

/* ---- report ----------------------------------------------------------------------- */

/* objective=peak: the (peak, recompute cost) of the chosen split and of the reference
 * points. */
static void report_peak(FILE *f, const joint *j, const remat_peak_result *r, int64_t budget) {
  fprintf(f,
          "  objective peak: %s search, %d candidate values, %ld splits simulated, "
          "%.3f ms",
          r->method, r->candidates, r->evaluated, r->ms);
  if (budget > 0)
    fprintf(f, ", peak-budget %lld", (long long)budget);
  fprintf(f, "\n    split                 peak bytes  recompute cost\n");
  const struct {
    const char *name;
    remat_peak_point pt;
  } row[] = {{"chosen", r->chosen},
             {"objective=bytes", r->bytes},
             {"no remat", r->no_remat},
             {"recompute all", r->recompute_all}};
  for (int k = 0; k < 4; k++)
    fprintf(f, "    %-20s %11llu %15.0f\n", row[k].name, (unsigned long long)row[k].pt.peak,
            row[k].pt.cost);
  fprintf(f, "  emitted order: %s (peak %llu just in time, %llu list-scheduled)\n",
          j->listed ? "list schedule" : "just in time", (unsigned long long)j->jit_peak,
          (unsigned long long)j->list_peak);
  /* the gap: how far the chosen peak may be above the least (docs/design.md, "The lower
   * bound") */
  fprintf(f, "  bound %llu, gap ", (unsigned long long)r->bound);
  if (r->bound)
    fprintf(f, "%.1f%%", 100.0 * (double)(r->chosen.peak - r->bound) / (double)r->bound);
  else
    fprintf(f, "-");
  fprintf(f, " (%s%s)\n",
          r->optimal ? "the least peak, found by the exact search" : "no split peaks lower",
          r->optimal && !r->cost_optimal ? "; its recompute cost is the least found, not proven"
                                         : "");
}

static void report(FILE *f, joint *j, MlirStringRef fname, const char *fwd_name,
                   const char *bwd_name, double ms, int64_t budget) {
  fprintf(f, "remat-mincut: @%.*s -> @%s, @%s\n", (int)fname.length, fname.data, fwd_name,
          bwd_name);
  remat_report_table_header(f);
  for (int s = 0; s < j->nsaved; s++) {
    int v = j->saved[s], op = j->val_op[v];
    char *name;
    const char *why = "cut";
    char whybuf[32];
    if (op < 0) {
      name = xasprintf("%%arg%d", v);
      why = "primal";
    } else {
      MlirStringRef n = rt_op_label(j->ops[op]); /* an rt.extern by its own name */
      if (j->op_res[op + 1] - j->op_res[op] > 1)
        name = xasprintf("%.*s#%d", (int)n.length, n.data, v - j->op_res[op]);
      else
        name = xasprintf("%.*s", (int)n.length, n.data);
      if (j->of[op] & RO_SAVE_TAG) /* "policy", or the rule of --remat-checkpoint */
        why = remat_report_tag_why(j->ops[op], whybuf, sizeof whybuf);
      else if (j->of[op] & RO_FORWARD)
        why = "forward";
    }
    remat_report_row(f, s, name, j->vals[v], j->types[j->vtype[v]].bytes, why);
    free(name);
  }
  fprintf(f, "  saved bytes: %llu (rt.param: %llu; no-remat baseline: %llu",
          (unsigned long long)j->saved_bytes, (unsigned long long)j->param_bytes,
          (unsigned long long)j->baseline_bytes);
  if (j->baseline_bytes)
    fprintf(f, ", %.1f%%", 100.0 * (double)j->saved_bytes / (double)j->baseline_bytes);
  fprintf(f, ")\n  recomputed ops: %d (moved to the backward: %d)\n", j->recomputed, j->moved);
  fprintf(f,
          "  max-flow value: %g\n  time: %.3f ms (load %.3f, classify %.3f, network %.3f, "
          "max-flow %.3f, plan %.3f, rewrite %.3f ms)\n",
          j->flow, ms, j->load_ms, j->classify_ms, j->network_ms, j->solve_ms, j->plan_ms,
          j->rewrite_ms);
  if (j->peak)
    report_peak(f, j, j->peak, budget);
}

/* ---- the pass --------------------------------------------------------------------- */

/* Bytes of the saved set and of the no-remat baseline (every forward value the backward
 * reads, constants excepted). 0, or -1 after a diagnostic on overflow. */
static int count_bytes(joint *j) {
  for (int v = 0; v < j->nvals; v++) {
    uint64_t b = j->types[j->vtype[v]].bytes;
    if ((j->vf[v] & RV_SAVED) && (j->vf[v] & RV_PARAM))
      j->param_bytes += b; /* <= saved_bytes, checked below */
    if (((j->vf[v] & RV_SAVED) && __builtin_add_overflow(j->saved_bytes, b, &j->saved_bytes)) ||
        ((j->vf[v] & RV_BW_READ) &&
         __builtin_add_overflow(j->baseline_bytes, b, &j->baseline_bytes)) ||
        j->saved_bytes > (uint64_t)INT64_MAX) {
      rt_emit_error(j->func, "saved bytes overflow a 64-bit integer");
      return -1;
    }
  }
  return 0;
}

static bool symbol_exists(MlirBlock module_body, const char *name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(module_body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, rt_str("sym_name"));
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
        rt_str_eq(mlirStringAttrGetValue(a), name))
      return true;
  }
  return false;
}

/* The split as lib/analysis/split_view.h shows it: the report's memory lines, --remat-dot and
 * --remat-timeline (lib/view/show.c); EMITTED: with @f_bwd's order. It reads J's graph and
 * flags: nothing to free. */
static remat_split_view split_view_of(const joint *j, const char *name, const char *fwd_name,
                                      const char *bwd_name, bool emitted) {
  remat_split_view view = {.g = j->g,
                           .name = name,
                           .fwd_name = fwd_name,
                           .bwd_name = bwd_name,
                           .num_outputs = (int)j->num_outputs,
                           .vflags = j->vf,
                           .oflags = j->of,
                           .bwd_order = emitted ? j->bwd_order : NULL,
                           .nbwd = emitted ? j->nbwd : 0,
                           .fwd_order = emitted ? j->fwd_order : NULL,
                           .nfwd = emitted ? j->nfwd : 0};
  return view;
}

static void show_split(remat_show *show, const joint *j, MlirStringRef fname, const char *fwd_name,
                       const char *bwd_name) {
  char *name = xstrndup(fname.data, fname.length); /* any length: no truncation */
  remat_split_view view = split_view_of(j, name, fwd_name, bwd_name, true);
  remat_show_split(show, &view);
  free(name);
}

/* objective=peak: replaces the min-cut's saved set (RV_SAVED) by the one lib/peak_search.c
 * finds, which the plan then emits. 0, or -1 after a diagnostic. */
static int choose_for_peak(joint *j, const mincut_pass *p) {
  MlirStringRef fname = rt_func_name(j->func);
  remat_split_view view = split_view_of(j, "", "", "", false);
  unsigned char *bytes_saved = xcalloc((size_t)j->nvals + 1, 1);
  for (int v = 0; v < j->nvals; v++)
    bytes_saved[v] = (j->vf[v] & RV_SAVED) != 0;
  remat_peak_problem pb = {&view, bytes_saved, (uint64_t)p->opts.peak_budget, p->search};
  j->peak = xcalloc(1, sizeof *j->peak);
  char *err = NULL;
  int rc = remat_peak_search(&pb, j->peak, &err);
  free(bytes_saved);
  const remat_peak_result *r = j->peak;
  if (rc < 0) {
    rt_emit_error(j->func, "cannot split '@%.*s' for the peak: %s", (int)fname.length, fname.data,
                  err ? err : "");
    free(err);
    return -1;
  }
  if (rc > 0) {
    rt_emit_error(j->func,
                  "no split of '@%.*s' peaks within peak-budget=%lld bytes: the "
                  "smallest peak found is %llu bytes (%s search; objective=bytes "
                  "peaks at %llu, no remat at %llu, recompute all at %llu)",
                  (int)fname.length, fname.data, (long long)p->opts.peak_budget,
                  (unsigned long long)r->chosen.peak, r->method, (unsigned long long)r->bytes.peak,
                  (unsigned long long)r->no_remat.peak, (unsigned long long)r->recompute_all.peak);
    return -1;
  }
  for (int v = 0; v < j->nvals; v++)
    j->vf[v] = r->saved[v] ? j->vf[v] | RV_SAVED : j->vf[v] & ~RV_SAVED;
  for (int i = 0; i < j->nops; i++)
    if (!(j->of[i] & RO_BW))
      j->of[i] |= RO_SINK_SIDE; /* the plan recomputes what the saved set leaves */
  return 0;
}

/* objective=peak, after plan: @f_fwd runs in remat_mem_sim_fwd_order's order, and @f_bwd
 * in the list schedule of lib/memory.c (the tie rule that peaks lower, strict first) when
 * its estimated peak is lower than that of remat_bwd_order's order (the estimate
 * simulates the orders emitted; remat_mem_sim_run_emitted chooses alike). */
static void order_for_peak(joint *j) {
  remat_split_view view = split_view_of(j, "", "", "", false);
  unsigned char *saved = xcalloc((size_t)j->nvals + 1, 1);
  unsigned char *in_f = xcalloc((size_t)j->nops + 1, 1), *in_b = xcalloc((size_t)j->nops + 1, 1);
  for (int v = 0; v < j->nvals; v++)
    saved[v] = (j->vf[v] & RV_SAVED) != 0;
  for (int i = 0; i < j->nops; i++) {
    in_f[i] = (j->of[i] & RO_IN_FWD) != 0;
    in_b[i] = (j->of[i] & RO_IN_BWD) != 0;
  }
  remat_mem_sim *m = remat_mem_sim_new(&view);
  j->fwd_order = xcalloc((size_t)j->nops + 1, sizeof *j->fwd_order);
  j->nfwd = remat_mem_sim_fwd_order(m, in_f, saved, j->fwd_order);
  int *list = xcalloc((size_t)j->nops + 1, sizeof *list);
  int *prio = xcalloc((size_t)j->nops + 1, sizeof *prio);
  for (int k = 0; k < j->nbwd; k++)
    prio[j->bwd_order[k]] = k;
  remat_mem_schedule a;
  remat_mem_sim_run_order(m, saved, in_f, in_b, j->bwd_order, j->nbwd, &a);
  j->jit_peak = a.peak;
  j->list_peak = UINT64_MAX;
  uint64_t best = a.peak;
  for (int ties = 0; ties < 2; ties++) {
    int nlist = remat_mem_sim_list_order(m, in_b, saved, prio, ties, list);
    if (nlist != j->nbwd)
      remat_fatal("the list schedule lost backward ops");
    remat_mem_schedule b;
    remat_mem_sim_run_order(m, saved, in_f, in_b, list, nlist, &b);
    if (b.peak < j->list_peak)
      j->list_peak = b.peak;
    if (b.peak < best) {
      memcpy(j->bwd_order, list, (size_t)nlist * sizeof *list);
      j->listed = true;
      best = b.peak;
    }
    remat_mem_schedule_free(&b);
  }
  free(prio);
  remat_mem_schedule_free(&a);
  remat_mem_sim_free(m);
  free(list);
  free(saved);
  free(in_f);
  free(in_b);
}

/* Splits one joint function. 0, or -1 after a diagnostic. */
static int split(MlirOperation func, const mincut_pass *p, FILE *rep, remat_show *show,
                 FILE *dump) {
  double t0 = remat_now_ms();
  MlirStringRef fname = rt_func_name(func);
  char *fwd_name = xasprintf("%.*s_fwd", (int)fname.length, fname.data);
  char *bwd_name = xasprintf("%.*s_bwd", (int)fname.length, fname.data);
  MlirBlock parent = mlirOperationGetBlock(func);
  const char *clash = symbol_exists(parent, fwd_name)   ? fwd_name
                      : symbol_exists(parent, bwd_name) ? bwd_name
                                                        : NULL;
  if (clash) {
    rt_emit_error(func, "cannot split '@%.*s': the symbol '@%s' already exists", (int)fname.length,
                  fname.data, clash);
    free(fwd_name);
    free(bwd_name);
    return -1;
  }
  joint j = {0};
  j.ctx = mlirOperationGetContext(func);
  j.func = func;
  if (!rt_func_num_outputs(func, &j.num_outputs))
    remat_fatal("split of a function without rt.num_outputs");
  double t = remat_now_ms(); /* each phase's time, for the report */
  int rc = load(&j);
  j.load_ms = lap_ms(&t);
  if (rc == 0)
    rc = classify(&j, p);
  j.classify_ms = lap_ms(&t);
  if (rc == 0)
    rc = cut(&j, p, dump);
  j.network_ms = lap_ms(&t) - j.solve_ms;
  if (rc == 0 && p->peak) {
    rc = choose_for_peak(&j, p);
    lap_ms(&t); /* the search's own time is in its report line */
  }
  if (rc == 0) {
    plan(&j);
    if (j.peak)
      order_for_peak(&j);
    rc = count_bytes(&j);
  }
  j.plan_ms = lap_ms(&t);
  if (rc == 0) {
    rewrite(&j, fwd_name, bwd_name);
    j.rewrite_ms = lap_ms(&t);
    if (rep)
      report(rep, &j, fname, fwd_name, bwd_name, remat_now_ms() - t0, p->opts.peak_budget);
    if (show)
      show_split(show, &j, fname, fwd_name, bwd_name);
    finish_rewrite(&j);
  }
  joint_free(&j);
  free(fwd_name);
  free(bwd_name);
  return rc;
}

static bool is_joint(MlirOperation func) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(func, rt_str("rt.num_outputs")));
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const mincut_pass *p = ud;
  remat_func_list funcs = remat_pass_funcs(module, is_joint);
  int failed = 0;
  FILE *rep = remat_report_open(p->opts.report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-mincut: cannot open the report file '%s'", p->opts.report);
    mlirExternalPassSignalFailure(pass);
    free(funcs.items);
    return;
  }
  /* dump-network: every joint function's network, one DIMACS problem after another */
  FILE *dump = p->opts.dump_network[0] ? fopen(p->opts.dump_network, "w") : NULL;
  if (p->opts.dump_network[0] && !dump) {
    rt_emit_error(module, "--remat-mincut: cannot open the dump-network file '%s'",
                  p->opts.dump_network);
    mlirExternalPassSignalFailure(pass);
    remat_report_close(rep);
    free(funcs.items);
    return;
  }
  const char *bad;
  remat_show *show = remat_show_open(rep, p->opts.dot, p->opts.timeline, (int)funcs.n, &bad);
  if (bad) {
    rt_emit_error(module, "--remat-mincut: cannot open '%s' for writing", bad);
    failed = 1;
  }
  for (size_t i = 0; i < funcs.n && !failed; i++)
    if (split(funcs.items[i], p, rep, show, dump))
      failed = 1;
  /* An empty report would read as if the pass had not run. */
  if (rep && funcs.n == 0)
    fprintf(rep, "remat-mincut: no joint function (func.func with rt.num_outputs): "
                 "nothing split\n");
  if (remat_show_close(show, &bad)) {
    rt_emit_error(module, "--remat-mincut: cannot write '%s'", bad);
    failed = 1;
  }
  if (remat_report_close(dump)) { /* flushed, checked and closed, as the report */
    rt_emit_error(module, "--remat-mincut: cannot write the dump-network file '%s'",
                  p->opts.dump_network);
    failed = 1;
  }
  if (remat_report_close(rep)) {
    rt_emit_error(module, "--remat-mincut: cannot write the report to '%s'", p->opts.report);
    failed = 1;
  }
  if (failed)
    mlirExternalPassSignalFailure(pass);
  free(funcs.items);
}

static int check_options(const void *opts, char *err, size_t cap) {
  const RematMincutOptions *o = opts;
  bool banned[RT_OP_COUNT];
  if (!(o->scalar_factor >= 0)) {
    snprintf(err, cap, "scalar-factor must be >= 0, got %g", o->scalar_factor);
    return -1;
  }
  if (o->scalar_factor > REMAT_SCALAR_FACTOR_MAX) { /* cost_model.h */
    snprintf(err, cap,
             "scalar-factor must be at most 1e9 (a scalar then outweighs any tensor), got %g",
             o->scalar_factor);
    return -1;
  }
  if (o->reduction_ratio < 0) {
    snprintf(err, cap, "reduction-ratio must be >= 0, got %lld", (long long)o->reduction_ratio);
    return -1;
  }
  bool peak;
  remat_peak_method search;
  char *msg = NULL;
  int rc = parse_objective(o, &peak, &search, &msg) ||
                   parse_ban(o->ban, o->ban_random, banned, &msg)
               ? -1
               : 0;
  remat_error_copy(msg, err, cap);
  return rc;
}

/* Options arrive checked (rematParsePassOptions or rematCreatePassFromOptions). */
static MlirPass create(const void *options) {
  mincut_pass p = {.opts = *(const RematMincutOptions *)options};
  char *err = NULL;
  if (parse_ban(p.opts.ban, p.opts.ban_random, p.banned, &err))
    remat_fatal("unchecked ban list: %s", err);
  if (parse_objective(&p.opts, &p.peak, &p.search, &err))
    remat_fatal("unchecked objective: %s", err);
  return remat_pass_create(&remat_mincut_pass, "RematMincut", run, &p, sizeof p);
}

REMAT_PASS_INFO(mincut, Mincut, REMAT_MINCUT_OPTIONS,
                "min-cut split of joint functions into @f_fwd and @f_bwd", contract, check_options,
                create)
