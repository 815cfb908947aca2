/* Push-relabel maximum flow, highest-label selection, gap and global-relabel
 * heuristics (Cherkassky and Goldberg, "On implementing push-relabel method
 * for the maximum flow problem", 1997; their hi_pr program). First phase only:
 * it stops at a maximum preflow, whose sink excess is the maximum flow value
 * and whose residual network gives the minimum cut.
 *
 * Infinite capacities: every node reachable from the source over infinite
 * edges lies on the source side of every finite cut, so these nodes are merged
 * into the source (they get a label above every other and are never active)
 * before solving. Finite edges leaving them are saturated at the start; no
 * infinite edge leaves them, so the excess ever in play is bounded by the sum
 * of finite capacities and stays small enough for the tolerance to be
 * meaningful. If the sink is among them the answer is FLOW_INFINITY. Inner
 * infinite edges keep an infinite residual (INFINITY - x == INFINITY).
 *
 * Memory: every per-node array is one block allocated by flow_network_create
 * and written there in full, so no solve allocates per-node memory or faults
 * fresh pages. The residual network (compressed rows: each node's arcs side by
 * side; arrays of heads with pairs, of residuals and of capacities, in one
 * allocation) is built by the first solve after edges were added and kept: a
 * later solve only copies the capacities into the residuals. It is rows and
 * not lists built while edges are added, and not one record per arc with its
 * residual, because both were slower on 10^5-node networks, where the global
 * relabel's scans dominate (bench/RESULTS.md, "Pass speed").
 *
 * Everything is iterative (queues and linked lists), so 10^6-node networks do
 * not touch the C stack.
 */
#include "flow_network.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* Work counting of hi_pr: a relabel costs RELABEL_WORK plus the arcs it
 * scans; a global relabel runs once the work exceeds GLOBAL_WORK_NODES * n +
 * arcs. */
enum { RELABEL_WORK = 12, GLOBAL_WORK_NODES = 6 };

/* What scans read together: the node an arc points to and its reverse arc. */
typedef struct arc {
    uint32_t head;
    uint32_t pair;
} arc;

/* The push-relabel state. Labels: the sink is 0, live nodes 1 .. n-1, nodes
 * cut off from the sink n ("dead": never processed again in the first
 * phase), nodes merged into the source n+1. */
typedef struct solver {
    uint32_t n, sink;
    double tolerance;  /* residuals at or below this are saturated */
    uint32_t *first;   /* arcs of v: first[v] .. first[v+1]-1 */
    arc *arcs;
    double *residual;
    double *capacity;  /* what a solve resets the residuals to */
    uint32_t *label;
    uint32_t *current; /* arcs before it are known not admissible */
    double *excess;
    /* Per label: a stack of active nodes and a doubly linked list of all
     * live nodes (the gap heuristic needs to find every node above a gap). */
    uint32_t *active_first, *active_next;
    uint32_t *bucket_first, *bucket_next, *bucket_prev;
    uint32_t max_active; /* no active node above it; 0 means none */
    uint32_t max_label;  /* no live node above it */
    uint32_t *queue;
    size_t work, work_limit;
    int relabelled;      /* no push since the last global relabel: labels exact */
} solver;

struct flow_network {
    size_t num_nodes;
    size_t num_edges, edges_allocated;
    uint32_t *edge_from, *edge_to;
    double *edge_capacity;
    double finite_sum;          /* sum of finite capacities, kept finite */
    double max_finite;          /* largest finite capacity, sets the tolerance */
    int has_cut;                /* source_side holds the cut of the last solve */
    int rows_valid;             /* arcs and first[] hold the edges added so far */
    size_t num_arcs, arcs_allocated;
    unsigned char *source_side; /* num_nodes bytes, in block */
    void *block;                /* every per-node array, the solver's included */
    solver s;
};

flow_network *flow_network_create(size_t num_nodes)
{
    flow_network *net;
    solver *s;
    size_t n = num_nodes, bytes;
    unsigned char *b;

    if (num_nodes > FLOW_MAX_NODES)
        return NULL;
    net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    /* The doubles first, so each array is aligned. */
    bytes = n * (sizeof(double) + 9 * sizeof(uint32_t) + 1) + sizeof(uint32_t);
    b = malloc(bytes);
    if (!b) {
        free(net);
        return NULL;
    }
    memset(b, 0, bytes);
    net->block = b;
    net->num_nodes = n;
    s = &net->s;
    s->excess = (double *)b;
    s->label = (uint32_t *)(b + n * sizeof(double));
    s->current = s->label + n;
    s->active_first = s->current + n;
    s->active_next = s->active_first + n;
    s->bucket_first = s->active_next + n;
    s->bucket_next = s->bucket_first + n;
    s->bucket_prev = s->bucket_next + n;
    s->queue = s->bucket_prev + n;
    s->first = s->queue + n; /* n + 1 entries */
    net->source_side = (unsigned char *)(s->first + n + 1);
    return net;
}

void flow_network_destroy(flow_network *net)
{
    if (!net)
        return;
    free(net->edge_from);
    free(net->edge_to);
    free(net->edge_capacity);
    free(net->s.arcs);
    free(net->block);
    free(net);
}

size_t flow_network_num_nodes(const flow_network *net)
{
    return net ? net->num_nodes : 0;
}

size_t flow_network_num_edges(const flow_network *net)
{
    return net ? net->num_edges : 0;
}

static int grow_edges(flow_network *net)
{
    size_t n = net->edges_allocated ? 2 * net->edges_allocated : 16;
    uint32_t *from, *to;
    double *cap;

    if (n > FLOW_MAX_EDGES)
        n = FLOW_MAX_EDGES;
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

int flow_network_add_edge(flow_network *net, size_t from, size_t to,
                          double capacity)
{
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
        if (net->num_edges == FLOW_MAX_EDGES || grow_edges(net) != 0)
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

int flow_network_source_side(const flow_network *net,
                             unsigned char *source_side)
{
    if (!net || !source_side || !net->has_cut)
        return -1;
    memcpy(source_side, net->source_side, net->num_nodes);
    return 0;
}

/* Builds the rows: each used edge becomes an arc at its tail with the
 * capacity and a reverse arc at its head with nothing; self loops and zero
 * capacities carry nothing and are left out. 0, or -1 if memory runs out. */
static int build_rows(flow_network *net)
{
    solver *s = &net->s;
    size_t n = net->num_nodes, arcs = 0, e, v;
    uint32_t *first = s->first, *fill = s->current;

    for (e = 0; e < net->num_edges; e++)
        if (net->edge_from[e] != net->edge_to[e] && net->edge_capacity[e] > 0)
            arcs += 2;
    if (arcs > net->arcs_allocated) {
        /* one allocation: arcs, then residuals and capacities (aligned: an arc
         * is 8 bytes) */
        unsigned char *b = realloc(s->arcs, arcs * (sizeof(arc) + 2 * sizeof(double)));
        if (!b)
            return -1;
        s->arcs = (arc *)b;
        net->arcs_allocated = arcs;
    }
    if (s->arcs) { /* no arithmetic on a null pointer when there are no arcs */
        s->residual = (double *)(s->arcs + net->arcs_allocated);
        s->capacity = s->residual + net->arcs_allocated;
    }
    memset(first, 0, (n + 1) * sizeof *first);
    for (e = 0; e < net->num_edges; e++) {
        uint32_t u = net->edge_from[e], w = net->edge_to[e];
        if (u != w && net->edge_capacity[e] > 0) {
            first[u + 1]++;
            first[w + 1]++;
        }
    }
    for (v = 0; v < n; v++)
        first[v + 1] += first[v];
    /* current[] serves as the fill position of each row here. */
    memcpy(fill, first, n * sizeof *fill);
    for (e = 0; e < net->num_edges; e++) {
        uint32_t u = net->edge_from[e], w = net->edge_to[e], a, b;
        if (u == w || !(net->edge_capacity[e] > 0))
            continue;
        a = fill[u]++;
        b = fill[w]++;
        s->arcs[a].head = w;
        s->arcs[b].head = u;
        s->arcs[a].pair = b;
        s->arcs[b].pair = a;
        s->capacity[a] = net->edge_capacity[e];
        s->capacity[b] = 0;
    }
    net->num_arcs = arcs;
    net->rows_valid = 1;
    return 0;
}

/* The rows (built if edges were added since the last solve) and the state a
 * solve starts from: residuals from the capacities, no excess. 0 or -1. */
static int solver_init(flow_network *net, uint32_t sink)
{
    solver *s = &net->s;
    size_t n = net->num_nodes, a;

    if (!net->rows_valid && build_rows(net) != 0)
        return -1;
    s->n = (uint32_t)n;
    s->sink = sink;
    s->tolerance = FLOW_RELATIVE_TOLERANCE * net->max_finite;
    s->max_active = s->max_label = 0;
    s->work = 0;
    s->relabelled = 0;
    s->work_limit = GLOBAL_WORK_NODES * n + net->num_arcs;
    memset(s->excess, 0, n * sizeof *s->excess);
    for (a = 0; a < net->num_arcs; a++)
        s->residual[a] = s->capacity[a];
    return 0;
}

static void activate(solver *s, uint32_t v)
{
    uint32_t l = s->label[v];
    s->active_next[v] = s->active_first[l];
    s->active_first[l] = v;
    if (l > s->max_active)
        s->max_active = l;
}

static void bucket_insert(solver *s, uint32_t v)
{
    uint32_t l = s->label[v], next = s->bucket_first[l];
    s->bucket_prev[v] = NONE;
    s->bucket_next[v] = next;
    if (next != NONE)
        s->bucket_prev[next] = v;
    s->bucket_first[l] = v;
    if (l > s->max_label)
        s->max_label = l;
}

static void bucket_remove(solver *s, uint32_t v)
{
    uint32_t prev = s->bucket_prev[v], next = s->bucket_next[v];
    if (prev != NONE)
        s->bucket_next[prev] = next;
    else
        s->bucket_first[s->label[v]] = next;
    if (next != NONE)
        s->bucket_prev[next] = prev;
}

/* Exact distances to the sink in the residual network, by a breadth-first
 * search backwards from the sink. Nodes that cannot reach it become dead. */
static void global_relabel(solver *s)
{
    uint32_t n = s->n, v, head = 0, tail = 0;
    const arc *arcs = s->arcs;
    const double *residual = s->residual;

    for (v = 0; v < n; v++) {
        s->active_first[v] = NONE;
        s->bucket_first[v] = NONE;
        if (s->label[v] != n + 1)
            s->label[v] = n;
    }
    s->max_active = 0;
    s->max_label = 0;
    s->work = 0;
    s->relabelled = 1;
    s->label[s->sink] = 0;
    s->queue[tail++] = s->sink;
    while (head < tail) {
        uint32_t x = s->queue[head++], a, end = s->first[x + 1];
        uint32_t l = s->label[x] + 1;
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = arcs[a].head;
            if (s->label[w] == n && residual[arcs[a].pair] > s->tolerance) {
                s->label[w] = l;
                s->current[w] = s->first[w];
                bucket_insert(s, w);
                if (s->excess[w] > 0)
                    activate(s, w);
                s->queue[tail++] = w;
            }
        }
    }
}

/* No node has label k any more: nodes above it cannot reach the sink. */
static void gap(solver *s, uint32_t k)
{
    uint32_t l, v;

    for (l = k + 1; l <= s->max_label; l++) {
        for (v = s->bucket_first[l]; v != NONE; v = s->bucket_next[v])
            s->label[v] = s->n;
        s->bucket_first[l] = NONE;
        s->active_first[l] = NONE;
    }
    s->max_label = k - 1;
    if (s->max_active >= k)
        s->max_active = k - 1;
}

/* Pushes v's excess down admissible arcs, relabelling v when none is left,
 * until the excess is gone or v is dead. v is not on an active stack. The
 * arrays and scalars are read into locals once: stores to labels and
 * residuals could otherwise alias the solver's fields and force reloads. */
static void discharge(solver *s, uint32_t v)
{
    const uint32_t n = s->n, sink = s->sink;
    const double tolerance = s->tolerance;
    const uint32_t *first = s->first;
    const arc *arcs = s->arcs;
    double *residual = s->residual;
    uint32_t *label = s->label, *current = s->current;
    double *excess = s->excess, left = excess[v];

    s->relabelled = 0;
    for (;;) {
        uint32_t k = label[v], a, begin = first[v], end = first[v + 1];
        uint32_t best = n, best_arc = begin;

        for (a = current[v]; a < end; a++) {
            double r = residual[a];
            uint32_t w = arcs[a].head;
            if (r > tolerance && label[w] + 1 == k) {
                /* push: w is below v, hence live; it becomes active unless
                 * it is the sink */
                double amount = left < r ? left : r;
                residual[a] = r - amount;
                residual[arcs[a].pair] += amount;
                left -= amount;
                if (excess[w] == 0 && w != sink)
                    activate(s, w);
                excess[w] += amount;
                if (left == 0) {
                    excess[v] = 0;
                    current[v] = a;
                    return;
                }
            }
        }
        excess[v] = left;

        /* Relabel: one above the lowest residual neighbour. */
        for (a = begin; a < end; a++) {
            if (residual[a] > tolerance) {
                uint32_t l = label[arcs[a].head] + 1;
                if (l < best) {
                    best = l;
                    best_arc = a;
                }
            }
        }
        s->work += RELABEL_WORK + (end - begin);
        bucket_remove(s, v);
        if (s->bucket_first[k] == NONE) {
            label[v] = n;
            gap(s, k);
            return;
        }
        if (best >= n) {
            label[v] = n;
            return;
        }
        label[v] = best;
        current[v] = best_arc;
        bucket_insert(s, v);
        /* v is still the highest active node: keep going. */
    }
}

/* Marks (label n+1) the nodes reachable from the source over infinite arcs.
 * Returns 1 if the sink is among them. */
static int merge_into_source(solver *s, uint32_t source, uint32_t *count)
{
    uint32_t n = s->n, head = 0, tail = 0, v;
    const arc *arcs = s->arcs;
    const double *residual = s->residual;

    for (v = 0; v < n; v++)
        s->label[v] = 0;
    s->label[source] = n + 1;
    s->queue[tail++] = source;
    while (head < tail) {
        uint32_t x = s->queue[head++], a, end = s->first[x + 1];
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = arcs[a].head;
            if (isinf(residual[a]) && s->label[w] != n + 1) {
                if (w == s->sink)
                    return 1;
                s->label[w] = n + 1;
                s->queue[tail++] = w;
            }
        }
    }
    *count = tail;
    return 0;
}

/* The cut closest to the sink: the source side is every node that cannot
 * reach the sink in the residual network. Dead nodes (label n and above)
 * cannot (labels stay valid distance bounds, and a path to the sink is
 * shorter than n), so only the others are searched; if no push happened
 * since the last global relabel, its labels are exact and the search is
 * skipped. */
static void final_cut(solver *s, unsigned char *source_side)
{
    uint32_t n = s->n, v, head = 0, tail = 0, a;
    const arc *arcs = s->arcs;
    const double *residual = s->residual;

    if (s->relabelled) {
        for (v = 0; v < n; v++)
            source_side[v] = s->label[v] >= n;
        return;
    }
    for (v = 0; v < n; v++)
        source_side[v] = 1;
    source_side[s->sink] = 0;
    s->queue[tail++] = s->sink;
    while (head < tail) {
        uint32_t x = s->queue[head++], end = s->first[x + 1];
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = arcs[a].head;
            if (source_side[w] && s->label[w] < n &&
                residual[arcs[a].pair] > s->tolerance) {
                source_side[w] = 0;
                s->queue[tail++] = w;
            }
        }
    }
}

double flow_network_max_flow(flow_network *net, size_t source, size_t sink)
{
    solver *s;
    uint32_t merged, i, v;

    if (!net)
        return -1;
    net->has_cut = 0;
    if (source >= net->num_nodes || sink >= net->num_nodes || source == sink)
        return -1;
    if (solver_init(net, (uint32_t)sink) != 0)
        return -1;
    s = &net->s;
    if (merge_into_source(s, (uint32_t)source, &merged))
        return FLOW_INFINITY;

    /* Saturate the finite arcs leaving the merged source; queue[0 .. merged)
     * still lists its nodes. */
    for (i = 0; i < merged; i++) {
        uint32_t x = s->queue[i], a, end = s->first[x + 1];
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = s->arcs[a].head;
            double r = s->residual[a];
            if (s->label[w] != s->n + 1 && r > s->tolerance) {
                s->residual[a] = 0;
                s->residual[s->arcs[a].pair] += r;
                s->excess[w] += r;
            }
        }
    }

    global_relabel(s);
    while (s->max_active > 0) {
        uint32_t l = s->max_active;
        v = s->active_first[l];
        if (v == NONE) {
            s->max_active--;
            continue;
        }
        s->active_first[l] = s->active_next[v];
        discharge(s, v);
        if (s->work > s->work_limit)
            global_relabel(s);
    }
    final_cut(s, net->source_side);
    net->has_cut = 1;
    return s->excess[sink];
}

int flow_network_write_dimacs(const flow_network *net, size_t source, size_t sink,
                              FILE *f)
{
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
