/* show.h: what --remat-mincut shows about memory besides the split itself: the
 * peak-memory lines of its report (memory.c), the Graphviz picture (`dot=FILE`, dot.c)
 * and the memory timeline (`timeline=FILE`, timeline.c).
 *
 * The pass opens one remat_show per run, hands it each split (a view, see split_view.h)
 * and closes it. When nothing is asked for, remat_show_open returns NULL and the pass
 * builds no view: a plain split pays nothing for this. */
#ifndef REMAT_SHOW_H
#define REMAT_SHOW_H

#include <stdio.h>

#include "split_view.h"

typedef struct remat_show remat_show;

/* REPORT: the report's stream or NULL; DOT, TIMELINE: file names, "" or NULL for none
 * (each is truncated and written whole by this run); NFUNCS: joint functions the run will
 * split. Returns NULL when nothing is asked for, or when a file cannot be opened: then
 * *bad names it (else *bad = NULL). */
remat_show *remat_show_open(FILE *report, const char *dot, const char *timeline, int nfuncs,
                            const char **bad);

/* Adds one split: its report lines now, its part of each picture. */
void remat_show_split(remat_show *s, const remat_split_view *v);

/* Finishes and closes the files. 0, or -1 when one could not be written: *bad names it.
 * Accepts NULL. */
int remat_show_close(remat_show *s, const char **bad);

#endif
