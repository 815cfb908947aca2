/* Tests of lib/analysis/flow_network: hand-made networks with known cuts, random
 * networks checked against an independent Edmonds-Karp written here, infinite
 * capacities, a disconnected sink, a long chain, and invalid arguments.
 * Prints one line per group and returns non-zero on any failure. */
#include "flow_network.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_test.h"

/* ---- a network described as a list of edges --------------------------- */

#define MAX_NODES 40
#define MAX_EDGES 200

typedef struct {
  size_t n;
  size_t m;
  size_t from[MAX_EDGES], to[MAX_EDGES];
  double cap[MAX_EDGES];
} edge_list;

static void edge(edge_list *g, size_t from, size_t to, double cap) {
  g->from[g->m] = from;
  g->to[g->m] = to;
  g->cap[g->m] = cap;
  g->m++;
}

static flow_network *build(const edge_list *g) {
  flow_network *net = flow_network_create(g->n);
  size_t e;

  /* room for every other network's edges up front, as --remat-mincut does */
  if (!net || (g->m % 2 && flow_network_reserve_edges(net, g->m) != 0)) {
    flow_network_destroy(net);
    return NULL;
  }
  for (e = 0; e < g->m; e++) {
    if (flow_network_add_edge(net, g->from[e], g->to[e], g->cap[e]) != 0) {
      flow_network_destroy(net);
      return NULL;
    }
  }
  return net;
}

/* Capacity of the cut given by side (1 = source side). */
static double cut_capacity(const edge_list *g, const unsigned char *side) {
  double sum = 0;
  size_t e;

  for (e = 0; e < g->m; e++)
    if (side[g->from[e]] && !side[g->to[e]])
      sum += g->cap[e];
  return sum;
}

/* ---- Edmonds-Karp on an adjacency matrix, the independent reference ---- */

typedef struct {
  size_t n;
  double res[MAX_NODES][MAX_NODES];
} ek_graph;

/* Maximum flow; fills side with the source side of the sink-closest minimum
 * cut (nodes that cannot reach the sink in the final residual matrix). */
static double edmonds_karp(const edge_list *g, size_t s, size_t t, unsigned char *side) {
  static ek_graph r;
  size_t queue[MAX_NODES], parent[MAX_NODES];
  unsigned char seen[MAX_NODES];
  double flow = 0;
  size_t e, u, v;

  r.n = g->n;
  memset(r.res, 0, sizeof r.res);
  for (e = 0; e < g->m; e++)
    if (g->from[e] != g->to[e])
      r.res[g->from[e]][g->to[e]] += g->cap[e];

  for (;;) {
    size_t head = 0, tail = 0;
    double bottleneck = INFINITY;

    memset(seen, 0, sizeof seen);
    seen[s] = 1;
    queue[tail++] = s;
    while (head < tail && !seen[t]) {
      u = queue[head++];
      for (v = 0; v < r.n; v++) {
        if (!seen[v] && r.res[u][v] > 0) {
          seen[v] = 1;
          parent[v] = u;
          queue[tail++] = v;
        }
      }
    }
    if (!seen[t])
      break;
    for (v = t; v != s; v = parent[v])
      if (r.res[parent[v]][v] < bottleneck)
        bottleneck = r.res[parent[v]][v];
    if (isinf(bottleneck))
      return INFINITY;
    for (v = t; v != s; v = parent[v]) {
      r.res[parent[v]][v] -= bottleneck;
      r.res[v][parent[v]] += bottleneck;
    }
    flow += bottleneck;
  }

  /* Who can reach the sink: search backwards from it. */
  {
    size_t head = 0, tail = 0;
    memset(seen, 0, sizeof seen);
    seen[t] = 1;
    queue[tail++] = t;
    while (head < tail) {
      v = queue[head++];
      for (u = 0; u < r.n; u++) {
        if (!seen[u] && r.res[u][v] > 0) {
          seen[u] = 1;
          queue[tail++] = u;
        }
      }
    }
    for (u = 0; u < r.n; u++)
      side[u] = !seen[u];
  }
  return flow;
}

/* ---- hand-made networks ------------------------------------------------ */

/* Solves g and checks the flow (within tol) and the exact source side listed
 * in want_side (ignored when flow is infinite). Returns 1 if all is well. */
static int check_hand(const char *name, const edge_list *g, size_t s, size_t t, double want_flow,
                      double tol, const char *want_side) {
  int before = failures;
  unsigned char side[MAX_NODES];
  flow_network *net = build(g);
  double flow;
  size_t v;

  CHECK(net, "%s: build failed", name);
  if (!net)
    return 0;
  flow = flow_network_max_flow(net, s, t);
  if (isinf(want_flow)) {
    CHECK(isinf(flow), "%s: flow %g, want infinity", name, flow);
    CHECK(flow_network_source_side(net, side) == -1, "%s: infinite flow has a cut", name);
  } else {
    CHECK(fabs(flow - want_flow) <= tol, "%s: flow %.17g, want %.17g", name, flow, want_flow);
    CHECK(flow_network_source_side(net, side) == 0, "%s: no cut", name);
    for (v = 0; v < g->n; v++)
      CHECK(side[v] == (want_side[v] == '1'), "%s: node %zu on the %s side", name, v,
            side[v] ? "source" : "sink");
    CHECK(fabs(cut_capacity(g, side) - flow) <= tol, "%s: cut capacity %.17g != flow %.17g", name,
          cut_capacity(g, side), flow);
  }
  flow_network_destroy(net);
  return failures == before;
}

static void test_hand(void) {
  edge_list g;
  int passed = 0, total = 0;

  /* Node 0 is the source and the last node the sink unless noted. */
#define HAND(...) (total++, passed += check_hand(__VA_ARGS__))

  memset(&g, 0, sizeof g);
  g.n = 2;
  edge(&g, 0, 1, 5);
  HAND("single edge", &g, 0, 1, 5, 0, "10");

  memset(&g, 0, sizeof g);
  g.n = 2;
  edge(&g, 0, 1, 1);
  edge(&g, 0, 1, 2);
  edge(&g, 1, 0, 7);
  HAND("parallel and backward edges", &g, 0, 1, 3, 0, "10");

  memset(&g, 0, sizeof g);
  g.n = 3;
  edge(&g, 0, 1, 3);
  edge(&g, 1, 2, 2);
  HAND("chain", &g, 0, 2, 2, 0, "110");

  /* Cormen et al., figure 26.1: s v1 v2 v3 v4 t. */
  memset(&g, 0, sizeof g);
  g.n = 6;
  edge(&g, 0, 1, 16);
  edge(&g, 0, 2, 13);
  edge(&g, 1, 3, 12);
  edge(&g, 2, 1, 4);
  edge(&g, 2, 4, 14);
  edge(&g, 3, 2, 9);
  edge(&g, 3, 5, 20);
  edge(&g, 4, 3, 7);
  edge(&g, 4, 5, 4);
  HAND("clrs 26.1", &g, 0, 5, 23, 0, "111010");

  /* Three equal cuts along a chain: the one next to the sink wins. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, 5);
  edge(&g, 1, 2, 5);
  edge(&g, 2, 3, 5);
  HAND("equal cuts on a chain", &g, 0, 3, 5, 0, "1110");

  /* Two minimum cuts of different shape: {x, y} (3 + 4) or {z} (7). The
     * sink-closest one cuts z. s=0 x=1 y=2 z=3 t=4. */
  memset(&g, 0, sizeof g);
  g.n = 5;
  edge(&g, 0, 1, 3);
  edge(&g, 0, 2, 4);
  edge(&g, 1, 3, INFINITY);
  edge(&g, 2, 3, INFINITY);
  edge(&g, 3, 4, 7);
  HAND("two minimum cuts", &g, 0, 4, 7, 0, "11110");

  /* The remat split network of x -> y -> backward with equal weights:
     * save y (closest to the sink), recompute nothing. s x_in x_out y_in y_out
     * t; x is a primal. */
  memset(&g, 0, sizeof g);
  g.n = 6;
  edge(&g, 0, 1, INFINITY);
  edge(&g, 1, 2, 4);
  edge(&g, 2, 3, INFINITY);
  edge(&g, 3, 4, 4);
  edge(&g, 4, 5, INFINITY);
  HAND("remat chain saves the later value", &g, 0, 5, 4, 0, "111100");

  /* Dropout: seed and offset (scalars, 8 bytes x 0.1) generate a 1000-byte
     * mask the backward needs: saving the scalars is cheaper. s seed_in
     * seed_out off_in off_out mask_in mask_out t. */
  memset(&g, 0, sizeof g);
  g.n = 8;
  edge(&g, 0, 1, INFINITY);
  edge(&g, 0, 3, INFINITY);
  edge(&g, 1, 2, 0.8);
  edge(&g, 3, 4, 0.8);
  edge(&g, 2, 5, INFINITY);
  edge(&g, 4, 5, INFINITY);
  edge(&g, 5, 6, 1000);
  edge(&g, 6, 7, INFINITY);
  HAND("dropout saves seed and offset", &g, 0, 7, 1.6, 1e-12, "11010000");

  /* Infinite edges around a finite cut. */
  memset(&g, 0, sizeof g);
  g.n = 5;
  edge(&g, 0, 1, INFINITY);
  edge(&g, 1, 2, 3);
  edge(&g, 2, 3, INFINITY);
  edge(&g, 3, 4, 2);
  edge(&g, 1, 4, 1);
  HAND("infinite edges around the cut", &g, 0, 4, 3, 0, "11110");

  /* An all-infinite path: every cut is infinite. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, INFINITY);
  edge(&g, 1, 2, INFINITY);
  edge(&g, 2, 3, INFINITY);
  edge(&g, 0, 3, 5);
  HAND("infinite path", &g, 0, 3, INFINITY, 0, "");

  /* must_recompute-style edge into the sink next to a source edge. */
  memset(&g, 0, sizeof g);
  g.n = 3;
  edge(&g, 0, 1, INFINITY);
  edge(&g, 1, 2, INFINITY);
  HAND("source and sink edges on one node", &g, 0, 2, INFINITY, 0, "");

  /* Nothing reaches the sink from the source: flow 0, and only the nodes
     * that reach the sink (b) are on its side. s a b t. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, 3);
  edge(&g, 2, 3, 4);
  HAND("disconnected sink", &g, 0, 3, 0, 0, "1100");

  /* Zero capacities and self loops are ignored. */
  memset(&g, 0, sizeof g);
  g.n = 3;
  edge(&g, 0, 0, 9);
  edge(&g, 0, 1, 2);
  edge(&g, 1, 1, INFINITY);
  edge(&g, 1, 2, 0);
  edge(&g, 0, 2, 1);
  HAND("zero capacities and self loops", &g, 0, 2, 1, 0, "110");

  /* Decimal weights whose sums round: 0.1 + 0.2 != 0.3 in binary. The
     * three cuts {0.1, 0.2}, {0.3} and {0.3'} are equal in exact arithmetic;
     * the tolerance must still pick the one next to the sink. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, 0.1);
  edge(&g, 0, 1, 0.2);
  edge(&g, 1, 2, 0.3);
  edge(&g, 2, 3, 0.3);
  HAND("decimal tie", &g, 0, 3, 0.3, 1e-12, "1110");

  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, 0.3);
  edge(&g, 1, 2, 0.1);
  edge(&g, 1, 2, 0.2);
  edge(&g, 2, 3, 0.7);
  edge(&g, 0, 2, 0.4);
  HAND("decimal tie after a merge", &g, 0, 3, 0.7, 1e-12, "1110");

  /* Found by the random tests: without the tolerance, rounding leaves a
     * phantom residual path and a source side that is too small. The
     * capacities are tenths as the random tests compute them (6 * 0.1 is
     * 0.6000000000000001). Cuts {0.9, 0.4} and {0.6, 0.3, 0.4} are equal;
     * the second is next to the sink. s=2 t=0. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 2, 1, 9 * 0.1);
  edge(&g, 1, 0, 6 * 0.1);
  edge(&g, 2, 0, 4 * 0.1);
  edge(&g, 1, 3, 6 * 0.1);
  edge(&g, 3, 0, 3 * 0.1);
  HAND("decimal rounding", &g, 2, 0, 1.3, 1e-12, "0111");

  /* Other terminals on the same network: the source may have in-edges and
     * the sink out-edges. s=2 t=0 in the chain 0 -> 1 -> 2 -> 3 with back
     * edges. */
  memset(&g, 0, sizeof g);
  g.n = 4;
  edge(&g, 0, 1, 5);
  edge(&g, 1, 2, 5);
  edge(&g, 2, 3, 5);
  edge(&g, 3, 0, 2);
  edge(&g, 2, 1, 1);
  edge(&g, 1, 0, 6);
  HAND("reversed terminals", &g, 2, 0, 3, 0, "0011");

#undef HAND
  printf("hand: %d of %d passed\n", passed, total);
}

/* ---- re-solving and invalidation --------------------------------------- */

static void test_resolve(void) {
  flow_network *net = flow_network_create(3);
  unsigned char side[3];
  int before = failures;

  CHECK(net, "create");
  if (!net)
    return;
  CHECK(flow_network_source_side(net, side) == -1, "cut before solving");
  flow_network_add_edge(net, 0, 1, 2);
  flow_network_add_edge(net, 1, 2, 3);
  CHECK(flow_network_max_flow(net, 0, 2) == 2, "first solve");
  CHECK(flow_network_source_side(net, side) == 0 && side[0] && !side[1] && !side[2], "first cut");
  CHECK(flow_network_max_flow(net, 1, 2) == 3, "second solve");
  CHECK(flow_network_source_side(net, side) == 0 && side[0] && side[1] && !side[2],
        "second cut: 0 cannot reach the sink either");
  CHECK(flow_network_max_flow(net, 2, 0) == 0, "reverse solve");
  CHECK(flow_network_add_edge(net, 0, 2, 1) == 0, "add after solve");
  CHECK(flow_network_source_side(net, side) == -1, "cut after adding");
  CHECK(flow_network_max_flow(net, 0, 2) == 3, "solve after adding");
  CHECK(flow_network_max_flow(net, 0, 0) < 0, "failed solve");
  CHECK(flow_network_source_side(net, side) == -1, "cut after failed solve");
  flow_network_destroy(net);
  printf("resolve: %s\n", failures == before ? "ok" : "FAILED");
}

/* Reserved room changes nothing but allocations: refusals leave the network
 * usable, and adding past the reservation still grows it. */
static void test_reserve(void) {
  flow_network *net = flow_network_create(3);
  unsigned char side[3];
  int before = failures;

  CHECK(net, "create");
  if (!net)
    return;
  CHECK(flow_network_reserve_edges(NULL, 1) == -1, "reserve on NULL");
  CHECK(flow_network_reserve_edges(net, FLOW_MAX_EDGES + 1) == -1, "reserve past FLOW_MAX_EDGES");
  CHECK(flow_network_reserve_edges(net, 2) == 0, "reserve 2");
  CHECK(flow_network_add_edge(net, 0, 1, 2) == 0 && flow_network_add_edge(net, 1, 2, 3) == 0,
        "add the reserved edges");
  CHECK(flow_network_reserve_edges(net, 1) == 0, "reserve fewer than held");
  CHECK(flow_network_add_edge(net, 0, 2, 1) == 0, "add past the reservation");
  CHECK(flow_network_num_edges(net) == 3, "three edges");
  CHECK(flow_network_max_flow(net, 0, 2) == 3, "solve");
  CHECK(flow_network_source_side(net, side) == 0 && side[0] && !side[1] && !side[2], "cut");
  flow_network_destroy(net);
  printf("reserve: %s\n", failures == before ? "ok" : "FAILED");
}

/* ---- random networks --------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void) {
  /* splitmix64: fixed seeds give the same networks everywhere. */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static size_t below(size_t k) { return (size_t)(rng() % k); }

static int chance(unsigned percent) { return below(100) < percent; }

/* A general graph: n nodes, edges anywhere, integer capacities 0..9 and
 * some infinite; sometimes no edge enters the sink. */
static void random_general(edge_list *g, size_t *s, size_t *t) {
  size_t m, e;
  int no_sink = chance(10);

  memset(g, 0, sizeof *g);
  g->n = 2 + below(22);
  m = g->n + below(3 * g->n);
  *s = below(g->n);
  do
    *t = below(g->n);
  while (*t == *s);
  for (e = 0; e < m; e++) {
    size_t u = below(g->n), v = below(g->n);
    double c = chance(12) ? INFINITY : (double)below(10);
    /* A third of the edges leave the source or enter the sink, so that
         * most networks carry some flow. */
    if (chance(15))
      u = *s;
    else if (chance(18))
      v = *t;
    if (no_sink && v == *t)
      continue;
    edge(g, u, v, c);
  }
}

/* The remat network of a small random op graph: node 0 source, 1 sink, op i
 * has in-node 2+2i and out-node 3+2i. Ops use up to three earlier ops; some
 * are primals or banned (source edge), some needed by the backward (sink
 * edge), a few must_recompute (in-node to sink). Weights are integers 0..16
 * or, for dyadic networks, multiples of 1/8. */
static void random_remat(edge_list *g, int dyadic) {
  size_t ops = 1 + below(18), i, k;

  memset(g, 0, sizeof *g);
  g->n = 2 + 2 * ops;
  for (i = 0; i < ops; i++) {
    size_t in = 2 + 2 * i, out = in + 1;
    double w = (double)below(17);
    int from_source = i < 2 || chance(10);
    if (dyadic)
      w /= 8;
    edge(g, in, out, w);
    if (from_source)
      edge(g, 0, in, INFINITY);
    else if (chance(5))
      edge(g, in, 1, INFINITY);
    if (chance(30) || i + 1 == ops)
      edge(g, out, 1, INFINITY);
    if (i > 0) {
      size_t uses = 1 + below(3);
      for (k = 0; k < uses; k++) {
        size_t back = 1 + below(i < 4 ? i : 4);
        if (chance(10))
          back = 1 + below(i);
        edge(g, 2 + 2 * (i - back) + 1, in, INFINITY);
      }
    }
  }
}

/* Checks the solver against Edmonds-Karp on g. scale: g's finite capacities
 * are those EK sees multiplied by scale (0.1 for decimal networks, where EK
 * runs on exact integers and the solver on rounded tenths). */
static int agree(const edge_list *g, size_t s, size_t t, double scale, int *infinite, int *zero) {
  edge_list scaled = *g;
  unsigned char want[MAX_NODES], side[MAX_NODES], again_side[MAX_NODES];
  double want_flow, flow, again, tol;
  flow_network *net;
  size_t e, v;
  int before = failures;

  for (e = 0; e < g->m; e++)
    if (!isinf(g->cap[e]))
      scaled.cap[e] = g->cap[e] * scale;
  tol = scale == 1 ? 0 : 1e-9;
  want_flow = edmonds_karp(g, s, t, want) * scale;
  net = build(&scaled);
  CHECK(net, "random: build failed");
  if (!net)
    return 0;
  flow = flow_network_max_flow(net, s, t);
  if (isinf(want_flow)) {
    (*infinite)++;
    CHECK(isinf(flow), "random: flow %.17g, want infinity", flow);
    CHECK(flow_network_source_side(net, side) == -1, "random: infinite flow has a cut");
  } else {
    if (want_flow == 0)
      (*zero)++;
    CHECK(fabs(flow - want_flow) <= tol, "random: flow %.17g, want %.17g", flow, want_flow);
    CHECK(flow_network_source_side(net, side) == 0, "random: no cut");
    CHECK(side[s] && !side[t], "random: terminals on the wrong side");
    CHECK(fabs(cut_capacity(&scaled, side) - flow) <= tol,
          "random: cut capacity %.17g != flow %.17g", cut_capacity(&scaled, side), flow);
    for (v = 0; v < g->n; v++)
      CHECK(side[v] == want[v], "random: node %zu on the %s side, EK has it on the other", v,
            side[v] ? "source" : "sink");
  }
  /* A later solve on the same network, after one with the terminals swapped
     * (which may stop early at an infinite path), gives the same answer: the
     * residuals and the search state are reset in full. */
  flow_network_max_flow(net, t, s);
  again = flow_network_max_flow(net, s, t);
  CHECK(again == flow, "random: re-solve gives %.17g, first solve %.17g", again, flow);
  if (!isinf(flow) && flow_network_source_side(net, again_side) == 0)
    CHECK(memcmp(side, again_side, g->n) == 0, "random: re-solve moved the cut");
  flow_network_destroy(net);
  return failures == before;
}

/* More networks for a local stress run: -DRANDOM_NETWORKS=100000. */
#ifndef RANDOM_NETWORKS
#define RANDOM_NETWORKS 1000
#endif

static void test_random(void) {
  edge_list g;
  size_t s, t;
  int i, agreed = 0, infinite = 0, zero = 0;

  rng_state = 20240601;
  for (i = 0; i < RANDOM_NETWORKS; i++) {
    int kind = i % 4;
    double scale = 1;
    if (kind == 0 || kind == 1) {
      random_general(&g, &s, &t);
      if (kind == 1 && i % 8 == 1)
        scale = 0.1; /* decimal capacities */
      else if (kind == 1)
        scale = 0.125; /* dyadic: exact in binary */
    } else {
      random_remat(&g, kind == 3);
      s = 0;
      t = 1;
    }
    agreed += agree(&g, s, t, scale, &infinite, &zero);
  }
  printf("random: %d networks agree with edmonds-karp\n", agreed);
  printf("random: %d with infinite flow, %d with zero flow\n", infinite, zero);
}

/* ---- a long chain: no recursion, no quadratic blow-up ------------------ */

static void test_large(void) {
  size_t n = 1000000, v;
  flow_network *net = flow_network_create(n);
  unsigned char *side = malloc(n);
  double flow;
  int ok = 1;

  CHECK(net && side, "large: allocation");
  if (!net || !side) {
    flow_network_destroy(net);
    free(side);
    return;
  }
  /* Capacities 1..1000 along the chain and 0.5 in the middle; infinite
     * shortcuts skip ahead without bypassing the middle. */
  for (v = 0; v + 1 < n; v++) {
    double c = v == n / 2 ? 0.5 : (double)(1 + v % 1000);
    ok &= flow_network_add_edge(net, v, v + 1, c) == 0;
    if (v % 7 == 0 && v + 3 <= n / 2)
      ok &= flow_network_add_edge(net, v, v + 3, INFINITY) == 0;
  }
  CHECK(ok, "large: add_edge");
  flow = flow_network_max_flow(net, 0, n - 1);
  CHECK(flow == 0.5, "large: flow %g", flow);
  CHECK(flow_network_source_side(net, side) == 0, "large: no cut");
  for (v = 0; v < n; v++)
    if (side[v] != (v <= n / 2))
      ok = 0;
  CHECK(ok, "large: wrong cut");
  printf("large: %zu-node chain, flow %g\n", n, flow);
  flow_network_destroy(net);
  free(side);
}

/* ---- invalid arguments ------------------------------------------------- */

static void test_invalid(void) {
  flow_network *net, *empty;
  unsigned char side[4];
  int before = failures, checks = 0;

#define INVALID(cond, what)           \
  do {                                \
    checks++;                         \
    CHECK(cond, "invalid: %s", what); \
  } while (0)
  INVALID(flow_network_create(FLOW_MAX_NODES + 1) == NULL, "too many nodes");
  empty = flow_network_create(0);
  INVALID(empty != NULL, "zero nodes");
  INVALID(flow_network_add_edge(empty, 0, 0, 1) == -1, "edge without nodes");
  INVALID(flow_network_max_flow(empty, 0, 1) < 0, "solve without nodes");
  INVALID(flow_network_num_nodes(empty) == 0, "node count");
  flow_network_destroy(empty);
  flow_network_destroy(NULL);

  net = flow_network_create(4);
  INVALID(net != NULL, "create");
  if (!net)
    return;
  INVALID(flow_network_add_edge(net, 0, 4, 1) == -1, "head out of range");
  INVALID(flow_network_add_edge(net, 4, 0, 1) == -1, "tail out of range");
  INVALID(flow_network_add_edge(net, 0, 1, -1) == -1, "negative capacity");
  INVALID(flow_network_add_edge(net, 0, 1, NAN) == -1, "NaN capacity");
  INVALID(flow_network_add_edge(net, 0, 1, -INFINITY) == -1, "negative infinity");
  INVALID(flow_network_add_edge(NULL, 0, 1, 1) == -1, "null network");
  INVALID(flow_network_add_edge(net, 0, 1, 1e308) == 0, "huge capacity");
  INVALID(flow_network_add_edge(net, 1, 3, 1e308) == -1, "capacity sum overflows");
  INVALID(flow_network_add_edge(net, 1, 3, INFINITY) == 0, "infinity after a huge capacity");
  INVALID(flow_network_num_edges(net) == 2, "edge count");
  INVALID(flow_network_max_flow(net, 0, 0) < 0, "source equals sink");
  INVALID(flow_network_max_flow(net, 4, 0) < 0, "source out of range");
  INVALID(flow_network_max_flow(net, 0, 9) < 0, "sink out of range");
  INVALID(flow_network_max_flow(NULL, 0, 1) < 0, "null network solve");
  INVALID(flow_network_source_side(net, side) == -1, "no cut yet");
  INVALID(flow_network_max_flow(net, 0, 3) == 1e308, "huge flow");
  INVALID(flow_network_source_side(net, NULL) == -1, "null side");
  INVALID(flow_network_source_side(NULL, side) == -1, "null network side");
#undef INVALID
  flow_network_destroy(net);
  printf("invalid: %d of %d passed\n", checks - (failures - before), checks);
}

int main(void) {
  test_hand();
  test_resolve();
  test_reserve();
  test_random();
  test_large();
  test_invalid();
  if (failures) {
    printf("maxflow: %d failures\n", failures);
    return 1;
  }
  printf("maxflow: ok\n");
  return 0;
}
