/* bench.h: what the in-process benchmarks share (pass_bench.c, split_bench.c,
 * heap_bench.c): the wall clock, the median, and a remat context with the input parsed.
 * Header-only and public C API only, so bench/chain_bench.sh can compile a benchmark
 * against older builds with nothing but its own directory. */
#ifndef REMAT_BENCH_H
#define REMAT_BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mlir-c/IR.h"
#include "remat-c/Remat.h"

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

/* rematContextCreate's context, printing diagnostics to stderr, MLIR on its thread pool
 * only when THREADS (remat-opt's default is one thread); a null context if the rt dialect
 * cannot be loaded. The caller destroys it. */
static inline MlirContext bench_context(bool threads) {
  MlirContext ctx = rematContextCreate(stderr, NULL);
  if (!mlirContextIsNull(ctx))
    mlirContextEnableMultithreading(ctx, threads);
  return ctx;
}

/* FILE parsed (and verified, as remat-opt does) in CTX; a null module after a message
 * naming TOOL. The caller destroys it. */
static inline MlirModule bench_parse(const char *tool, MlirContext ctx, const char *file) {
  MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(file));
  if (mlirModuleIsNull(m))
    fprintf(stderr, "%s: error: cannot parse '%s'\n", tool, file);
  return m;
}

#endif
