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

struct flow_network {
    size_t num_nodes;
    size_t num_edges, edges_allocated;
    uint32_t *edge_from, *edge_to;
    double *edge_capacity;
    double finite_sum;          /* sum of finite capacities, kept finite */
    double max_finite;          /* largest finite capacity, sets the tolerance */
    int has_cut;                /* source_side holds the cut of the last solve */
    unsigned char *source_side; /* num_nodes bytes */
};

flow_network *flow_network_create(size_t num_nodes)
{
    flow_network *net;

    if (num_nodes > FLOW_MAX_NODES)
        return NULL;
    net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->num_nodes = num_nodes;
    net->source_side = malloc(num_nodes ? num_nodes : 1);
    if (!net->source_side) {
        free(net);
        return NULL;
    }
    return net;
}

void flow_network_destroy(flow_network *net)
{
    if (!net)
        return;
    free(net->edge_from);
    free(net->edge_to);
    free(net->edge_capacity);
    free(net->source_side);
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

/* The residual network in compressed rows and the push-relabel state.
 * Labels: the sink is 0, live nodes 1 .. n-1, nodes cut off from the sink n
 * ("dead": never processed again in the first phase), nodes merged into the
 * source n+1. */
typedef struct {
    uint32_t n, sink;
    uint32_t *first;   /* arcs of v: first[v] .. first[v+1]-1 */
    uint32_t *head;    /* node an arc points to */
    uint32_t *pair;    /* the reverse arc */
    double *residual;
    double tolerance;  /* residuals at or below this are saturated */
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
} solver;

static void solver_free(solver *s)
{
    free(s->first);
    free(s->head);
    free(s->pair);
    free(s->residual);
    free(s->label);
    free(s->current);
    free(s->excess);
    free(s->active_first);
    free(s->active_next);
    free(s->bucket_first);
    free(s->bucket_next);
    free(s->bucket_prev);
    free(s->queue);
}

/* Builds the residual network: each used edge becomes an arc at its tail with
 * the capacity and a reverse arc at its head with nothing. */
static int solver_init(solver *s, const flow_network *net, uint32_t sink)
{
    size_t n = net->num_nodes, arcs = 0, e;

    memset(s, 0, sizeof *s);
    s->n = (uint32_t)n;
    s->sink = sink;
    s->tolerance = FLOW_RELATIVE_TOLERANCE * net->max_finite;
    for (e = 0; e < net->num_edges; e++)
        if (net->edge_from[e] != net->edge_to[e] && net->edge_capacity[e] > 0)
            arcs += 2;
    s->first = calloc(n + 1, sizeof *s->first);
    s->head = malloc((arcs ? arcs : 1) * sizeof *s->head);
    s->pair = malloc((arcs ? arcs : 1) * sizeof *s->pair);
    s->residual = malloc((arcs ? arcs : 1) * sizeof *s->residual);
    s->label = malloc(n * sizeof *s->label);
    s->current = malloc(n * sizeof *s->current);
    s->excess = calloc(n, sizeof *s->excess);
    s->active_first = malloc(n * sizeof *s->active_first);
    s->active_next = malloc(n * sizeof *s->active_next);
    s->bucket_first = malloc(n * sizeof *s->bucket_first);
    s->bucket_next = malloc(n * sizeof *s->bucket_next);
    s->bucket_prev = malloc(n * sizeof *s->bucket_prev);
    s->queue = malloc(n * sizeof *s->queue);
    if (!s->first || !s->head || !s->pair || !s->residual || !s->label ||
        !s->current || !s->excess || !s->active_first || !s->active_next ||
        !s->bucket_first || !s->bucket_next || !s->bucket_prev || !s->queue) {
        solver_free(s);
        return -1;
    }

    for (e = 0; e < net->num_edges; e++) {
        uint32_t u = net->edge_from[e], v = net->edge_to[e];
        if (u != v && net->edge_capacity[e] > 0) {
            s->first[u + 1]++;
            s->first[v + 1]++;
        }
    }
    for (e = 0; e < n; e++)
        s->first[e + 1] += s->first[e];
    /* current[] serves as the fill position of each row here. */
    memcpy(s->current, s->first, n * sizeof *s->current);
    for (e = 0; e < net->num_edges; e++) {
        uint32_t u = net->edge_from[e], v = net->edge_to[e], a, b;
        if (u == v || !(net->edge_capacity[e] > 0))
            continue;
        a = s->current[u]++;
        b = s->current[v]++;
        s->head[a] = v;
        s->head[b] = u;
        s->pair[a] = b;
        s->pair[b] = a;
        s->residual[a] = net->edge_capacity[e];
        s->residual[b] = 0;
    }
    s->work_limit = GLOBAL_WORK_NODES * n + arcs;
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

    for (v = 0; v < n; v++) {
        s->active_first[v] = NONE;
        s->bucket_first[v] = NONE;
        if (s->label[v] != n + 1)
            s->label[v] = n;
    }
    s->max_active = 0;
    s->max_label = 0;
    s->work = 0;
    s->label[s->sink] = 0;
    s->queue[tail++] = s->sink;
    while (head < tail) {
        uint32_t x = s->queue[head++], a, end = s->first[x + 1];
        uint32_t l = s->label[x] + 1;
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = s->head[a];
            if (s->label[w] == n && s->residual[s->pair[a]] > s->tolerance) {
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

static void push(solver *s, uint32_t v, uint32_t a)
{
    uint32_t w = s->head[a];
    double amount = s->excess[v] < s->residual[a] ? s->excess[v] : s->residual[a];

    s->residual[a] -= amount;
    s->residual[s->pair[a]] += amount;
    s->excess[v] -= amount;
    /* w is below v, hence live; it becomes active unless it is the sink. */
    if (s->excess[w] == 0 && w != s->sink)
        activate(s, w);
    s->excess[w] += amount;
}

/* Pushes v's excess down admissible arcs, relabelling v when none is left,
 * until the excess is gone or v is dead. v is not on an active stack. */
static void discharge(solver *s, uint32_t v)
{
    uint32_t n = s->n;

    for (;;) {
        uint32_t k = s->label[v], a, begin = s->first[v], end = s->first[v + 1];
        uint32_t best = n, best_arc = begin;

        for (a = s->current[v]; a < end; a++) {
            if (s->residual[a] > s->tolerance && s->label[s->head[a]] + 1 == k) {
                push(s, v, a);
                if (s->excess[v] == 0) {
                    s->current[v] = a;
                    return;
                }
            }
        }

        /* Relabel: one above the lowest residual neighbour. */
        for (a = begin; a < end; a++) {
            if (s->residual[a] > s->tolerance) {
                uint32_t l = s->label[s->head[a]] + 1;
                if (l < best) {
                    best = l;
                    best_arc = a;
                }
            }
        }
        s->work += RELABEL_WORK + (end - begin);
        bucket_remove(s, v);
        if (s->bucket_first[k] == NONE) {
            s->label[v] = n;
            gap(s, k);
            return;
        }
        if (best >= n) {
            s->label[v] = n;
            return;
        }
        s->label[v] = best;
        s->current[v] = best_arc;
        bucket_insert(s, v);
        /* v is still the highest active node: keep going. */
    }
}

/* Marks (label n+1) the nodes reachable from the source over infinite arcs.
 * Returns 1 if the sink is among them. */
static int merge_into_source(solver *s, uint32_t source, uint32_t *count)
{
    uint32_t n = s->n, head = 0, tail = 0, v;

    for (v = 0; v < n; v++)
        s->label[v] = 0;
    s->label[source] = n + 1;
    s->queue[tail++] = source;
    while (head < tail) {
        uint32_t x = s->queue[head++], a, end = s->first[x + 1];
        for (a = s->first[x]; a < end; a++) {
            uint32_t w = s->head[a];
            if (isinf(s->residual[a]) && s->label[w] != n + 1) {
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

double flow_network_max_flow(flow_network *net, size_t source, size_t sink)
{
    solver s;
    uint32_t merged, i, v;
    double flow;

    if (!net)
        return -1;
    net->has_cut = 0;
    if (source >= net->num_nodes || sink >= net->num_nodes || source == sink)
        return -1;
    if (solver_init(&s, net, (uint32_t)sink) != 0)
        return -1;
    if (merge_into_source(&s, (uint32_t)source, &merged)) {
        solver_free(&s);
        return FLOW_INFINITY;
    }

    /* Saturate the finite arcs leaving the merged source; queue[0 .. merged)
     * still lists its nodes. */
    for (i = 0; i < merged; i++) {
        uint32_t x = s.queue[i], a, end = s.first[x + 1];
        for (a = s.first[x]; a < end; a++) {
            uint32_t w = s.head[a];
            double r = s.residual[a];
            if (s.label[w] != s.n + 1 && r > s.tolerance) {
                s.residual[a] = 0;
                s.residual[s.pair[a]] += r;
                s.excess[w] += r;
            }
        }
    }

    global_relabel(&s);
    while (s.max_active > 0) {
        uint32_t l = s.max_active;
        v = s.active_first[l];
        if (v == NONE) {
            s.max_active--;
            continue;
        }
        s.active_first[l] = s.active_next[v];
        discharge(&s, v);
        if (s.work > s.work_limit)
            global_relabel(&s);
    }
    flow = s.excess[sink];

    /* The nodes the last search cannot reach from the sink are the source
     * side: the cut closest to the sink. */
    global_relabel(&s);
    for (v = 0; v < s.n; v++)
        net->source_side[v] = s.label[v] >= s.n;
    net->has_cut = 1;
    solver_free(&s);
    return flow;
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
