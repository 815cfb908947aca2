/* kernel_bench: the host-compiled kernels and reductions of a fused module, each called
 * once per round on random inputs (floats in [-1, 1), as remat-run --seed), timed over
 * ROUNDS rounds; prints the median round and the kernels' count. What the codegen's
 * choices cost at run time, with no matmul or host op in the figure.
 *
 *   kernel_bench FILE [--rounds N] [--opt 0|3]
 *
 * Reductions run on their input's shape (they are called with the rows they reduce). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "codegen.h"
#include "buffer.h"

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

int main(int argc, char **argv) {
  int rounds = 50, opt = 3;
  const char *file = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--opt") && i + 1 < argc)
      opt = atoi(argv[++i]);
    else
      file = argv[i];
  }
  if (!file || rounds < 1) {
    fprintf(stderr, "usage: kernel_bench FILE [--rounds N] [--opt 0|3]\n");
    return 1;
  }
  MlirContext ctx = bench_context(false);
  MlirModule m = bench_parse("kernel_bench", ctx, file);
  if (mlirModuleIsNull(m))
    return 1;
  remat_codegen_options o = {.target = REMAT_TARGET_HOST, .sm = 0, .opt_level = opt};
  remat_codegen *cg = remat_codegen_create(mlirModuleGetOperation(m), &o);
  char *err = NULL;
  remat_jit *jit = cg ? remat_jit_create(cg, &err) : NULL;
  free(err);
  if (!jit) {
    fprintf(stderr, "kernel_bench: cannot compile %s\n", file);
    return 1;
  }
  int n = remat_codegen_num_functions(cg);
  void ***args = calloc((size_t)n, sizeof *args);
  rtr_buffer ***bufs = calloc((size_t)n, sizeof *bufs);
  remat_packed_fn *fns = calloc((size_t)n, sizeof *fns);
  for (int k = 0; k < n; k++) {
    const remat_cg_function *f = remat_codegen_function(cg, k);
    char packed[256];
    snprintf(packed, sizeof packed, "%s_packed", f->name);
    fns[k] = (remat_packed_fn)(uintptr_t)remat_jit_lookup(jit, packed);
    args[k] = calloc((size_t)f->num_params + 1, sizeof **args);
    bufs[k] = calloc((size_t)f->num_params + 1, sizeof **bufs);
    for (int p = 0; p < f->num_params; p++) {
      rtr_buffer *b = bufs[k][p] = rtr_buffer_for_type(f->params[p].type);
      if (!b || !fns[k]) {
        fprintf(stderr, "kernel_bench: cannot set up %s\n", f->name);
        return 1;
      }
      for (int64_t i = 0; i < b->numel; i++) {
        uint64_t r = next();
        if (rtr_elem_is_float(b->elem))
          rtr_buffer_set_f(b, i, ldexp((double)(r >> 40), -23) - 1.0);
        else
          rtr_buffer_set_i(b, i, b->is_scalar ? (int64_t)r : (int64_t)(r >> 60) - 8);
      }
      args[k][p] = b->data;
    }
  }
  double *t = calloc((size_t)rounds, sizeof *t);
  for (int r = -1; r < rounds; r++) { /* round -1 warms up */
    double t0 = now_ms();
    for (int k = 0; k < n; k++)
      fns[k](args[k], 0, remat_codegen_function(cg, k)->numel);
    if (r >= 0)
      t[r] = now_ms() - t0;
  }
  printf("%s: %d kernels and reductions, median round %.3f ms (%d rounds, -O%d)\n", file, n,
         median(t, rounds), rounds, opt);
  for (int k = 0; k < n; k++) {
    for (int p = 0; p < remat_codegen_function(cg, k)->num_params; p++)
      rtr_buffer_free(bufs[k][p]);
    free(bufs[k]);
    free(args[k]);
  }
  free(bufs), free(args), free(fns), free(t);
  remat_jit_destroy(jit);
  remat_codegen_destroy(cg);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
