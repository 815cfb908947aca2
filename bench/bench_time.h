/* bench_time.h: the wall clock and the median the in-process benchmarks share
 * (pass_bench.c, split_bench.c). Header-only, so bench/chain_bench.sh can compile a
 * benchmark against older builds with nothing but its own directory. */
#ifndef REMAT_BENCH_TIME_H
#define REMAT_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

static inline double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts V in place. */
static inline double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
