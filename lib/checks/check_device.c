/* check_device.c: a device run against the CPU, op by op (see check_device.h). */
#include "check_device.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "check.h"
#include "io.h"
#include "ops.h"

typedef enum op_class {
  C_EXACT_KERNEL,
  C_MATH_KERNEL,
  C_REDUCTION,
  C_MATMUL,
  C_CONV,
  C_VIEW,
  C_HOST,
  C_COUNT
} op_class;

static const char *class_name[C_COUNT] = {"kernels of IEEE-exact ops",
                                          "kernels calling libm/libdevice",
                                          "reductions",
                                          "matmuls",
                                          "convolutions",
                                          "views",
                                          "host ops"};

/* Ops whose value differs between libm (host) and libdevice (nvptx64): the table's
 * inexact column (rt_op_inexact): the RT_MATH rows, pow and rsqrt (1/sqrt on the host,
 * __nv_rsqrtf on the GPU). Everything else a kernel computes is IEEE-exact or integer
 * (docs/design.md, "Codegen"). */
static bool uses_math(rt_op_id id) { return id != RT_OP_NONE && rt_op_inexact(id); }

typedef struct class_stat {
  long ops, values, differ; /* differ: values outside the class's bound */
  uint64_t max_ulp;         /* math kernels: ulps at max(|cpu|, 1) */
  double max_ratio;         /* matmuls: largest |d| / bound */
  double max_rel;
} class_stat;

typedef struct draws {
  rtr_buffer **b;
  int n, cap;
} draws;

typedef struct checker {
  MlirOperation module;
  const rtr_interp_options *cpu;
  const rtr_device_check_options *o;
  uint64_t math_ulp;
  class_stat cls[C_COUNT];
  int printed; /* difference lines so far */
  int failures;
  /* random tensors */
  bool record; /* forward: remember the draws; backward: match them */
  draws fwd;
  long drawn, drawn_exact, redrawn, redrawn_matched;
  bool exact_only; /* every op of the current run was in an exact class */
} checker;

static op_class classify(checker *c, MlirOperation op) {
  rt_op_id id = rt_op_lookup(op);
  if (rt_op_named(op, "func.call")) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
    MlirStringRef s = mlirFlatSymbolRefAttrGetValue(a);
    char *name = xstrndup(s.data, s.length);
    MlirOperation f = rtr_interp_lookup(c->module, name);
    free(name);
    if (!mlirOperationIsNull(f) && !mlirBlockIsNull(rt_func_entry_block(f)))
      for (MlirOperation k = mlirBlockGetFirstOperation(rt_func_entry_block(f));
           !mlirOperationIsNull(k); k = mlirOperationGetNextInBlock(k)) {
        rt_op_id kid = rt_op_lookup(k);
        if (uses_math(kid) && mlirOperationGetNumResults(k) == 1 &&
            mlirTypeIsAFloat(rt_element_type(mlirValueGetType(mlirOperationGetResult(k, 0)))))
          return C_MATH_KERNEL;
      }
    return C_EXACT_KERNEL;
  }
  if (id == RT_OP_SUM || id == RT_OP_AMAX)
    return C_REDUCTION;
  if (id == RT_OP_MATMUL)
    return C_MATMUL;
  if (id != RT_OP_NONE && rt_op_kind_of(id) == RT_KIND_CONV)
    return C_CONV; /* the PTX entry <fn>_c<N>: the reference's order, bit for bit */
  if (id != RT_OP_NONE && rt_op_kind_of(id) == RT_KIND_ATTENTION)
    return C_MATH_KERNEL; /* <fn>_a<N>: the reference's order, libdevice's exp and log */
  if (rt_op_is_alias(id))
    return C_VIEW;
  /* An op a kernel computes, outside a kernel: a device runs it as a one-op kernel. */
  rt_op_kind kind = id == RT_OP_NONE ? RT_KIND_NONE : rt_op_kind_of(id);
  if (kind == RT_KIND_ELEMENTWISE || kind == RT_KIND_COMPARE || kind == RT_KIND_STRUCTURAL ||
      kind == RT_KIND_RANDOM)
    return uses_math(id) && mlirOperationGetNumResults(op) == 1 &&
                   mlirTypeIsAFloat(
                       rt_element_type(mlirValueGetType(mlirOperationGetResult(op, 0))))
               ? C_MATH_KERNEL
               : C_EXACT_KERNEL;
  return C_HOST;
}

/* |g - c| in units in the last place of the element type at max(|c|, 1); 0 when
 * identical (NaN equals NaN), UINT64_MAX when one side is NaN or infinite and the other
 * is not the same. */
static uint64_t ulp_at_floor(double g, double c, rtr_elem e) {
  if (g == c || (isnan(g) && isnan(c)))
    return 0;
  if (!isfinite(g) || !isfinite(c))
    return UINT64_MAX;
  int digits = e == RTR_F64 ? 53 : e == RTR_F16 ? 11 : e == RTR_BF16 ? 8 : 24;
  int ex;
  frexp(fmax(fabs(c), 1.0), &ex); /* max(|c|,1) = m 2^ex, m in [0.5, 1) */
  double ulp = ldexp(1.0, ex - digits);
  double u = ceil(fabs(g - c) / ulp);
  return u >= 1.8e19 ? UINT64_MAX : (uint64_t)u;
}

/* The operand of a matmul as the product reads it, element (p, r, col) of [B, R, C]. */
static double operand(const rtr_buffer *x, int64_t p, int64_t r, int64_t col, int64_t R, int64_t C,
                      bool t) {
  return rtr_buffer_get_f(x, t ? (p * C + col) * R + r : (p * R + r) * C + col);
}

/* Compares one matmul result against (2 K u + 2 u_out) sum |a||b|; returns the number of
 * elements outside it. */
static long matmul_check(MlirOperation op, rtr_buffer *const *args, const rtr_buffer *g,
                         const rtr_buffer *c, class_stat *st) {
  bool ta = rt_op_has_attr(op, "transpose_a"), tb = rt_op_has_attr(op, "transpose_b");
  int r = g->rank;
  int64_t B = r == 3 ? g->dims[0] : 1, M = g->dims[r - 2], N = g->dims[r - 1];
  int64_t K = args[0]->dims[r - (ta ? 2 : 1)];
  double u = g->elem == RTR_F64 ? ldexp(1, -52) : ldexp(1, -23);
  double u_out = g->elem == RTR_F64    ? ldexp(1, -53)
                 : g->elem == RTR_F16  ? ldexp(1, -11)
                 : g->elem == RTR_BF16 ? ldexp(1, -8)
                                       : ldexp(1, -24);
  long bad = 0;
  for (int64_t p = 0; p < B; p++)
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++)
          s += fabs(operand(args[0], p, i, k, M, K, ta) * operand(args[1], p, k, j, K, N, tb));
        int64_t at = (p * M + i) * N + j;
        double x = rtr_buffer_get_f(g, at), y = rtr_buffer_get_f(c, at);
        double d = fabs(x - y), bound = (2.0 * (double)K * u + 2 * u_out) * s;
        if (x == y || (isnan(x) && isnan(y)))
          continue;
        if (!(d <= bound))
          bad++;
        if (bound > 0 && d / bound > st->max_ratio)
          st->max_ratio = d / bound;
        if (y != 0 && d / fabs(y) > st->max_rel)
          st->max_rel = d / fabs(y);
      }
  return bad;
}

static void differs(checker *c, MlirOperation op, op_class k, int result, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void differs(checker *c, MlirOperation op, op_class k, int result, const char *fmt, ...) {
  c->failures++;
  if (c->printed++ >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  rt_emit_error(op, "--check-device: result #%d (%s) on the device differs from the CPU: %s",
                result, class_name[k], what);
}

static void record_draw(checker *c, MlirOperation op, const rtr_buffer *draw);

/* A buffer the check needs did not fit in host memory: the check fails at OP (the
 * program's sizes, not remat, decide the memory: the user's error). */
static void out_of_memory(checker *c, MlirOperation op, const char *what, const rtr_buffer *type) {
  char tb[128];
  c->failures++;
  rt_emit_error(op, "--check-device: out of memory for %s ('%s')", what,
                rtr_buffer_type_str(type, tb, sizeof tb));
}

static void on_op(void *ctx, MlirOperation op, rtr_buffer *const *args, int nargs,
                  rtr_buffer *const *res, int nres) {
  checker *c = ctx;
  op_class k = classify(c, op);
  class_stat *st = &c->cls[k];
  st->ops++;
  if (k == C_MATH_KERNEL || k == C_MATMUL)
    c->exact_only = false;
  rtr_buffer **cpu = xcalloc((size_t)nres + 1, sizeof *cpu);
  for (int r = 0; r < nres; r++)
    if (!(cpu[r] = rtr_buffer_new(res[r]->elem, res[r]->is_scalar, res[r]->rank, res[r]->dims))) {
      out_of_memory(c, op, "the CPU's result", res[r]);
      rtr_buffers_free(cpu, r);
      return;
    }
  if (rtr_interp_exec_op(c->module, op, c->cpu, args, nargs, cpu, nres)) {
    differs(c, op, k, 0, "the CPU cannot run it");
    rtr_buffers_free(cpu, nres);
    return;
  }
  for (int r = 0; r < nres; r++) {
    st->values++;
    uint64_t ulp;
    double rel;
    if (rtr_compare_buffers(res[r], cpu[r], &ulp, &rel))
      continue;
    bool flt = rtr_elem_is_float(res[r]->elem);
    if (k == C_MATMUL && flt) {
      long bad = matmul_check(op, args, res[r], cpu[r], st);
      if (bad) {
        st->differ++;
        differs(c, op, k, r, "%ld elements outside (2 K u + 2 u_out) sum |a||b|", bad);
      }
      continue;
    }
    if (k == C_MATH_KERNEL && flt) {
      uint64_t worst = 0;
      for (int64_t i = 0; i < res[r]->numel; i++) {
        uint64_t d =
            ulp_at_floor(rtr_buffer_get_f(res[r], i), rtr_buffer_get_f(cpu[r], i), res[r]->elem);
        if (d > worst)
          worst = d;
      }
      if (worst > st->max_ulp)
        st->max_ulp = worst;
      if (rel > st->max_rel)
        st->max_rel = rel;
      if (worst > c->math_ulp) {
        st->differ++;
        differs(c, op, k, r, "%llu ulp at max(|x|, 1), bound %llu", (unsigned long long)worst,
                (unsigned long long)c->math_ulp);
      }
      continue;
    }
    st->differ++;
    differs(c, op, k, r, "not bit-identical (max %llu ulp, max relative error %.3g)",
            (unsigned long long)ulp, rel);
  }
  /* A random tensor drawn by a host op (an unfused function) is a draw too. */
  if (rt_op_lookup(op) == RT_OP_UNIFORM_PHILOX && nres == 1)
    record_draw(c, op, res[0]);
  rtr_buffers_free(cpu, nres);
}

/* Forward: remember DRAW; backward: it must equal one the forward drew. */
static void record_draw(checker *c, MlirOperation op, const rtr_buffer *draw) {
  if (c->record) {
    XGROW(c->fwd.b, c->fwd.n, c->fwd.cap, 8);
    if (!(c->fwd.b[c->fwd.n] = rtr_buffer_clone(draw)))
      out_of_memory(c, op, "a copy of the random tensor", draw);
    else
      c->fwd.n++;
    return;
  }
  c->redrawn++;
  for (int k = 0; k < c->fwd.n; k++) {
    uint64_t ulp;
    double rel;
    if (rtr_buffer_same_type(c->fwd.b[k], draw) &&
        rtr_compare_buffers(c->fwd.b[k], draw, &ulp, &rel)) {
      c->redrawn_matched++;
      return;
    }
  }
  c->failures++;
  rt_emit_error(op, "--check-device: the backward's random tensor differs from every one the "
                    "forward drew on the device");
}

static void on_random(void *ctx, MlirOperation philox, uint64_t seed, uint64_t offset,
                      const rtr_buffer *draw) {
  checker *c = ctx;
  double lo = 0, hi = 1;
  rt_get_f64(philox, "lo", &lo);
  rt_get_f64(philox, "hi", &hi);
  rtr_buffer *cpu = rtr_buffer_new(draw->elem, false, draw->rank, draw->dims);
  if (!cpu) {
    out_of_memory(c, philox, "the CPU's draw of the random tensor", draw);
    return;
  }
  rtr_uniform_philox(cpu, seed, offset, lo, hi);
  uint64_t ulp;
  double rel;
  c->drawn++;
  if (rtr_compare_buffers(cpu, draw, &ulp, &rel))
    c->drawn_exact++;
  else {
    c->failures++;
    rt_emit_error(philox,
                  "--check-device: the random tensor drawn on the device (seed %llu, "
                  "offset %llu) differs from lib/philox.c (max %llu ulp)",
                  (unsigned long long)seed, (unsigned long long)offset, (unsigned long long)ulp);
  }
  rtr_buffer_free(cpu);
  record_draw(c, philox, draw);
}

/* Runs F on the device (observed) and on the CPU, compares the outputs; the device's
 * outputs in *dev_out. -1 when a run failed. */
static int run_both(checker *c, rtr_executor *dev, MlirOperation f, rtr_buffer *const *in, int nin,
                    const char *role, rtr_buffer ***dev_out, int *ndev, char **err) {
  rtr_exec_observer obs = {c, on_op, on_random};
  rtr_buffer **cpu = NULL;
  int ncpu = 0;
  c->exact_only = true;
  if (rtr_executor_run(dev, f, in, nin, &obs, dev_out, ndev, err))
    return -1;
  if (rtr_interp_run(c->module, f, c->cpu, in, nin, &cpu, &ncpu))
    return -1;
  FILE *r = c->o->report;
  MlirStringRef name = rt_func_name(f);
  uint64_t worst_ulp = 0;
  double worst_rel = 0;
  int differ = 0;
  for (int k = 0; k < ncpu && k < *ndev; k++) {
    uint64_t ulp;
    double rel;
    if (!rtr_buffer_same_type(cpu[k], (*dev_out)[k]) ||
        !rtr_compare_buffers(cpu[k], (*dev_out)[k], &ulp, &rel)) {
      differ++;
      if (rtr_buffer_same_type(cpu[k], (*dev_out)[k]))
        worst_ulp = ulp > worst_ulp ? ulp : worst_ulp, worst_rel = fmax(worst_rel, rel);
    }
  }
  if (!differ)
    fprintf(r, "  %s @%.*s: %d results bit-identical to the CPU's\n", role, (int)name.length,
            name.data, ncpu);
  else
    fprintf(r,
            "  %s @%.*s: %d of %d results differ from the CPU's (max %llu ulp, max "
            "relative error %.3g)%s\n",
            role, (int)name.length, name.data, differ, ncpu, (unsigned long long)worst_ulp,
            worst_rel,
            c->exact_only ? ": MISMATCH (every op was exact)"
                          : " after libm/libdevice functions or cuBLAS: reported, each op "
                            "was checked against its bound");
  if (differ && c->exact_only)
    c->failures++;
  rtr_buffers_free(cpu, ncpu);
  return 0;
}

static void report(checker *c) {
  FILE *r = c->o->report;
  for (int k = 0; k < C_COUNT; k++) {
    class_stat *s = &c->cls[k];
    if (!s->ops && c->o->quiet)
      continue;
    fprintf(r, "  %-32s %5ld ops, %5ld results", class_name[k], s->ops, s->values);
    if (k == C_MATH_KERNEL)
      fprintf(r, ", max %llu ulp at max(|x|,1) (bound %llu), max relative error %.3g",
              (unsigned long long)s->max_ulp, (unsigned long long)c->math_ulp, s->max_rel);
    else if (k == C_MATMUL)
      fprintf(r, ", max %.3g of the bound (2Ku + 2u_out) sum|a||b|, max relative error %.3g",
              s->max_ratio, s->max_rel);
    else
      fprintf(r, ", bit-exact required");
    fprintf(r, ": %s\n", s->differ ? "DIFFER" : "ok");
  }
  fprintf(r, "  random tensors drawn in kernels: %ld, bit-identical to lib/philox.c: %ld\n",
          c->drawn, c->drawn_exact);
}

/* The inputs of F (read from o->inputs or drawn from o->seed; random when RANDOM); NULL
 * with io.c's lines added to *err when they cannot be made. */
static rtr_buffer **inputs_of(MlirOperation f, const rtr_device_check_options *o, bool random,
                              int *n, char **err) {
  char *e = NULL;
  rtr_buffer **in = o->inputs && !random ? rtr_inputs_read(f, o->inputs, n, &e)
                                         : rtr_inputs_random(f, o->seed, o->values, n, &e);
  if (!in)
    remat_error_add(err, "%s", e ? e : "cannot make the inputs");
  free(e);
  return in;
}

int rtr_check_device(MlirOperation module, const char *name, rtr_executor *device,
                     const rtr_interp_options *cpu, const rtr_device_check_options *o, char **err) {
  checker c = {.module = module,
               .cpu = cpu,
               .o = o,
               .math_ulp = o->math_ulp ? o->math_ulp : RTR_DEVICE_MATH_ULP};
  char *fname = xasprintf("%s_fwd", name), *bname = xasprintf("%s_bwd", name);
  MlirOperation f = rtr_interp_lookup(module, name);
  MlirOperation ff = rtr_interp_lookup(module, fname), bf = rtr_interp_lookup(module, bname);
  rtr_buffer **in = NULL, **out = NULL, **bout = NULL, **bin = NULL, **tan = NULL;
  int nin = 0, nout = 0, nbout = 0, ntan = 0, rc = 2;
  bool pair = mlirOperationIsNull(f);
  if (pair && (mlirOperationIsNull(ff) || mlirOperationIsNull(bf))) {
    remat_error_add(err, "no function '@%s' (nor '@%s' and '@%s')", name, fname, bname);
    goto out;
  }
  fprintf(o->report, "check-device @%s (seed %llu): %s vs the CPU's compiled path, op by op\n",
          name, (unsigned long long)o->seed, device->device);
  c.record = true;
  if (!(in = inputs_of(pair ? ff : f, o, false, &nin, err)) ||
      run_both(&c, device, pair ? ff : f, in, nin, pair ? "forward" : "function", &out, &nout, err))
    goto out;
  if (pair) {
    int64_t num_out = 0;
    rt_func_num_outputs(ff, &num_out);
    MlirBlock be = rt_func_entry_block(bf);
    int nb = (int)mlirBlockGetNumArguments(be), nsaved = nout - (int)num_out, s = 0;
    if (!(tan = inputs_of(bf, o, true, &ntan, err)))
      goto out;
    bin = xcalloc((size_t)nb + 1, sizeof *bin);
    for (int k = 0; k < nb; k++) {
      if (rt_func_arg_has_attr(bf, k, "rt.tangent"))
        bin[k] = tan[k];
      else if (s < nsaved)
        bin[k] = out[num_out + s++];
    }
    for (int k = 0; k < nb; k++)
      if (!bin[k] || s != nsaved) {
        remat_error_add(err,
                        "'@%s' saves %d values, which do not match the arguments of "
                        "'@%s' that are not tangents",
                        fname, nsaved, bname);
        goto out;
      }
    c.record = false;
    if (run_both(&c, device, bf, bin, nb, "backward", &bout, &nbout, err))
      goto out;
  }
  report(&c);
  if (pair)
    fprintf(o->report,
            "  random tensors the backward drew: %ld, each bit-identical to one "
            "the forward drew: %ld\n",
            c.redrawn, c.redrawn_matched);
  rc = c.failures ? 1 : 0;
  fprintf(o->report, "%s\n",
          rc ? "FAILED: the device differs from the CPU beyond the stated bounds"
             : "ok: the device agrees with the CPU within the stated bounds");
out:
  for (int k = 0; k < c.fwd.n; k++)
    rtr_buffer_free(c.fwd.b[k]);
  free(c.fwd.b);
  free(bin);
  rtr_buffers_free(tan, ntan);
  rtr_buffers_free(in, nin);
  rtr_buffers_free(out, nout);
  rtr_buffers_free(bout, nbout);
  free(fname);
  free(bname);
  return rc;
}
