/* show.c: the report's memory lines, the DOT picture and the timeline of each split
 * (see show.h). */
#include "show.h"

#include <stdbool.h>
#include <stdlib.h>

#include "dot.h"
#include "memory.h"
#include "support.h"
#include "timeline.h"

struct remat_show {
  FILE *report, *dot, *timeline;
  const char *dot_name, *timeline_name;
  int index;     /* splits shown so far */
  int dot_nodes; /* nodes drawn so far */
};

remat_show *remat_show_open(FILE *report, const char *dot, const char *timeline, int nfuncs,
                            const char **bad) {
  *bad = NULL;
  bool want_dot = dot && *dot, want_timeline = timeline && *timeline;
  if (!report && !want_dot && !want_timeline)
    return NULL;
  remat_show *s = xcalloc(1, sizeof *s);
  s->report = report;
  s->dot_name = dot;
  s->timeline_name = timeline;
  if (want_dot && !(s->dot = fopen(dot, "w")))
    *bad = dot;
  else if (want_timeline && !(s->timeline = fopen(timeline, "w")))
    *bad = timeline;
  if (*bad) {
    if (s->dot)
      fclose(s->dot);
    free(s);
    return NULL;
  }
  if (s->dot)
    remat_dot_begin(s->dot);
  if (s->timeline)
    remat_timeline_begin(s->timeline, nfuncs);
  return s;
}

void remat_show_split(remat_show *s, const remat_split_view *v) {
  remat_mem_estimate e;
  remat_memory_estimate(v, &e);
  if (s->report)
    remat_memory_print(s->report, v, &e);
  if (s->dot)
    s->dot_nodes += remat_dot_function(s->dot, s->index, v, &e);
  if (s->timeline)
    remat_timeline_chart(s->timeline, s->index, v, &e);
  s->index++;
  remat_memory_free(&e);
}

int remat_show_close(remat_show *s, const char **bad) {
  *bad = NULL;
  if (!s)
    return 0;
  if (s->dot) {
    remat_dot_end(s->dot, s->dot_nodes);
    if (ferror(s->dot) | fclose(s->dot))
      *bad = s->dot_name;
  }
  if (s->timeline) {
    remat_timeline_end(s->timeline, s->index);
    if ((ferror(s->timeline) | fclose(s->timeline)) && !*bad)
      *bad = s->timeline_name;
  }
  free(s);
  return *bad ? -1 : 0;
}
