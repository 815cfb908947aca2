/* Flow networks, maximum flow and minimum cut.
 *
 * Used by --remat-mincut; pure C11, no MLIR. The solver augments along paths
 * found by two search trees, one grown from the source and one from the sink,
 * kept from one augmentation to the next (Boykov and Kolmogorov, 2004); the
 * sink's final tree gives the minimum cut without a further search.
 *
 * Ownership: flow_network_create returns a network the caller owns and frees
 * with flow_network_destroy (NULL is accepted). The network copies what it is
 * given; no function keeps a pointer passed to it.
 *
 * Errors: functions returning int return 0 on success and -1 on failure
 * (allocation failure or invalid argument). A failed add_edge leaves the
 * network as it was; flow_network_max_flow returns -1 on failure and drops
 * the previous cut.
 *
 * Capacities are doubles >= 0; FLOW_INFINITY marks an edge that may never be
 * cut. Finite capacities must add up to a finite double (add_edge refuses an
 * edge that would overflow the sum), so no intermediate value overflows.
 * Residual capacities at or below FLOW_RELATIVE_TOLERANCE times the largest
 * finite capacity count as saturated: rounding must not decide which of two
 * equal cuts is chosen, nor leave a phantom path through a saturated edge.
 * Capacities that small are in effect zero.
 *
 * Nodes are numbered 0 .. num_nodes-1. Parallel edges add up; self loops and
 * zero-capacity edges are accepted and ignored by the solver.
 */
#ifndef REMAT_FLOW_NETWORK_H
#define REMAT_FLOW_NETWORK_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#define FLOW_INFINITY INFINITY
/* Node and edge indices are 32-bit inside the solver to halve its memory. */
#define FLOW_MAX_NODES ((size_t)0x7fffffff)
#define FLOW_MAX_EDGES ((size_t)0x7fffffff)
#define FLOW_RELATIVE_TOLERANCE 1e-12

typedef struct flow_network flow_network;

/* A network with num_nodes nodes and no edges; NULL if num_nodes exceeds
 * FLOW_MAX_NODES or memory runs out. num_nodes may be 0. */
flow_network *flow_network_create(size_t num_nodes);
void flow_network_destroy(flow_network *net);

size_t flow_network_num_nodes(const flow_network *net);
/* Edges added so far, including ignored ones (self loops, zero capacity). */
size_t flow_network_num_edges(const flow_network *net);

/* Makes room for num_edges edges in all, so that adding up to that many
 * allocates nothing more (one allocation instead of a doubling series, each
 * copying what the last held). -1 if num_edges exceeds FLOW_MAX_EDGES or
 * memory runs out; the network keeps its edges then, and adding still works. */
int flow_network_reserve_edges(flow_network *net, size_t num_edges);
/* Adds a directed edge. -1 if a node is out of range, capacity is negative or
 * NaN, the finite capacities would sum to infinity, or memory runs out. */
int flow_network_add_edge(flow_network *net, size_t from, size_t to, double capacity);

/* Maximum flow value from source to sink, and the minimum cut kept for
 * flow_network_source_side. FLOW_INFINITY if the sink is reachable from the
 * source over infinite edges only (every cut is infinite; no cut is kept).
 * 0 if the sink is unreachable. -1 if source or sink is out of range, source
 * equals sink, or memory runs out. May be called again with other terminals:
 * the first solve after edges were added builds the residual network (the
 * one allocation a solve may make), later ones reuse it. */
double flow_network_max_flow(flow_network *net, size_t source, size_t sink);

/* Fills source_side[0 .. num_nodes-1] with 1 for nodes on the source side of
 * the minimum cut found by the last flow_network_max_flow, 0 for the others.
 * Among all minimum cuts this is the one closest to the sink: the source side
 * is every node that cannot reach the sink in the residual network, which is
 * the largest source side any minimum cut has. --remat-mincut wants it because
 * it saves the latest values and recomputes the fewest ops.
 * -1 (array untouched) if there is no cut: no max flow computed yet, the last
 * one failed or was infinite, or an edge was added since. */
int flow_network_source_side(const flow_network *net, unsigned char *source_side);

/* Writes the network in the DIMACS max-flow format (`p max`, `n ... s|t`, one
 * `a FROM TO CAP` line per edge as added, nodes numbered from 1), for other
 * max-flow solvers. An infinite capacity is written as 1 + the sum of finite
 * capacities (stated in a `c` line), which leaves the minimum cut unchanged
 * when a finite cut exists. -1 on a bad terminal or a write error. */
int flow_network_write_dimacs(const flow_network *net, size_t source, size_t sink, FILE *f);

#endif
