/* timeline.c: the memory timeline as SVG (see timeline.h). One chart per joint function,
 * stacked; coordinates in pixels. A schedule with more steps than its width has pixels is
 * drawn one column per pixel at the column's largest live bytes, so the peak survives the
 * thinning and a 10^5-op function stays a small file. */
#include "timeline.h"

#include <stdint.h>

#include "report.h"
#include "rt.h"

enum {
  CHART_W = 880,
  CHART_H = 330, /* one chart */
  PLOT_L = 90,
  PLOT_R = 850, /* plot area, x */
  PLOT_T = 62,
  PLOT_B = 272, /* plot area, y (within a chart) */
};

static const char *const color[REMAT_MEM_NCASES] = {"#737373", "#d7301f", "#2b8cbe"};
static const char *const case_id[REMAT_MEM_NCASES] = {"no-remat", "split", "recompute-all"};

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
  }
}

static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

/* "512 B", "1.5 KiB", "3.0 MiB", ... */
static char *human(double b, char *buf, size_t cap) {
  int u = 0;
  while (b >= 1024 && u < 6) {
    b /= 1024;
    u++;
  }
  snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
  return buf;
}

/* The smallest of 1, 2, 5 x 10^k at least X (X > 0). */
static double nice_ceil(double x) {
  double p = 1;
  while (p * 10 <= x)
    p *= 10;
  while (p > x * 10)
    p /= 10;
  for (;;) {
    if (p >= x)
      return p;
    if (2 * p >= x)
      return 2 * p;
    if (5 * p >= x)
      return 5 * p;
    p *= 10;
  }
}

/* The y axis's ticks: steps of 1, 2 or 5 x 10^k in the unit its labels are written in,
 * so they read 50 KiB, 100 KiB, not the 39.1 KiB, 78.1 KiB of round byte counts. */
typedef struct yticks {
  int u, n;          /* unit[u]; ticks 0..n */
  double unit, step; /* bytes */
} yticks;

static yticks yticks_for(double top) {
  yticks y = {0, 0, 1, 0};
  while (top >= 1024 * y.unit && y.u < 6) {
    y.unit *= 1024;
    y.u++;
  }
  y.step = nice_ceil(top / y.unit / 5) * y.unit;
  if (y.step < 1)
    y.step = 1; /* no fractions of a byte */
  y.n = (int)(top / y.step);
  if (y.n * y.step < top)
    y.n++;
  return y;
}

void remat_timeline_begin(FILE *f, int ncharts) {
  int h = ncharts > 0 ? ncharts * CHART_H : 60;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          CHART_W, h, CHART_W, h);
}

void remat_timeline_end(FILE *f, int ncharts) {
  if (ncharts == 0)
    fputs("<text x=\"20\" y=\"35\">no joint function was split</text>\n", f);
  fputs("</svg>\n", f);
}

typedef struct axes {
  double xmax, ymax; /* steps, bytes at the plot's right and top edges */
  int top;           /* the chart's y offset */
} axes;

static double px(const axes *a, double step) { return PLOT_L + (PLOT_R - PLOT_L) * step / a->xmax; }

static double py(const axes *a, double bytes) {
  return a->top + PLOT_B - (PLOT_B - PLOT_T) * bytes / a->ymax;
}

/* The live bytes of C as a step function: steps [t, t+1) at live[t]. */
static void polyline(FILE *f, const axes *a, int index, int k, const remat_mem_schedule *c) {
  fprintf(f,
          "<polyline id=\"f%d-%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s "
          "points=\"",
          index, case_id[k], color[k], k == REMAT_MEM_SPLIT ? "2" : "1.5",
          k == REMAT_MEM_RECOMPUTE_ALL ? " stroke-dasharray=\"5,3\"" : "");
  int n = c->nsteps, cols = (int)((PLOT_R - PLOT_L) * (double)n / a->xmax);
  if (n <= cols || cols < 1) { /* at least a pixel per step: every step drawn */
    for (int t = 0; t < n; t++)
      fprintf(f, "%s%.1f,%.1f %.1f,%.1f", t ? " " : "", px(a, t), py(a, (double)c->live[t]),
              px(a, t + 1), py(a, (double)c->live[t]));
  } else {
    for (int col = 0, t = 0; col < cols; col++) {
      int end = (int)((int64_t)n * (col + 1) / cols);
      uint64_t m = 0;
      double x0 = px(a, t);
      for (; t < end; t++)
        m = c->live[t] > m ? c->live[t] : m;
      fprintf(f, "%s%.1f,%.1f %.1f,%.1f", col ? " " : "", x0, py(a, (double)m), px(a, end),
              py(a, (double)m));
    }
  }
  fputs("\"/>\n", f);
}

static void peak_marker(FILE *f, const axes *a, int index, int k, const remat_split_view *v,
                        const remat_mem_schedule *c) {
  if (c->peak_step < 0)
    return;
  double x = px(a, c->peak_step + 0.5), y = py(a, (double)c->peak);
  char hb[32], loc[256];
  MlirOperation op = v->ops[c->op[c->peak_step]];
  MlirStringRef n = rt_op_label(op); /* an rt.extern by its own name */
  fprintf(f,
          "<circle class=\"peak\" id=\"f%d-peak-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
          "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>",
          index, case_id[k], x, y, color[k]);
  fprintf(f, "%s: peak %llu bytes at step %d, %.*s ", remat_mem_case_name((remat_mem_case)k),
          (unsigned long long)c->peak, c->peak_step, (int)n.length, n.data);
  xml_text(f, remat_report_loc(mlirOperationGetLocation(op), loc, sizeof loc));
  fputs("</title></circle>\n", f);
  /* Labels apart: no remat to the left, the split to the right, recompute all below. */
  const char *anchor = k == REMAT_MEM_NO_REMAT ? "end" : "start";
  double lx = k == REMAT_MEM_NO_REMAT ? x - 8 : x + 8;
  double ly = k == REMAT_MEM_RECOMPUTE_ALL ? y + 16 : y - 8;
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">peak %s</text>\n", lx, ly,
          anchor, color[k], human((double)c->peak, hb, sizeof hb));
}

void remat_timeline_chart(FILE *f, int index, const remat_split_view *v,
                          const remat_mem_estimate *e) {
  axes a = {1, 1, index * CHART_H};
  uint64_t peak = 0;
  for (int k = 0; k < REMAT_MEM_NCASES; k++) {
    if (e->c[k].nsteps > a.xmax)
      a.xmax = e->c[k].nsteps;
    if (e->c[k].peak > peak)
      peak = e->c[k].peak;
  }
  yticks yt = yticks_for(peak ? (double)peak * 1.08 : 1);
  a.ymax = yt.step * yt.n;
  char hb[32];
  fprintf(f, "<g id=\"f%d\">\n<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">@",
          index, PLOT_L, a.top + 20);
  xml_text(f, v->name);
  fputs(": live bytes per step, forward then backward</text>\n", f);
  for (int k = 0; k < REMAT_MEM_NCASES; k++) { /* legend */
    double x = PLOT_L + 250.0 * k;
    fprintf(f,
            "<line x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"%s\" "
            "stroke-width=\"2\"%s/>\n",
            x, a.top + 40, x + 22, a.top + 40, color[k],
            k == REMAT_MEM_RECOMPUTE_ALL ? " stroke-dasharray=\"5,3\"" : "");
    fprintf(f, "<text x=\"%.0f\" y=\"%d\">%s: peak %s</text>\n", x + 28, a.top + 44,
            remat_mem_case_name((remat_mem_case)k), human((double)e->c[k].peak, hb, sizeof hb));
  }
  /* Axes, ticks and grid. */
  fprintf(f,
          "<g stroke=\"#000\" stroke-width=\"1\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
          "y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n",
          PLOT_L, a.top + PLOT_T, PLOT_L, a.top + PLOT_B, PLOT_L, a.top + PLOT_B, PLOT_R,
          a.top + PLOT_B);
  for (int t = 0; t <= yt.n; t++) {
    double b = yt.step * t, y = py(&a, b);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
            PLOT_L + 1, y, PLOT_R, y);
    fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g %s</text>\n",
            PLOT_L - 6, y + 4, t ? b / yt.unit : 0, t ? unit[yt.u] : "B");
  }
  double xstep = nice_ceil(a.xmax / 6);
  for (double s = 0; s <= a.xmax + 0.5; s += xstep)
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>\n", px(&a, s),
            a.top + PLOT_B + 16, s);
  fprintf(f,
          "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">step (op run): forward, then "
          "backward; dashed verticals: where each backward starts</text>\n",
          (PLOT_L + PLOT_R) / 2, a.top + PLOT_B + 36);
  for (int k = 0; k < REMAT_MEM_NCASES; k++) { /* where each backward starts */
    double x = px(&a, e->c[k].nfwd);
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
            "stroke-dasharray=\"2,3\"/>\n",
            x, a.top + PLOT_T, x, a.top + PLOT_B, color[k]);
  }
  static const int order[] = {REMAT_MEM_RECOMPUTE_ALL, REMAT_MEM_NO_REMAT, REMAT_MEM_SPLIT};
  for (int k = 0; k < REMAT_MEM_NCASES; k++) /* the split last, on top */
    polyline(f, &a, index, order[k], &e->c[order[k]]);
  for (int k = 0; k < REMAT_MEM_NCASES; k++)
    peak_marker(f, &a, index, k, v, &e->c[k]);
  fputs("</g>\n", f);
}
