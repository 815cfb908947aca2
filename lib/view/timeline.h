/* timeline.h: an SVG chart of live bytes against the step (the op run) across the forward
 * and the backward, one chart per joint function, written directly (no plotting
 * library): the no-remat schedule, the split and "recompute all" as polylines on the same
 * axes, where the backward starts in each, and each peak marked (memory.h's estimate).
 *
 * Elements a test or a script can find: per chart i, <polyline id="f<i>-no-remat">,
 * id="f<i>-split", id="f<i>-recompute-all" and the markers <circle class="peak"
 * id="f<i>-peak-no-remat"> and id="f<i>-peak-split". */
#ifndef REMAT_TIMELINE_H
#define REMAT_TIMELINE_H

#include <stdio.h>

#include "memory.h"
#include "split_view.h"

/* The <svg> element, sized for NCHARTS charts stacked vertically. */
void remat_timeline_begin(FILE *f, int ncharts);
void remat_timeline_chart(FILE *f, int index, const remat_split_view *v,
                          const remat_mem_estimate *e);
/* Closes the <svg>; NCHARTS: charts written (0 writes a note instead). */
void remat_timeline_end(FILE *f, int ncharts);

#endif
