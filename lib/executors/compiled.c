/* compiled.c: kernels and reductions through the codegen's host JIT (see compiled.h). */
#include "compiled.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "interp.h"
#include "ops.h"
#include "rt.h"

typedef struct entry {
  MlirOperation source; /* kernel func.func or rt.sum / rt.amax op */
  remat_cg_kind kind;
  int64_t numel;
  int num_params;
  remat_packed_fn fn;
} entry;

struct rtr_compiled {
  remat_codegen *cg;
  remat_jit *jit;
  entry *entries;
  int count;
  long launches;
  long views, view_copies; /* host views made, and copied for a reader that needs data */
};

static const entry *find(const rtr_compiled *c, MlirOperation source, remat_cg_kind kind) {
  for (int i = 0; i < c->count; i++)
    if (c->entries[i].kind == kind && mlirOperationEqual(c->entries[i].source, source))
      return &c->entries[i];
  return NULL;
}

enum { MAX_PARAMS = 512 };

/* func.call of an rt.kernel function: one launch over [0, numel). Tensor buffers are
 * passed as their data pointers, scalars as pointers to their value: a scalar buffer
 * stores exactly the type the ABI wants (f32, f64, i64, i32, i1 as a byte). */
static int call_kernel(void *ctx, MlirOperation call, MlirOperation callee,
                       const rtr_buffer *const *args, int nargs, rtr_buffer *const *results,
                       int nresults) {
  rtr_compiled *c = ctx;
  const entry *e = find(c, callee, REMAT_CG_KERNEL);
  if (!e) {
    rt_emit_error(call, "kernel '@%.*s' was not compiled", (int)rt_func_name(callee).length,
                  rt_func_name(callee).data);
    return -1;
  }
  if (nargs + nresults != e->num_params || e->num_params > MAX_PARAMS) {
    rt_emit_error(call, "kernel call passes %d values, the compiled kernel takes %d",
                  nargs + nresults, e->num_params);
    return -1;
  }
  void *p[MAX_PARAMS];
  for (int k = 0; k < nargs; k++)
    p[k] = args[k]->data;
  for (int k = 0; k < nresults; k++)
    p[nargs + k] = results[k]->data;
  e->fn(p, 0, e->numel);
  c->launches++;
  return 0;
}

/* An indexing op of a host function: its compiled function with a zeroed error record;
 * an out-of-range index is reported as the reference reports it. */
static int indexing_op(rtr_compiled *c, const entry *e, rtr_buffer *const *args, int nargs,
                       rtr_buffer *const *results, MlirOperation op) {
  int64_t err[3] = {0, 0, 0};
  void *p[6];
  if (nargs + 1 + (e->num_params > nargs + 1) != e->num_params || e->num_params > 6) {
    rt_emit_error(op, "indexing op passes %d values, the compiled function takes %d", nargs + 1,
                  e->num_params);
    return -1;
  }
  for (int k = 0; k < nargs; k++)
    p[k] = args[k]->data;
  p[nargs] = results[0]->data;
  p[nargs + 1] = err;
  e->fn(p, 0, e->numel);
  c->launches++;
  if (err[0]) {
    rtr_index_error ie = {err[1], 0, err[2]};
    remat_shape s = rt_shape_of(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    int64_t dim = 0;
    rt_get_i64(op, "dim", &dim);
    ie.bound = s.d[dim];
    return rtr_index_error_report(op, &ie);
  }
  return 1;
}

/* rt.sum / rt.amax and the indexing ops of a host function: the compiled function;
 * anything else: 0, the interpreter's C runtime runs it. */
static int host_op(void *ctx, MlirOperation op, rtr_buffer *const *args, int nargs,
                   rtr_buffer *const *results, int nresults) {
  rtr_compiled *c = ctx;
  rt_op_id id = rt_op_lookup(op);
  if (rt_op_kind_of(id) == RT_KIND_INDEXING && nresults == 1) {
    const entry *e = find(c, op, REMAT_CG_INDEXING);
    return e ? indexing_op(c, e, args, nargs, results, op) : 0;
  }
  if ((id != RT_OP_SUM && id != RT_OP_AMAX) || nargs != 1 || nresults != 1)
    return 0;
  const entry *e = find(c, op, REMAT_CG_REDUCTION);
  if (!e)
    return 0;
  void *p[2] = {args[0]->data, results[0]->data};
  e->fn(p, 0, e->numel);
  c->launches++;
  return 1;
}

rtr_compiled *rtr_compiled_create(MlirOperation module, int opt_level, int jobs,
                                  const char *cache_dir, char **err) {
  remat_codegen_options opts = {.target = REMAT_TARGET_HOST,
                                .sm = 0,
                                .opt_level = opt_level,
                                .skip_conv = true,
                                .skip_attention = true};
  remat_codegen *cg = remat_codegen_create(module, &opts);
  if (!cg) {
    remat_error_add(err, "the codegen cannot lower this module");
    return NULL;
  }
  remat_codegen_set_compile(cg, jobs, cache_dir);
  rtr_compiled *c = xcalloc(1, sizeof *c);
  c->cg = cg;
  c->count = remat_codegen_num_functions(cg);
  c->entries = xcalloc((size_t)c->count + 1, sizeof *c->entries);
  c->jit = remat_jit_create(cg, err);
  if (!c->jit) {
    rtr_compiled_destroy(c);
    return NULL;
  }
  for (int i = 0; i < c->count; i++) {
    const remat_cg_function *f = remat_codegen_function(cg, i);
    char *name = xasprintf("%s_packed", f->name);
    entry *e = &c->entries[i];
    e->source = f->source;
    e->kind = f->kind;
    e->numel = f->numel;
    e->num_params = f->num_params;
    e->fn = (remat_packed_fn)(uintptr_t)remat_jit_lookup(c->jit, name);
    if (!e->fn)
      remat_error_add(err, "JIT: no symbol '%s'", name);
    free(name);
    if (!e->fn) {
      rtr_compiled_destroy(c);
      return NULL;
    }
  }
  return c;
}

void rtr_compiled_destroy(rtr_compiled *c) {
  if (!c)
    return;
  if (c->jit)
    remat_jit_destroy(c->jit);
  remat_codegen_destroy(c->cg);
  free(c->entries);
  free(c);
}

rtr_interp_options rtr_compiled_options(rtr_compiled *c) {
  return (rtr_interp_options){.matmul_block = 64,
                              .call_kernel = call_kernel,
                              .ctx = c,
                              .host_op = host_op,
                              .lazy_views = true,
                              .views = &c->views,
                              .view_copies = &c->view_copies};
}

long rtr_compiled_launches(const rtr_compiled *c) { return c->launches; }

const remat_codegen_stats *rtr_compiled_stats(const rtr_compiled *c) {
  return remat_codegen_get_stats(c->cg);
}

long rtr_compiled_views(const rtr_compiled *c, long *copies) {
  *copies = c->view_copies;
  return c->views;
}
