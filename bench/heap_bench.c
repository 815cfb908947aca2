/* heap_bench: what the first small allocations cost after MLIR parsed a large module.
 *
 * Times N allocations of SIZE bytes (kept, so that none is served by the one before) in a
 * fresh process, then right after parsing FILE (with verification, as remat-opt does),
 * then once more. After a 10^6-op parse glibc's malloc first sorts the chunks the parser
 * freed into its bins, a few thousand at a time per call, so whichever code allocates
 * first pays for it: inside --remat-mincut that is the first few thousand small
 * allocations (the backward's block arguments, or the growing edge arrays before they
 * were reserved; bench/RESULTS.md, "Pass speed"). Asserts nothing.
 *
 * Usage: heap_bench FILE [N] [SIZE]   (defaults 8135 and 48: the backward's block
 * arguments on the 10^6-op chain, each a 48-byte BlockArgumentImpl) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/IR.h"
#include "remat-c/Remat.h"

#include "bench.h"

/* N allocations of SIZE bytes into P: their time in ms. */
static double allocate(void **p, int n, size_t size) {
  double t0 = now_ms();
  for (int i = 0; i < n; i++)
    p[i] = malloc(size);
  double ms = now_ms() - t0;
  for (int i = 0; i < n; i++)
    if (!p[i]) {
      fprintf(stderr, "heap_bench: error: out of memory\n");
      exit(1);
    }
  return ms;
}

static void release(void **p, int n) {
  for (int i = 0; i < n; i++)
    free(p[i]);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: heap_bench FILE [N] [SIZE]\n");
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 8135;
  size_t size = argc > 3 ? (size_t)atol(argv[3]) : 48;
  void **p = n > 0 ? calloc((size_t)n, sizeof *p) : NULL;
  if (!p || !size) {
    fprintf(stderr, "heap_bench: error: N and SIZE must be positive\n");
    return 2;
  }
  MlirContext ctx = bench_context(false);
  if (mlirContextIsNull(ctx))
    return 1;
  double fresh = allocate(p, n, size);
  release(p, n);
  double t0 = now_ms();
  MlirModule m = bench_parse("heap_bench", ctx, argv[1]);
  double parse = now_ms() - t0;
  if (mlirModuleIsNull(m))
    return 1;
  double after = allocate(p, n, size);
  release(p, n);
  double again = allocate(p, n, size);
  release(p, n);
  printf("%s: %d x malloc(%zu): fresh process %.3f ms; right after parsing (%.0f ms) "
         "%.3f ms; once more %.3f ms\n",
         argv[1], n, size, fresh, parse, after, again);
  free(p);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
