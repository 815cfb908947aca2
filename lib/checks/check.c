/* check.c: split, finite-difference and compiled-vs-reference checks (see check.h). */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "report.h"
#include "rt.h"
#include "io.h"
#include "ops.h"

/* The inputs of a check: from the inputs file when given, else from the seed. */
static rtr_buffer **inputs_for(MlirOperation f, const rtr_check_options *o, int *n, char **err) {
  return o->inputs ? rtr_inputs_read(f, o->inputs, n, err)
                   : rtr_inputs_random(f, o->seed, o->values, n, err);
}

/* ---- comparing values --------------------------------------------------------------- */

/* The bits of element i as an integer that orders like the float value. */
static __int128 ordered(const rtr_buffer *b, int64_t i) {
  uint64_t bits = 0;
  int width = (int)rtr_elem_size(b->elem) * 8;
  memcpy(&bits, (const char *)b->data + (size_t)i * rtr_elem_size(b->elem), rtr_elem_size(b->elem));
  uint64_t sign = 1ull << (width - 1);
  uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -(__int128)mag : (__int128)mag;
}

static bool elem_identical(const rtr_buffer *a, const rtr_buffer *b, int64_t i) {
  size_t es = rtr_elem_size(a->elem);
  if (!memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)i * es, es))
    return true;
  return rtr_elem_is_float(a->elem) && isnan(rtr_buffer_get_f(a, i)) &&
         isnan(rtr_buffer_get_f(b, i));
}

bool rtr_compare_buffers(const rtr_buffer *a, const rtr_buffer *b, uint64_t *max_ulp,
                         double *max_rel) {
  bool same = true;
  *max_ulp = 0;
  *max_rel = 0;
  for (int64_t i = 0; i < a->numel; i++) {
    if (elem_identical(a, b, i))
      continue;
    same = false;
    __int128 d;
    double rel;
    if (rtr_elem_is_float(a->elem)) {
      double x = rtr_buffer_get_f(a, i), y = rtr_buffer_get_f(b, i);
      d = ordered(a, i) - ordered(b, i);
      if (isnan(x) || isnan(y))
        rel = INFINITY, d = (__int128)UINT64_MAX;
      else if (x == y)
        rel = 0; /* -0 and +0 */
      else
        rel = fabs(x - y) / fmax(fabs(x), fabs(y));
    } else {
      int64_t x = rtr_buffer_get_i(a, i), y = rtr_buffer_get_i(b, i);
      d = (__int128)x - y;
      rel = fabs((double)x - (double)y) / fmax(fabs((double)x), fabs((double)y));
    }
    if (d < 0)
      d = -d;
    uint64_t u = d > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)d;
    if (u == 0)
      u = 1; /* differing bits that order equal (-0, +0): count one step */
    if (u > *max_ulp)
      *max_ulp = u;
    if (rel > *max_rel)
      *max_rel = rel;
  }
  return same;
}

/* Prints one comparison line; returns 1 when outside the tolerance. */
static int compare_line(const rtr_check_options *o, const char *what, int k, const rtr_buffer *want,
                        const rtr_buffer *got) {
  char ta[128], tb[128];
  FILE *r = o->report;
  if (!rtr_buffer_same_type(want, got)) {
    fprintf(r, "  %s #%d: type differs: %s vs %s\n", what, k,
            rtr_buffer_type_str(want, ta, sizeof ta), rtr_buffer_type_str(got, tb, sizeof tb));
    return 1;
  }
  uint64_t ulp;
  double rel;
  bool same = rtr_compare_buffers(want, got, &ulp, &rel);
  rtr_buffer_type_str(want, ta, sizeof ta);
  if (same) {
    if (!o->quiet)
      fprintf(r, "  %s #%d %s: bit-exact\n", what, k, ta);
    return 0;
  }
  bool ok = o->max_ulp > 0 && ulp <= (uint64_t)o->max_ulp;
  fprintf(r, "  %s #%d %s: %s: max %llu ulp, max relative error %.3g\n", what, k, ta,
          ok ? "within tolerance" : "MISMATCH", (unsigned long long)ulp, rel);
  return ok ? 0 : 1;
}

/* ---- tracing random tensors --------------------------------------------------------- */

typedef struct trace {
  bool record; /* record random tensors (joint run) or match them (backward run) */
  rtr_buffer **bufs;
  int n, cap;
  int matched, unmatched;
  long ops;
  char **err; /* the check's messages */
} trace;

static void on_op(void *ctx, MlirOperation op, rtr_buffer *const *res, int nres) {
  trace *t = ctx;
  t->ops++;
  if (rt_op_lookup(op) != RT_OP_UNIFORM_PHILOX || nres != 1)
    return;
  if (t->record) {
    XGROW(t->bufs, t->n, t->cap, 8);
    if (!(t->bufs[t->n] = rtr_buffer_clone(res[0])))
      /* the backward's copy then finds no match: the check fails, with this reason */
      remat_error_add(t->err, "out of memory recording a random tensor");
    else
      t->n++;
    return;
  }
  for (int k = 0; k < t->n; k++) {
    uint64_t ulp;
    double rel;
    if (rtr_buffer_same_type(t->bufs[k], res[0]) &&
        rtr_compare_buffers(t->bufs[k], res[0], &ulp, &rel)) {
      t->matched++;
      return;
    }
  }
  t->unmatched++;
}

static int run_traced(MlirOperation module, MlirOperation f, const rtr_interp_options *base,
                      trace *t, rtr_buffer *const *in, int nin, rtr_buffer ***out, int *nout,
                      rtr_peak *pk) {
  rtr_interp_options o = *base;
  o.trace = on_op;
  o.trace_ctx = t;
  o.peak = pk;
  return rtr_interp_run(module, f, &o, in, nin, out, nout);
}

/* Bytes of F's rt.param arguments (ARGS are its inputs). */
static uint64_t param_bytes(MlirOperation f, rtr_buffer *const *args, int nargs) {
  uint64_t n = 0;
  for (int k = 0; k < nargs; k++) /* rt.buffer: persistent state, as the estimate counts it */
    if (rt_func_arg_has_attr(f, k, "rt.param") || rt_func_arg_has_attr(f, k, "rt.buffer"))
      n += (uint64_t)args[k]->numel * rtr_elem_size(args[k]->elem);
  return n;
}

/* " at rt.op file:line:col" of the op at a measured peak. */
static const char *peak_at(const rtr_peak *pk, char *buf, size_t cap) {
  if (mlirOperationIsNull(pk->at))
    return "";
  char loc[256];
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(pk->at));
  snprintf(buf, cap, " at %.*s %s", (int)n.length, n.data,
           remat_report_loc(mlirOperationGetLocation(pk->at), loc, sizeof loc));
  return buf;
}

static MlirOperation need_func(MlirOperation module, const char *name, const char *file_what,
                               char **err) {
  MlirOperation f = rtr_interp_lookup(module, name);
  if (mlirOperationIsNull(f))
    remat_error_add(err, "no function '@%s' in %s", name, file_what);
  return f;
}

/* ---- split -------------------------------------------------------------------------- */

static int check_split(MlirOperation joint, MlirOperation split, const char *name,
                       const char *fwd_name, const char *bwd_name, const rtr_check_options *o,
                       rtr_split_stats *stats, char **err) {
  MlirOperation jf = need_func(joint, name, "the joint module", err);
  MlirOperation ff = need_func(split, fwd_name, "the split module", err);
  MlirOperation bf = need_func(split, bwd_name, "the split module", err);
  if (mlirOperationIsNull(jf) || mlirOperationIsNull(ff) || mlirOperationIsNull(bf))
    return 2;
  int64_t num_out;
  if (!rt_func_num_outputs(jf, &num_out)) {
    remat_error_add(err, "'@%s' has no rt.num_outputs: not a joint function", name);
    return 2;
  }
  int nin = 0, nj = 0, nf = 0, nb = 0, rc = 2;
  rtr_buffer **in = inputs_for(jf, o, &nin, err), **J = NULL, **F = NULL, **B = NULL;
  rtr_buffer **primals = xcalloc((size_t)nin + 1, sizeof *primals);
  rtr_buffer **bargs = NULL;
  trace tj = {true, NULL, 0, 0, 0, 0, 0, err}, tf = tj, tb = tj;
  tf.record = tb.record = false;
  if (!in)
    goto out;
  int np = 0, nt = 0;
  for (int k = 0; k < nin; k++)
    if (!rt_func_arg_has_attr(jf, k, "rt.tangent"))
      primals[np++] = in[k];
  nt = nin - np;
  rtr_interp_options ref = {.promote_f64 = false};
  rtr_peak pj = {0}, pf = {0}, pb = {0};
  if (run_traced(joint, jf, &ref, &tj, in, nin, &J, &nj, o->peak ? &pj : NULL)) {
    /* nothing to compare the split with: the inputs are wrong for the function (an
     * index out of range), not the split */
    if (o->inputs)
      remat_error_add(err, "the joint function '@%s' fails on the inputs of %s", name, o->inputs);
    else
      remat_error_add(err,
                      "the joint function '@%s' fails on the inputs of seed %llu (give an "
                      "integer argument its range, rt.range, or --inputs)",
                      name, (unsigned long long)o->seed);
    rc = 3;
    goto out;
  }
  if (run_traced(split, ff, &o->run, &tf, primals, np, &F, &nf, o->peak ? &pf : NULL))
    goto out;
  int nsaved = nf - (int)num_out;
  if (nsaved < 0) {
    remat_error_add(err,
                    "'@%s' returns %d values, fewer than the %lld forward "
                    "outputs of '@%s'",
                    fwd_name, nf, (long long)num_out, name);
    goto out;
  }
  bargs = xcalloc((size_t)(nsaved + nt) + 1, sizeof *bargs);
  for (int k = 0; k < nsaved; k++)
    bargs[k] = F[num_out + k];
  for (int k = 0, t = 0; k < nin; k++)
    if (rt_func_arg_has_attr(jf, k, "rt.tangent"))
      bargs[nsaved + t++] = in[k];
  intptr_t bwd_args = mlirBlockGetNumArguments(rt_func_entry_block(bf));
  if (bwd_args != nsaved + nt) {
    rt_emit_error(bf,
                  "'@%s' takes %ld arguments, but '@%s' saves %d values and '@%s' has "
                  "%d tangents",
                  bwd_name, (long)bwd_args, fwd_name, nsaved, name, nt);
    goto out;
  }
  tb.bufs = tj.bufs;
  tb.n = tj.n;
  /* The random tensors of the backward are checked on a reference run: inside compiled
   * kernels they are not visible. */
  trace tc = {false, tj.bufs, tj.n, 0, 0, 0, 0, err};
  bool compiled = o->run.call_kernel || o->run.host_op;
  /* the joint function's parameters stay live while the backward runs, taken or not */
  uint64_t jparams = param_bytes(jf, in, nin), bparams = param_bytes(bf, bargs, nsaved + nt);
  pb.base = jparams > bparams ? jparams - bparams : 0;
  if (run_traced(split, bf, &o->run, compiled ? &tc : &tb, bargs, nsaved + nt, &B, &nb,
                 o->peak ? &pb : NULL))
    goto out;
  if (compiled) {
    rtr_buffer **R = NULL;
    int nr = 0;
    if (run_traced(split, bf, &ref, &tb, bargs, nsaved + nt, &R, &nr, NULL))
      goto out;
    rtr_buffers_free(R, nr);
    tb.ops = tc.ops;
  }
  int ngrads = nj - (int)num_out;
  if (nb != ngrads) {
    remat_error_add(err, "'@%s' returns %d gradients, the joint function %d", bwd_name, nb, ngrads);
    goto out;
  }
  if (!o->quiet)
    fprintf(o->report, "check-split @%s (seed %llu): %lld outputs, %d gradients, %d saved\n", name,
            (unsigned long long)o->seed, (long long)num_out, ngrads, nsaved);
  int bad = 0;
  for (int k = 0; k < num_out; k++)
    bad += compare_line(o, "output", k, J[k], F[k]);
  for (int k = 0; k < ngrads; k++)
    bad += compare_line(o, "gradient", k, J[num_out + k], B[k]);
  if (!o->quiet || tb.unmatched)
    fprintf(o->report,
            "  random tensors recomputed in the backward: %d, %d bit-exact with "
            "the joint function's\n",
            tb.matched + tb.unmatched, tb.matched);
  if (o->peak) {
    char af[512], ab[512], aj[512];
    fprintf(o->report,
            "  measured peak @%s: split %llu (forward %llu%s; backward %llu%s, "
            "%llu of it parameters it does not take; %s); joint function as "
            "written %llu%s\n",
            name, (unsigned long long)(pf.peak > pb.peak ? pf.peak : pb.peak),
            (unsigned long long)pf.peak, peak_at(&pf, af, sizeof af), (unsigned long long)pb.peak,
            peak_at(&pb, ab, sizeof ab), (unsigned long long)pb.base,
            compiled ? "compiled" : "reference", (unsigned long long)pj.peak,
            peak_at(&pj, aj, sizeof aj));
  }
  if (stats) {
    stats->values += num_out + ngrads;
    stats->ops += tj.ops + tf.ops + tb.ops;
    stats->random += tb.matched + tb.unmatched;
  }
  rc = 0;
  if (bad)
    remat_error_add(err,
                    "the split of '@%s' differs from the joint function "
                    "in %d of %d values",
                    name, bad, (int)num_out + ngrads);
  if (tb.unmatched)
    remat_error_add(err,
                    "%d random tensors recomputed by '@%s' differ from "
                    "every one the joint function drew",
                    tb.unmatched, bwd_name);
  if (bad || tb.unmatched)
    rc = 1;
out:
  for (int k = 0; k < tj.n; k++)
    rtr_buffer_free(tj.bufs[k]);
  free(tj.bufs);
  free(bargs);
  free(primals);
  rtr_buffers_free(in, nin);
  rtr_buffers_free(J, nj);
  rtr_buffers_free(F, nf);
  rtr_buffers_free(B, nb);
  return rc;
}

int rtr_check_split(MlirOperation joint, MlirOperation split, const char *name,
                    const rtr_check_options *o, rtr_split_stats *stats, char **err) {
  char *fwd_name = xasprintf("%s_fwd", name), *bwd_name = xasprintf("%s_bwd", name);
  int rc = check_split(joint, split, name, fwd_name, bwd_name, o, stats, err);
  free(fwd_name);
  free(bwd_name);
  return rc;
}

/* ---- finite differences ------------------------------------------------------------- */

/* L = sum over forward outputs j of <out_j, tangent_j>, from a promoted (f64) run.
 * tangent_out[j] is the output tangent j belongs to (nt tangents). */
static int loss_f64(MlirOperation module, MlirOperation f, const rtr_interp_options *run,
                    rtr_buffer *const *in, int nin, const int *tangent_arg, const int *tangent_out,
                    int nt, double *loss) {
  rtr_buffer **out = NULL;
  int nout = 0;
  if (rtr_interp_run(module, f, run, in, nin, &out, &nout))
    return -1;
  double l = 0;
  for (int j = 0; j < nt; j++) {
    const rtr_buffer *t = in[tangent_arg[j]], *o = out[tangent_out[j]];
    for (int64_t e = 0; e < o->numel; e++)
      l += rtr_buffer_get_f(o, e) * rtr_buffer_get_f(t, t->numel == 1 ? 0 : e);
  }
  rtr_buffers_free(out, nout);
  *loss = l;
  return 0;
}

/* The name of argument K's name location (remat-import-torch's "blocks.0.ln1.weight"),
 * or an empty string. */
static MlirStringRef arg_name(MlirOperation f, int k) {
  MlirLocation l = mlirValueGetLocation(mlirBlockGetArgument(rt_func_entry_block(f), k));
  if (!mlirLocationIsAName(l))
    return mlirStringRefCreate("", 0);
  return mlirIdentifierStr(mlirLocationNameGetName(l));
}

/* --wrt: a comma list of argument numbers or names (name locations) -> args[]; -1 after
 * an error. */
static int parse_wrt(MlirOperation f, const char *name, int nin, const char *wrt, int *args,
                     char **err) {
  int na = 0;
  for (const char *s = wrt;; s++) {
    size_t len = strcspn(s, ",");
    int k = -1;
    if (len > 0 && strspn(s, "0123456789") == len) {
      k = len < 9 ? atoi(s) : nin;
      if (k >= nin) {
        remat_error_add(err, "--wrt: '@%s' has no argument #%.*s", name, (int)len, s);
        return -1;
      }
    } else {
      for (int a = 0; a < nin && k < 0; a++) {
        MlirStringRef n = arg_name(f, a);
        if (n.length == len && len && !memcmp(n.data, s, len))
          k = a;
      }
      if (k < 0) {
        remat_error_add(err,
                        "--wrt: '@%s' has no argument named '%.*s' (give numbers, or "
                        "the names of the arguments' name locations)",
                        name, (int)len, s);
        return -1;
      }
    }
    if (na == nin) {
      remat_error_add(err, "--wrt: more arguments than '@%s' has", name);
      return -1;
    }
    args[na++] = k;
    s += len;
    if (!*s)
      return na;
  }
}

/* splitmix64: the deterministic choice of sampled elements. */
static uint64_t mix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The elements of an argument of NUMEL elements that --fd-sample N checks: all of them
 * when N is 0 or at least NUMEL, else N distinct ones (Floyd's sampling, seeded by the
 * argument's number, so a rerun checks the same ones), ascending. Returns the count. */
static int64_t sample_elements(int64_t numel, int64_t n, int arg, int64_t **out) {
  bool all = n <= 0 || n >= numel;
  int64_t m = all ? numel : n;
  int64_t *e = xcalloc((size_t)m + 1, sizeof *e);
  if (all) {
    for (int64_t i = 0; i < m; i++)
      e[i] = i;
  } else {
    uint64_t st = 0x5eed0000ull + (uint64_t)arg;
    for (int64_t j = numel - m, c = 0; j < numel; j++, c++) {
      int64_t t = (int64_t)(mix64(&st) % (uint64_t)(j + 1));
      bool seen = false;
      for (int64_t i = 0; i < c && !seen; i++)
        seen = e[i] == t;
      e[c] = seen ? j : t;
    }
    qsort(e, (size_t)m, sizeof *e, cmp_i64);
  }
  *out = e;
  return m;
}

/* Progress of a long check on o->progress: on a terminal one line rewritten at most five
 * times a second, else one line per argument done. */
static void fd_progress(const rtr_check_options *o, bool arg_done, int g, int ngrads, long done,
                        long total, double t0, double *last) {
  if (!o->progress)
    return;
  double t = remat_now_ms() / 1e3;
  if (o->progress_tty ? !arg_done && t - *last < 0.2 : !arg_done)
    return;
  *last = t;
  char left[48] = "";
  if (done > 0 && done < total)
    snprintf(left, sizeof left, ", about %.0f s left",
             (t - t0) / (double)done * (double)(total - done));
  fprintf(o->progress, "%scheck-fd: %d of %d arguments, %ld of %ld elements, %.0f s%s%s",
          o->progress_tty ? "\r" : "", g + arg_done, ngrads, done, total, t - t0, left,
          o->progress_tty ? "\033[K" : "\n");
  fflush(o->progress);
}

int rtr_check_fd(MlirOperation module, const char *name, const char *wrt,
                 const rtr_check_options *o, char **err) {
  MlirOperation f = need_func(module, name, "the module", err);
  int64_t num_out;
  if (mlirOperationIsNull(f))
    return 2;
  if (!rt_func_num_outputs(f, &num_out)) {
    remat_error_add(err, "'@%s' has no rt.num_outputs: not a joint function", name);
    return 2;
  }
  int nin = 0, nj = 0, rc = 2, ngrads = 0;
  rtr_buffer **in = inputs_for(f, o, &nin, err), **J = NULL, **P = NULL;
  int *tangent_arg = xcalloc((size_t)nin + 1, sizeof *tangent_arg);
  int *args = xcalloc((size_t)nin + 1, sizeof *args);
  int *tangent_out = xcalloc((size_t)nin + 1, sizeof *tangent_out);
  int64_t **elems = NULL, *nelems = NULL;
  double last = 0; /* when progress was printed last; 0: never */
  if (!in)
    goto out;
  int nt = 0, na = 0, nbuf = 0;
  for (int k = 0; k < nin; k++) {
    if (rt_func_arg_has_attr(f, k, "rt.tangent"))
      tangent_arg[nt++] = k;
    else if (!wrt && !in[k]->is_scalar && rtr_elem_is_float(in[k]->elem)) {
      args[na++] = k;
      nbuf += rt_func_arg_has_attr(f, k, "rt.buffer");
    }
  }
  if (wrt && (na = parse_wrt(f, name, nin, wrt, args, err)) < 0)
    goto out;
  /* Tangent j belongs to output j; with fewer tangents than outputs (--remat-autodiff
   * gives none to integer and scalar outputs), to the j-th floating-point tensor output. */
  MlirType fty = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  int nfloat = 0;
  for (int64_t r = 0; r < num_out && nt < num_out; r++) {
    MlirType t = mlirFunctionTypeGetResult(fty, r);
    if (mlirTypeIsARankedTensor(t) && mlirTypeIsAFloat(mlirShapedTypeGetElementType(t)) &&
        nfloat < nt)
      tangent_out[nfloat++] = (int)r;
  }
  for (int j = 0; j < nt && nt == num_out; j++)
    tangent_out[j] = j;
  if (nt > num_out || (nt < num_out && nfloat != nt)) {
    remat_error_add(err, "'@%s' has %d tangent arguments for %lld outputs", name, nt,
                    (long long)num_out);
    goto out;
  }
  rtr_interp_options ref = {.promote_f64 = false};
  if (rtr_interp_run(module, f, &o->run, in, nin, &J, &nj))
    goto out;
  ngrads = nj - (int)num_out;
  /* Buffers (rt.buffer: persistent state such as running statistics, which the importer
   * marks apart from parameters) have no gradient: without --wrt they are left out when
   * that makes the counts agree. */
  if (!wrt && ngrads != na && ngrads == na - nbuf) {
    int kept = 0;
    for (int k = 0; k < na; k++)
      if (!rt_func_arg_has_attr(f, args[k], "rt.buffer"))
        args[kept++] = args[k];
    na = kept;
  }
  if (ngrads != na) {
    char bufs[48] = "";
    if (!wrt && nbuf)
      snprintf(bufs, sizeof bufs, " (%d of them rt.buffer)", nbuf);
    remat_error_add(err,
                    "'@%s' returns %d gradients for %d floating-point "
                    "arguments%s; name them with --wrt (numbers or argument names)",
                    name, ngrads, na, bufs);
    goto out;
  }
  for (int g = 0; g < ngrads; g++)
    if (J[num_out + g]->numel != in[args[g]]->numel) {
      remat_error_add(err,
                      "gradient #%d does not have the shape of argument "
                      "#%d",
                      g, args[g]);
      goto out;
    }
  /* The same inputs widened exactly to f64, for the f64 forward. */
  P = xcalloc((size_t)nin + 1, sizeof *P);
  for (int k = 0; k < nin; k++) {
    P[k] = rtr_interp_buffer_for_type(
        mlirValueGetType(mlirBlockGetArgument(rt_func_entry_block(f), k)), true);
    if (!P[k]) {
      remat_error_add(err, "out of memory for the f64 copy of argument #%d", k);
      goto out;
    }
    rtr_convert(P[k], in[k], false);
  }
  elems = xcalloc((size_t)ngrads + 1, sizeof *elems);
  nelems = xcalloc((size_t)ngrads + 1, sizeof *nelems);
  long total = 0;
  for (int g = 0; g < ngrads; g++)
    total += nelems[g] = sample_elements(P[args[g]]->numel, o->fd_sample, args[g], &elems[g]);
  ref.promote_f64 = true;
  fprintf(o->report, "check-fd @%s (seed %llu): |grad - fd| <= %g + %g |fd|", name,
          (unsigned long long)o->seed, o->fd_atol, o->fd_rtol);
  if (o->fd_sample > 0)
    fprintf(o->report, "; at most %lld elements per argument", (long long)o->fd_sample);
  fputc('\n', o->report);
  fflush(o->report); /* each line as it comes: a long check shows where it is */
  int bad = 0;
  long checked = 0;
  double t0 = remat_now_ms() / 1e3;
  for (int g = 0; g < ngrads; g++) {
    rtr_buffer *x = P[args[g]];
    double max_abs = 0, max_rel = 0;
    int fails = 0;
    for (int64_t i = 0; i < nelems[g]; i++) {
      int64_t e = elems[g][i];
      double x0 = rtr_buffer_get_f(x, e), h = 1e-5 * fmax(1.0, fabs(x0)), lp, lm;
      rtr_buffer_set_f(x, e, x0 + h);
      if (loss_f64(module, f, &ref, P, nin, tangent_arg, tangent_out, nt, &lp))
        goto out;
      rtr_buffer_set_f(x, e, x0 - h);
      if (loss_f64(module, f, &ref, P, nin, tangent_arg, tangent_out, nt, &lm))
        goto out;
      rtr_buffer_set_f(x, e, x0);
      double fd = (lp - lm) / (2 * h), gv = rtr_buffer_get_f(J[num_out + g], e);
      double err = fabs(gv - fd);
      if (!(err <= o->fd_atol + o->fd_rtol * fabs(fd)))
        fails++;
      max_abs = fmax(max_abs, err);
      if (fd != 0)
        max_rel = fmax(max_rel, err / fabs(fd));
      checked++;
      fd_progress(o, false, g, ngrads, checked, total, t0, &last);
    }
    MlirStringRef an = arg_name(f, args[g]);
    fprintf(o->report, "  gradient #%d (argument #%d%s%.*s%s, ", g, args[g], an.length ? " '" : "",
            (int)an.length, an.data, an.length ? "'" : "");
    if (nelems[g] < x->numel)
      fprintf(o->report, "%lld of %lld elements", (long long)nelems[g], (long long)x->numel);
    else
      fprintf(o->report, "%lld elements", (long long)x->numel);
    fprintf(o->report, "): max abs error %.3g, max rel error %.3g: %s\n", max_abs, max_rel,
            fails ? "MISMATCH" : "ok");
    if (nelems[g] < x->numel) { /* which, so that a failure can be looked at again */
      fprintf(o->report, "    sampled elements:");
      for (int64_t i = 0; i < nelems[g]; i++)
        fprintf(o->report, " %lld", (long long)elems[g][i]);
      fputc('\n', o->report);
    }
    fflush(o->report);
    fd_progress(o, true, g, ngrads, checked, total, t0, &last);
    bad += fails > 0;
  }
  rc = 0;
  if (bad) {
    remat_error_add(err,
                    "%d of %d gradients of '@%s' disagree with finite "
                    "differences",
                    bad, ngrads, name);
    rc = 1;
  } else
    fprintf(o->report, "  %ld gradient elements agree with central differences\n", checked);
out:
  if (o->progress && o->progress_tty && last > 0) /* end the line rewritten in place */
    fputc('\n', o->progress);
  for (int g = 0; elems && g < ngrads; g++)
    free(elems[g]);
  free(elems);
  free(nelems);
  rtr_buffers_free(P, nin);
  rtr_buffers_free(in, nin);
  rtr_buffers_free(J, nj);
  free(tangent_arg);
  free(tangent_out);
  free(args);
  return rc;
}

/* ---- compiled against reference ----------------------------------------------------- */

int rtr_check_same(MlirOperation module, const char *name, const rtr_interp_options *compiled,
                   const rtr_check_options *o, int *values, char **err) {
  MlirOperation f = need_func(module, name, "the module", err);
  if (mlirOperationIsNull(f))
    return 2;
  int nin = 0, nr = 0, nc = 0, rc = 2;
  rtr_buffer **in = inputs_for(f, o, &nin, err), **R = NULL, **C = NULL;
  rtr_interp_options ref = {.promote_f64 = false};
  if (!in || rtr_interp_run(module, f, &ref, in, nin, &R, &nr) ||
      rtr_interp_run(module, f, compiled, in, nin, &C, &nc))
    goto out;
  if (!o->quiet)
    fprintf(o->report, "check-compiled @%s (seed %llu): %d results\n", name,
            (unsigned long long)o->seed, nr);
  int bad = 0;
  for (int k = 0; k < nr; k++)
    bad += compare_line(o, "result", k, R[k], C[k]);
  if (values)
    *values = nr;
  rc = 0;
  if (bad) {
    remat_error_add(err,
                    "compiled '@%s' differs from the reference "
                    "interpreter in %d of %d results",
                    name, bad, nr);
    rc = 1;
  }
out:
  rtr_buffers_free(in, nin);
  rtr_buffers_free(R, nr);
  rtr_buffers_free(C, nc);
  return rc;
}
