/* Augmenting paths in the style of Boykov and Kolmogorov ("An experimental
 * comparison of min-cut/max-flow algorithms for energy minimization in
 * vision", 2004). Two search trees grow at once, S from the source over arcs
 * with residual capacity and T from the sink over arcs with residual capacity
 * towards it; where they touch, the path source ... p -> q ... sink is
 * augmented by its bottleneck. Nodes whose tree arc saturates become orphans:
 * each looks for a new parent among its tree's nodes whose path still
 * reaches the root, preferring the one closest to it, or is freed (its tree
 * neighbours are made active so that they may grow into it again). The
 * search ends when no node is active. The trees are kept from one
 * augmentation to the next, which is what makes the method fast on networks
 * with many short paths, such as the ones --remat-mincut builds.
 *
 * Closest parents: every node carries a distance to its root and the
 * augmentation ("time") at which it was last known exact. An orphan's
 * candidate parents are followed to their root, or to a node whose distance
 * is exact now, and stamped on the way, so no path is walked twice in one
 * adoption; a growing node also adopts a tree neighbour whose distance it
 * would shorten (the marking heuristic of Kolmogorov's implementation).
 *
 * At the end T is exactly the set of nodes that can reach the sink in the
 * residual network (a free or S node with a residual arc into T would have
 * been grown into T, or been an augmenting path), so the source side of the
 * cut closest to the sink is every node outside T: no final search.
 *
 * Infinite capacities: every node reachable from the source over infinite
 * edges is a root of S (they lie on the source side of every finite cut); if
 * the sink is among them the answer is FLOW_INFINITY. Otherwise every path
 * from a root to the sink has a finite arc, so every bottleneck is finite
 * (residuals of reverse arcs are flow, which is finite) and inner infinite
 * arcs keep an infinite residual (INFINITY - x == INFINITY).
 *
 * Memory: every per-node array is one block allocated by flow_network_create,
 * so no solve allocates per-node memory. The residual network (compressed
 * rows: each node's arcs side by side; an array of heads with pairs and one
 * of residuals, in one allocation: 16 bytes an arc) is built by the first
 * solve after edges were added and kept: the first solve finds the residuals
 * it wrote, a later one writes them again from the edge list (no copy of the
 * capacities per arc: --remat-mincut solves each network once). Rows, and not
 * lists built while edges are added or one record per arc with its residual:
 * both were slower under push-relabel (bench/RESULTS.md, "Pass speed"). A second
 * array holding each arc's pair's residual beside it, so that the sink's
 * tree reads it in sequence, was not measurably faster on the 10^5- and
 * 10^6-op chains' networks and costs 8 bytes an arc, so it was not kept.
 *
 * Until 2026-12 the solver was push-relabel (highest label, gap and global
 * relabel heuristics, first phase only); on these networks it did several
 * times the work, pushing excess that cannot reach the sink back up label by
 * label (bench/RESULTS.md, "Max-flow against Boost's Boykov-Kolmogorov").
 *
 * Everything is iterative (queues and parent arcs), so 10^6-node networks do
 * not touch the C stack.
 */
#include "flow_network.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX       /* no parent: free or an orphan; not queued */
#define ROOT (UINT32_MAX - 1) /* parent of a tree's roots */

enum { FREE = 0, S_TREE = 1, T_TREE = 2 };

/* What scans read together: the node an arc points to and its reverse arc. */
typedef struct arc {
  uint32_t head;
  uint32_t pair;
} arc;

/* The search state. parent[v] is an arc in v's row pointing to v's parent
 * (in S the flow goes along its pair, parent -> v; in T along the arc itself,
 * v -> parent), ROOT for roots, NONE for free nodes and orphans. */
typedef struct solver {
  uint32_t n;
  double tolerance; /* residuals at or below this are saturated */
  uint32_t *first;  /* arcs of v: first[v] .. first[v+1]-1 */
  arc *arcs;
  double *residual; /* reset from the edges' capacities, no copy kept */
  uint32_t *parent;
  uint32_t *next;   /* active queue: NONE if not queued, v if last */
  uint32_t *stamp;  /* the time at which dist was exact */
  uint32_t *dist;   /* arcs to the root */
  uint32_t *orphan; /* ring of orphans, n entries (each at most once) */
  unsigned char *tree;
  uint32_t active_first, active_last;
  uint32_t orphan_head, orphan_count;
  uint32_t time;
  int fresh;       /* residuals equal capacities (rows just built) */
  int queue_dirty; /* next[] may hold queued nodes (a solve stopped early) */
} solver;

struct flow_network {
  size_t num_nodes;
  size_t num_edges, edges_allocated;
  uint32_t *edge_from, *edge_to;
  double *edge_capacity;
  double finite_sum; /* sum of finite capacities, kept finite */
  double max_finite; /* largest finite capacity, sets the tolerance */
  int has_cut;       /* source_side holds the cut of the last solve */
  int rows_valid;    /* arcs and first[] hold the edges added so far */
  size_t num_arcs, arcs_allocated;
  unsigned char *source_side; /* num_nodes bytes, in block */
  void *block;                /* every per-node array, the solver's included */
  solver s;
};

flow_network *flow_network_create(size_t num_nodes) {
  flow_network *net;
  solver *s;
  size_t n = num_nodes, bytes;
  unsigned char *b;

  if (num_nodes > FLOW_MAX_NODES)
    return NULL;
  net = calloc(1, sizeof *net);
  if (!net)
    return NULL;
  bytes = n * (6 * sizeof(uint32_t) + 2) + sizeof(uint32_t);
  b = malloc(bytes);
  if (!b) {
    free(net);
    return NULL;
  }
  memset(b, 0, bytes);
  net->block = b;
  net->num_nodes = n;
  s = &net->s;
  s->parent = (uint32_t *)b;
  s->next = s->parent + n;
  s->stamp = s->next + n;
  s->dist = s->stamp + n;
  s->orphan = s->dist + n;
  s->queue_dirty = 1;       /* next[] is zeros, not NONE */
  s->first = s->orphan + n; /* n + 1 entries */
  s->tree = (unsigned char *)(s->first + n + 1);
  net->source_side = s->tree + n;
  return net;
}

void flow_network_destroy(flow_network *net) {
  if (!net)
    return;
  free(net->edge_from);
  free(net->edge_to);
  free(net->edge_capacity);
  free(net->s.arcs);
  free(net->block);
  free(net);
}

size_t flow_network_num_nodes(const flow_network *net) { return net ? net->num_nodes : 0; }

size_t flow_network_num_edges(const flow_network *net) { return net ? net->num_edges : 0; }

/* Room for n edges in all (n >= num_edges). */
static int resize_edges(flow_network *net, size_t n) {
  uint32_t *from, *to;
  double *cap;

  /* Each array is committed as soon as it is resized, so a later failure
     * leaves the network consistent (just with more room in some arrays). */
  from = realloc(net->edge_from, n * sizeof *from);
  if (!from)
    return -1;
  net->edge_from = from;
  to = realloc(net->edge_to, n * sizeof *to);
  if (!to)
    return -1;
  net->edge_to = to;
  cap = realloc(net->edge_capacity, n * sizeof *cap);
  if (!cap)
    return -1;
  net->edge_capacity = cap;
  net->edges_allocated = n;
  return 0;
}

int flow_network_reserve_edges(flow_network *net, size_t num_edges) {
  if (!net || num_edges > FLOW_MAX_EDGES)
    return -1;
  return num_edges <= net->edges_allocated ? 0 : resize_edges(net, num_edges);
}

int flow_network_add_edge(flow_network *net, size_t from, size_t to, double capacity) {
  double sum;

  if (!net || from >= net->num_nodes || to >= net->num_nodes)
    return -1;
  if (isnan(capacity) || capacity < 0)
    return -1;
  sum = net->finite_sum;
  if (!isinf(capacity)) {
    sum += capacity;
    if (isinf(sum))
      return -1;
  }
  if (net->num_edges == net->edges_allocated) {
    size_t n = net->edges_allocated ? 2 * net->edges_allocated : 16;
    if (net->num_edges == FLOW_MAX_EDGES ||
        resize_edges(net, n < FLOW_MAX_EDGES ? n : FLOW_MAX_EDGES) != 0)
      return -1;
  }
  net->edge_from[net->num_edges] = (uint32_t)from;
  net->edge_to[net->num_edges] = (uint32_t)to;
  net->edge_capacity[net->num_edges] = capacity;
  net->num_edges++;
  net->finite_sum = sum;
  if (!isinf(capacity) && capacity > net->max_finite)
    net->max_finite = capacity;
  net->has_cut = 0;
  net->rows_valid = 0;
  return 0;
}

int flow_network_source_side(const flow_network *net, unsigned char *source_side) {
  if (!net || !source_side || !net->has_cut)
    return -1;
  memcpy(source_side, net->source_side, net->num_nodes);
  return 0;
}

/* Walks the edges in order as build_rows placed them, writing each used
 * edge's capacity into its arc's residual and 0 into the reverse arc's, and
 * with arcs_too the arcs themselves. orphan[] serves as the fill position of
 * each row. */
static void fill_rows(flow_network *net, int arcs_too) {
  solver *s = &net->s;
  uint32_t *fill = s->orphan;
  const uint32_t *from = net->edge_from, *to = net->edge_to;
  const double *capacity = net->edge_capacity;
  double *residual = s->residual;
  size_t e;

  memcpy(fill, s->first, net->num_nodes * sizeof *fill);
  for (e = 0; e < net->num_edges; e++) {
    uint32_t u = from[e], w = to[e], a, b;
    if (u == w || !(capacity[e] > 0))
      continue;
    a = fill[u]++;
    b = fill[w]++;
    residual[a] = capacity[e];
    residual[b] = 0;
    if (arcs_too) {
      s->arcs[a].head = w;
      s->arcs[b].head = u;
      s->arcs[a].pair = b;
      s->arcs[b].pair = a;
    }
  }
}

/* Builds the rows: each used edge becomes an arc at its tail with the
 * capacity and a reverse arc at its head with nothing; self loops and zero
 * capacities carry nothing and are left out. 0, or -1 if memory runs out. */
static int build_rows(flow_network *net) {
  solver *s = &net->s;
  size_t n = net->num_nodes, arcs = 0, e, v;
  uint32_t *first = s->first;

  /* Row lengths first (first[v + 1] counts v's arcs), then the rows' room. */
  memset(first, 0, (n + 1) * sizeof *first);
  for (e = 0; e < net->num_edges; e++) {
    uint32_t u = net->edge_from[e], w = net->edge_to[e];
    if (u != w && net->edge_capacity[e] > 0) {
      first[u + 1]++;
      first[w + 1]++;
      arcs += 2;
    }
  }
  if (arcs > net->arcs_allocated) {
    /* one allocation: arcs, then residuals (aligned: an arc is 8 bytes) */
    unsigned char *b = realloc(s->arcs, arcs * (sizeof(arc) + sizeof(double)));
    if (!b)
      return -1;
    s->arcs = (arc *)b;
    net->arcs_allocated = arcs;
  }
  if (s->arcs) { /* no arithmetic on a null pointer when there are no arcs */
    s->residual = (double *)(s->arcs + net->arcs_allocated);
  }
  for (v = 0; v < n; v++)
    first[v + 1] += first[v];
  fill_rows(net, 1);
  s->fresh = 1;
  net->num_arcs = arcs;
  net->rows_valid = 1;
  return 0;
}

static void activate(solver *s, uint32_t v) {
  if (s->next[v] != NONE)
    return;
  if (s->active_last == NONE)
    s->active_first = v;
  else
    s->next[s->active_last] = v;
  s->next[v] = v;
  s->active_last = v;
}

/* The next active node still in a tree, taken off the queue; NONE if none. */
static uint32_t next_active(solver *s) {
  for (;;) {
    uint32_t v = s->active_first;
    if (v == NONE)
      return NONE;
    if (s->next[v] == v)
      s->active_first = s->active_last = NONE;
    else
      s->active_first = s->next[v];
    s->next[v] = NONE;
    if (s->tree[v] != FREE)
      return v;
  }
}

static void add_orphan(solver *s, uint32_t v) {
  uint32_t at = s->orphan_head + s->orphan_count;
  if (at >= s->n)
    at -= s->n;
  s->orphan[at] = v;
  s->orphan_count++;
  s->parent[v] = NONE;
}

/* Grows the tree of v by one step from v: free nodes across residual arcs
 * join it; a node of the other tree closes a path. Returns the arc p -> q of
 * that path (p in S, q in T), or NONE when v has no more to give. */
static uint32_t grow(solver *s, uint32_t v) {
  const uint32_t begin = s->first[v], end = s->first[v + 1];
  const arc *arcs = s->arcs;
  const double *residual = s->residual;
  const double tolerance = s->tolerance;
  unsigned char *tree = s->tree;
  uint32_t *parent = s->parent, *stamp = s->stamp, *dist = s->dist;
  const unsigned char mine = tree[v];
  const uint32_t stamp_v = stamp[v], dist_v = dist[v], dist_w = dist_v + 1;
  uint32_t a;

  if (mine == S_TREE) {
    for (a = begin; a < end; a++) {
      uint32_t w;
      if (residual[a] <= tolerance)
        continue;
      w = arcs[a].head;
      if (tree[w] == FREE) {
        tree[w] = S_TREE;
        parent[w] = arcs[a].pair;
        stamp[w] = stamp_v;
        dist[w] = dist_w;
        activate(s, w);
      } else if (tree[w] == T_TREE) {
        return a;
      } else if (stamp[w] <= stamp_v && dist[w] > dist_v) {
        /* v is a nearer parent for w */
        parent[w] = arcs[a].pair;
        stamp[w] = stamp_v;
        dist[w] = dist_w;
      }
    }
  } else {
    for (a = begin; a < end; a++) {
      uint32_t w, b = arcs[a].pair;
      if (residual[b] <= tolerance)
        continue;
      w = arcs[a].head;
      if (tree[w] == FREE) {
        tree[w] = T_TREE;
        parent[w] = b;
        stamp[w] = stamp_v;
        dist[w] = dist_w;
        activate(s, w);
      } else if (tree[w] == S_TREE) {
        return b;
      } else if (stamp[w] <= stamp_v && dist[w] > dist_v) {
        parent[w] = b;
        stamp[w] = stamp_v;
        dist[w] = dist_w;
      }
    }
  }
  return NONE;
}

/* Pushes the bottleneck along root ... p -> q ... root (a is p -> q); tree
 * arcs it saturates make orphans. Returns the amount. */
static double augment(solver *s, uint32_t a) {
  const arc *arcs = s->arcs;
  double *residual = s->residual;
  const double tolerance = s->tolerance;
  uint32_t *parent = s->parent;
  uint32_t p = arcs[arcs[a].pair].head, q = arcs[a].head, v, x;
  double amount = residual[a];

  for (v = p; (x = parent[v]) != ROOT; v = arcs[x].head)
    if (residual[arcs[x].pair] < amount)
      amount = residual[arcs[x].pair];
  for (v = q; (x = parent[v]) != ROOT; v = arcs[x].head)
    if (residual[x] < amount)
      amount = residual[x];

  residual[a] -= amount;
  residual[arcs[a].pair] += amount;
  for (v = p; (x = parent[v]) != ROOT;) {
    uint32_t up = arcs[x].head, y = arcs[x].pair;
    residual[y] -= amount;
    residual[x] += amount;
    if (residual[y] <= tolerance)
      add_orphan(s, v);
    v = up;
  }
  for (v = q; (x = parent[v]) != ROOT;) {
    uint32_t up = arcs[x].head;
    residual[x] -= amount;
    residual[arcs[x].pair] += amount;
    if (residual[x] <= tolerance)
      add_orphan(s, v);
    v = up;
  }
  return amount;
}

/* Finds orphan v a new parent in its tree: the neighbour across a residual
 * arc (towards v in S, away from v in T) whose path reaches the root and is
 * the shortest; or frees v. */
static void adopt(solver *s, uint32_t v) {
  const uint32_t begin = s->first[v], end = s->first[v + 1];
  const arc *arcs = s->arcs;
  const double *residual = s->residual;
  const double tolerance = s->tolerance;
  unsigned char *tree = s->tree;
  uint32_t *parent = s->parent, *stamp = s->stamp, *dist = s->dist;
  const unsigned char mine = tree[v];
  const uint32_t time = s->time;
  uint32_t a, best = NONE, best_dist = UINT32_MAX;

  for (a = begin; a < end; a++) {
    uint32_t w = arcs[a].head, j, d, x;
    if (tree[w] != mine || parent[w] == NONE)
      continue;
    if (residual[mine == S_TREE ? arcs[a].pair : a] <= tolerance)
      continue;
    /* Up from w to a root or a node exact at this time. */
    d = 0;
    for (j = w;; j = arcs[x].head) {
      if (stamp[j] == time) {
        d += dist[j];
        break;
      }
      x = parent[j];
      if (x == ROOT) {
        stamp[j] = time;
        dist[j] = 0;
        break;
      }
      if (x == NONE) {
        d = UINT32_MAX;
        break;
      }
      d++;
    }
    if (d == UINT32_MAX)
      continue;
    if (d < best_dist) {
      best_dist = d;
      best = a;
    }
    for (j = w; stamp[j] != time; j = arcs[parent[j]].head) {
      stamp[j] = time;
      dist[j] = d--;
    }
  }
  if (best != NONE) {
    parent[v] = best;
    stamp[v] = time;
    dist[v] = best_dist + 1;
    return;
  }
  /* Free v: neighbours that could grow into it again become active, and
     * its children become orphans. */
  for (a = begin; a < end; a++) {
    uint32_t w = arcs[a].head, x;
    if (tree[w] != mine)
      continue;
    if (residual[mine == S_TREE ? arcs[a].pair : a] > tolerance)
      activate(s, w);
    x = parent[w];
    if (x != ROOT && x != NONE && arcs[x].head == v)
      add_orphan(s, w);
  }
  tree[v] = FREE;
}

static void adopt_orphans(solver *s) {
  while (s->orphan_count > 0) {
    uint32_t v = s->orphan[s->orphan_head];
    if (++s->orphan_head == s->n)
      s->orphan_head = 0;
    s->orphan_count--;
    adopt(s, v);
  }
}

/* Makes v a root of tree t. */
static void make_root(solver *s, uint32_t v, unsigned char t) {
  s->tree[v] = t;
  s->parent[v] = ROOT;
  s->stamp[v] = 0;
  s->dist[v] = 0;
}

/* The roots of S: the source and every node reachable from it over infinite
 * arcs (the orphan ring serves as the search queue). Returns 1 if the sink is
 * among them. The search also does the roots' growth, so they are not queued
 * to scan their arcs again: free nodes across finite residual arcs join S as
 * their children (and become roots if an infinite arc reaches them later); a
 * root with an arc to the sink is queued, to find that path when grown. */
static int source_roots(solver *s, uint32_t source, uint32_t sink) {
  uint32_t head = 0, tail = 0;
  const arc *arcs = s->arcs;
  const double *residual = s->residual;
  const double tolerance = s->tolerance;
  unsigned char *tree = s->tree;

  make_root(s, source, S_TREE);
  s->orphan[tail++] = source;
  while (head < tail) {
    uint32_t x = s->orphan[head++], a, end = s->first[x + 1];
    for (a = s->first[x]; a < end; a++) {
      uint32_t w = arcs[a].head;
      if (residual[a] <= tolerance)
        continue;
      if (w == sink) {
        if (isinf(residual[a]))
          return 1;
        activate(s, x);
      } else if (isinf(residual[a])) {
        if (tree[w] == FREE || s->parent[w] != ROOT) {
          make_root(s, w, S_TREE);
          s->orphan[tail++] = w;
        }
      } else if (tree[w] == FREE) {
        tree[w] = S_TREE;
        s->parent[w] = arcs[a].pair;
        s->stamp[w] = 0;
        s->dist[w] = 1;
        activate(s, w);
      }
    }
  }
  return 0;
}

double flow_network_max_flow(flow_network *net, size_t source, size_t sink) {
  solver *s;
  size_t n, v;
  uint32_t cur = NONE;
  double flow = 0;

  if (!net)
    return -1;
  net->has_cut = 0;
  if (source >= net->num_nodes || sink >= net->num_nodes || source == sink)
    return -1;
  if (!net->rows_valid && build_rows(net) != 0)
    return -1;
  s = &net->s;
  n = net->num_nodes;
  s->n = (uint32_t)n;
  s->tolerance = FLOW_RELATIVE_TOLERANCE * net->max_finite;
  s->time = 0;
  s->active_first = s->active_last = NONE;
  s->orphan_head = s->orphan_count = 0;
  /* The first solve finds the residuals that build_rows wrote; next[] is
     * all NONE after create and after a solve that ran to the end. */
  if (!s->fresh)
    fill_rows(net, 0);
  s->fresh = 0;
  memset(s->tree, FREE, n);
  if (s->queue_dirty)
    memset(s->next, 0xff, n * sizeof *s->next);
  s->queue_dirty = 1;
  if (source_roots(s, (uint32_t)source, (uint32_t)sink))
    return FLOW_INFINITY;
  make_root(s, (uint32_t)sink, T_TREE);
  activate(s, (uint32_t)sink);

  for (;;) {
    uint32_t a;
    if (cur == NONE || s->tree[cur] == FREE) {
      cur = next_active(s);
      if (cur == NONE)
        break;
    }
    a = grow(s, cur);
    if (a == NONE) {
      cur = NONE;
      continue;
    }
    /* cur may have more to give: it is grown again after the orphans */
    if (++s->time == UINT32_MAX) {
      /* wrapped stamps could pass for exact ones: forget them all */
      memset(s->stamp, 0, n * sizeof *s->stamp);
      s->time = 1;
    }
    flow += augment(s, a);
    adopt_orphans(s);
  }
  s->queue_dirty = 0; /* every node was taken off the queue */
  for (v = 0; v < n; v++)
    net->source_side[v] = s->tree[v] != T_TREE;
  net->has_cut = 1;
  return flow;
}

int flow_network_write_dimacs(const flow_network *net, size_t source, size_t sink, FILE *f) {
  /* An infinite edge gets 1 + the sum of finite capacities: every cut through
     * one then costs more than any cut without, so the minimum cut and its value
     * do not change whenever a finite cut exists. */
  double inf = net->finite_sum + 1.0;
  size_t e;

  if (source >= net->num_nodes || sink >= net->num_nodes || source == sink)
    return -1;
  fprintf(f, "c infinite capacity written as %.17g\n", inf);
  fprintf(f, "p max %zu %zu\n", net->num_nodes, net->num_edges);
  fprintf(f, "n %zu s\nn %zu t\n", source + 1, sink + 1);
  for (e = 0; e < net->num_edges; e++) {
    double c = net->edge_capacity[e];
    fprintf(f, "a %lu %lu %.17g\n", (unsigned long)net->edge_from[e] + 1,
            (unsigned long)net->edge_to[e] + 1, c == FLOW_INFINITY ? inf : c);
  }
  return ferror(f) ? -1 : 0;
}
