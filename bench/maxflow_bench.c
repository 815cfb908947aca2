/* Times flow_network_max_flow on networks shaped like those --remat-mincut
 * builds for long op chains (docs/design.md, "Min-cut"): node 0
 * is the source, 1 the sink, op i has v_in = 2+2i and v_out = 3+2i.
 *
 *   v_in -> v_out     the op's byte weight (scalars 8 bytes x 0.1)
 *   v_out -> u_in     infinite, for each user u (mostly the next few ops,
 *                     sometimes a residual connection further back)
 *   v_out -> sink     infinite, if the backward uses v (about a third)
 *   source -> v_in    infinite, for primal arguments and banned ops
 *                     (matmuls, reductions)
 *   v_in -> sink      infinite, for a few must_recompute ops
 *
 * Usage: maxflow_bench [ops...]   (default 100000 300000 500000; 500000 ops
 * are 10^6 nodes). Prints one line per network; asserts nothing. */
#include "flow_network.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng_state = 42;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static size_t below(size_t k)
{
    return (size_t)(rng() % k);
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t in_node(size_t op)
{
    return 2 + 2 * op;
}

static size_t out_node(size_t op)
{
    return 3 + 2 * op;
}

/* Adds the network of an ops-long chain; the caller checks for failure. */
static int build(flow_network *net, size_t ops, double *weight)
{
    size_t i, k;
    int err = 0;

    for (i = 0; i < ops; i++) {
        size_t kind = below(100);
        int banned = kind < 12, primal = i < 16 || below(100) < 2;
        double w;

        if (kind < 8) /* matmul output, 0.25 to 64 MiB in f16/f32 */
            w = (double)((size_t)1 << (18 + below(9))) * (1 + below(2)) * 2;
        else if (kind < 12) /* reduction output, smaller */
            w = (double)((size_t)1 << (10 + below(8))) * 4;
        else if (kind < 18) /* scalar or 0-d value */
            w = 8 * 0.1;
        else if (kind < 20) /* i1 mask */
            w = (double)((size_t)1 << (18 + below(8)));
        else /* elementwise f32/bf16 */
            w = (double)((size_t)1 << (16 + below(10))) * (2 + 2 * below(2));
        weight[i] = w;

        err |= flow_network_add_edge(net, in_node(i), out_node(i), w);
        if (primal || banned)
            err |= flow_network_add_edge(net, 0, in_node(i), FLOW_INFINITY);
        else if (below(100) < 1)
            err |= flow_network_add_edge(net, in_node(i), 1, FLOW_INFINITY);
        if (below(100) < 35 || i + 1 == ops)
            err |= flow_network_add_edge(net, out_node(i), 1, FLOW_INFINITY);
        if (i > 0) {
            size_t uses = 1 + (below(100) < 60);
            for (k = 0; k < uses; k++) {
                size_t back = 1 + below(i < 8 ? i : 8);
                if (below(100) < 5) /* residual connection */
                    back = 1 + below(i < 64 ? i : 64);
                err |= flow_network_add_edge(net, out_node(i - back),
                                             in_node(i), FLOW_INFINITY);
            }
        }
    }
    return err;
}

static int run(size_t ops)
{
    size_t nodes = 2 + 2 * ops, i, saved = 0;
    flow_network *net = flow_network_create(nodes);
    double *weight = malloc(ops * sizeof *weight);
    unsigned char *side = malloc(nodes);
    double t0, t1, t2, flow, saved_bytes = 0;

    if (!net || !weight || !side || build(net, ops, weight) != 0) {
        fprintf(stderr, "maxflow_bench: out of memory at %zu ops\n", ops);
        flow_network_destroy(net);
        free(weight);
        free(side);
        return 1;
    }
    t0 = now();
    flow = flow_network_max_flow(net, 0, 1);
    t1 = now();
    if (flow_network_source_side(net, side) != 0) {
        fprintf(stderr, "maxflow_bench: no cut (flow %g)\n", flow);
        flow_network_destroy(net);
        free(weight);
        free(side);
        return 1;
    }
    t2 = now();
    for (i = 0; i < ops; i++) {
        if (side[in_node(i)] && !side[out_node(i)]) {
            saved++;
            saved_bytes += weight[i];
        }
    }
    printf("ops %zu nodes %zu edges %zu solve_s %.3f cut_s %.3f flow %.17g "
           "saved %zu saved_bytes %.17g\n",
           ops, nodes, flow_network_num_edges(net), t1 - t0, t2 - t1, flow,
           saved, saved_bytes);
    flow_network_destroy(net);
    free(weight);
    free(side);
    /* The cut's capacity is the flow, up to rounding of the two sums. */
    return fabs(flow - saved_bytes) <= 1e-9 * flow ? 0 : 1;
}

int main(int argc, char **argv)
{
    static const size_t defaults[] = {100000, 300000, 500000};
    int i, status = 0;

    if (argc > 1) {
        for (i = 1; i < argc; i++)
            status |= run((size_t)strtoull(argv[i], NULL, 10));
    } else {
        for (i = 0; i < 3; i++)
            status |= run(defaults[i]);
    }
    return status;
}
