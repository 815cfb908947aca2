/* dot.h: a Graphviz picture of each split (--remat-mincut's `dot=FILE`, remat-opt
 * --remat-dot=FILE). Render it with `dot -Tsvg FILE -o FILE.svg`.
 *
 * One digraph for the run, one cluster per joint function, inside it a forward cluster
 * (left) and a backward cluster (right). A node is an op of the joint function (or a
 * collapsed chain of them) or an argument; scalar constants are left out. Forward ops
 * are blue, forward ops the backward runs again orange ("recomputed"), forward ops only
 * the backward runs light orange ("moved"), backward ops green; saved values have a red
 * border and their bytes; banned ops a double border; the edges that carry a saved value
 * into the backward (the cut) are red. Large functions stay readable: ops cluster by
 * rt.ac_region, or else by runs of one source line; chains of single-use elementwise
 * ops and views of one kind collapse into one node with a count (functions of more than
 * REMAT_DOT_COLLAPSE_MIN ops); past REMAT_DOT_LARGE nodes edges are straight. */
#ifndef REMAT_DOT_H
#define REMAT_DOT_H

#include <stdio.h>

#include "memory.h"
#include "split_view.h"

#define REMAT_DOT_COLLAPSE_MIN 40
/* Above this many nodes in the file, edges are straight lines (see remat_dot_end). */
#define REMAT_DOT_LARGE 150

/* The digraph's header and the legend. */
void remat_dot_begin(FILE *f);
/* The cluster of one split; INDEX numbers the splits of the run from 0. Returns the
 * number of nodes it drew. */
int remat_dot_function(FILE *f, int index, const remat_split_view *v, const remat_mem_estimate *e);
/* Closes the digraph; NODES: the functions' nodes together. */
void remat_dot_end(FILE *f, int nodes);

#endif
