/* attention_bench: one forward+backward of fused attention (rt.attention and
 * rt.attention_grad) against the unfused graph, on the CPU as remat-run runs them
 * (compiled: kernels JIT-compiled once before timing, host ops in the C runtime, one
 * thread), interleaved: FN_A, FN_B, FN_A, ... on the same inputs; prints the median of
 * each and B / A. Inputs: floats in [-1, 1), an i1 tensor whose last two dims are square
 * a causal mask (j <= i), i64 scalars a fixed seed and offset.
 *
 *   attention_bench FILE FN_A FN_B [ROUNDS]   (default 5)
 *
 * bench/attention_cpu.sh writes the module (test/ops/Inputs/attention_pair.py). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compiled.h"
#include "rt.h"

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

static MlirOperation func_named(MlirOperation module, const char *name) {
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f))
    if (rt_str_eq(rt_func_name(f), name))
      return f;
  return (MlirOperation){NULL};
}

/* The inputs of FUNC (caller frees), or NULL. */
static rtr_buffer **inputs_of(MlirOperation func, int *n) {
  MlirBlock entry = rt_func_entry_block(func);
  *n = (int)mlirBlockGetNumArguments(entry);
  rtr_buffer **in = calloc((size_t)*n + 1, sizeof *in);
  for (int a = 0; a < *n; a++) {
    rtr_buffer *b = in[a] = rtr_buffer_for_type(mlirValueGetType(mlirBlockGetArgument(entry, a)));
    if (!b)
      return NULL;
    int64_t rows = b->rank >= 2 ? b->dims[b->rank - 2] : 0,
            cols = b->rank >= 1 ? b->dims[b->rank - 1] : 0;
    for (int64_t i = 0; i < b->numel; i++) {
      uint64_t r = next();
      if (rtr_elem_is_float(b->elem))
        rtr_buffer_set_f(b, i, ldexp((double)(r >> 40), -23) - 1.0);
      else if (b->elem == RTR_I1)
        rtr_buffer_set_i(b, i, rows == cols ? i % cols <= i / cols % rows : (int64_t)(r >> 63));
      else
        rtr_buffer_set_i(b, i, b->is_scalar ? (int64_t)(r >> 20) : (int64_t)(r >> 60) - 8);
    }
  }
  return in;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: attention_bench FILE FN_A FN_B [ROUNDS]\n");
    return 2;
  }
  int rounds = argc == 5 ? atoi(argv[4]) : 5;
  MlirContext ctx = bench_context(false);
  MlirModule m = bench_parse("attention_bench", ctx, argv[1]);
  if (mlirModuleIsNull(m) || rounds < 1)
    return 1;
  MlirOperation mod = mlirModuleGetOperation(m);
  char *err = NULL;
  rtr_compiled *c = rtr_compiled_create(mod, 3, 1, NULL, &err);
  if (!c) {
    fprintf(stderr, "attention_bench: %s\n", err ? err : "cannot compile");
    return 1;
  }
  rtr_interp_options o = rtr_compiled_options(c);
  MlirOperation f[2] = {func_named(mod, argv[2]), func_named(mod, argv[3])};
  rtr_buffer **in[2];
  int n[2];
  double *t[2];
  for (int k = 0; k < 2; k++) {
    if (mlirOperationIsNull(f[k]) || !(in[k] = inputs_of(f[k], &n[k]))) {
      fprintf(stderr, "attention_bench: no function '%s' or no inputs for it\n", argv[2 + k]);
      return 1;
    }
    t[k] = calloc((size_t)rounds, sizeof **t);
  }
  for (int r = -1; r < rounds; r++) /* round -1 warms up */
    for (int k = 0; k < 2; k++) {
      rtr_buffer **out = NULL;
      int nout = 0;
      double t0 = now_ms();
      if (rtr_interp_run(mod, f[k], &o, in[k], n[k], &out, &nout)) {
        fprintf(stderr, "attention_bench: '%s' failed\n", argv[2 + k]);
        return 1;
      }
      if (r >= 0)
        t[k][r] = now_ms() - t0;
      for (int i = 0; i < nout; i++)
        rtr_buffer_free(out[i]);
      free(out);
    }
  double a = median(t[0], rounds), b = median(t[1], rounds);
  printf("%s %.2f ms, %s %.2f ms (medians of %d interleaved rounds): %s / %s = %.3f\n", argv[2], a,
         argv[3], b, rounds, argv[3], argv[2], b / a);
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < n[k]; i++)
      rtr_buffer_free(in[k][i]);
    free(in[k]);
    free(t[k]);
  }
  rtr_compiled_destroy(c);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
