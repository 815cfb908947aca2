/* remat-run: runs a function of an rt module on the CPU or a GPU (--device=cuda), and
 * checks a split against its joint function, gradients against finite differences,
 * compiled code against the reference interpreter, the GPU against the CPU. Exit 0 on
 * success, 1 on any error or mismatch. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "report.h"
#include "check.h"
#include "collective.h"
#include "check_device.h"
#include "compiled.h"
#include "executor.h"
#include "interp.h"
#include "io.h"
#include "ranks.h"
#include "rt.h"
#ifdef REMAT_HAVE_MPI
#include "coll_mpi.h"
#endif
#ifdef REMAT_HAVE_CUDA
#include "cuda_exec.h"
#endif

static void usage(FILE *f) {
  fprintf(f, "usage: remat-run FILE --fn NAME [--seed N | --inputs FILE] [--reference]\n"
             "                 [--print=summary|full|none] [--outputs FILE]\n"
             "       remat-run JOINT --check-split NAME --split SPLIT [--seed N] [--max-ulp N]\n"
             "       remat-run JOINT --check-split-all --split SPLIT [--seed N]\n"
             "       remat-run FILE --check-compiled NAME [--seed N]\n"
             "       remat-run JOINT --check-fd NAME [--wrt I,J,...] [--fd-tol ATOL,RTOL]\n"
             "                 [--fd-sample N]\n"
             "       mpirun -np N remat-run FILE --fn NAME [--seed N | --inputs PATTERN]\n"
             "       mpirun -np N remat-run SHARDED --check-sharded NAME --unsharded FILE\n"
             "                 [--split SPLIT] [--seed N | --inputs PATTERN]\n"
             "       remat-run FILE --check-device NAME [--seed N] [--device-ulp N]\n"
             "       remat-run FILE --device=cuda --bench N --fn NAME [--fn NAME ...]\n"
             "       remat-run --device=cuda --device-info\n\n"
             "Runs function NAME of FILE on the CPU (or the GPU) and prints its results. Under\n"
             "mpirun every rank runs it on its own inputs and the collectives go through MPI.\n\n"
             "options (a value as --opt VALUE or --opt=VALUE):\n"
             "  --fn NAME            the function to run\n"
             "  --seed N             random inputs from seed N (default 0), drawn from\n"
             "                       --values; i1 0/1, integer scalars (seeds, offsets)\n"
             "                       full-width; an integer argument with\n"
             "                       rt.range = array<i64: LO, HI> in [LO, HI)\n"
             "  --values DIST        unit (default): floats uniform in [-1,1), integer\n"
             "                       tensors in [-8,8); wide: every finite magnitude of the\n"
             "                       type (subnormals too), integers over their range;\n"
             "                       special: half signed zeros, inf, NaN, extremes, values\n"
             "                       near exp's overflow, near 0 and 1, the rest wide\n"
             "  --inputs FILE        inputs in the text format (one 'TYPE values...' per\n"
             "                       argument; see docs/design.md, Runtime)\n"
             "  --reference          run every op with the reference interpreter (default:\n"
             "                       kernels and reductions compiled for the host by the\n"
             "                       codegen and JIT-compiled, other ops in the C runtime)\n"
             "  --check-compiled NAME  run NAME compiled and with --reference on the same\n"
             "                       inputs; exit 1 unless every result is bit-identical\n"
             "  --check-compiled-all the same for every function that is not a kernel\n"
             "  --jit-opt 0|3        optimization of the compiled kernels (default 3; 0\n"
             "                       compiles much faster, same bits)\n"
             "  -j N                 compile the kernels on N threads (default: one per\n"
             "                       core; the same code whatever N)\n"
             "  --cache-dir=DIR      reuse kernels compiled before from the cache in DIR, as\n"
             "                       remat-translate does (default: $REMAT_CACHE_DIR, else\n"
             "                       no cache)\n"
             "  --no-cache           no cache, even with $REMAT_CACHE_DIR set\n"
             "  --jit-stats          print functions, threads and cache results to stderr\n"
             "  --print=MODE         summary (default: type, sum, min, max, hash), full (every\n"
             "                       value, in the inputs format) or none\n"
             "  --outputs FILE       also write the results to FILE in the inputs format\n"
             "  --check-split NAME   run NAME of JOINT and NAME_fwd/NAME_bwd of SPLIT on the\n"
             "                       same inputs (primals, tangents from the seed); compare\n"
             "                       every output and gradient, and every random tensor the\n"
             "                       backward recomputes; exit 1 on a mismatch\n"
             "  --check-split-all    --check-split for every joint function (rt.num_outputs)\n"
             "                       of JOINT; prints the totals only\n"
             "  --split FILE         the split module (remat-opt --remat-mincut output)\n"
             "  --max-ulp N          accept differences up to N ulp (default 0: bit-exact)\n"
             "  --check-fd NAME      gradients of the joint function NAME against central\n"
             "                       differences of its forward run in f64\n"
             "  --wrt I,J,...        the arguments the gradients belong to, by number or by\n"
             "                       name (name location); default: every floating-point\n"
             "                       tensor argument that is not a tangent, without the\n"
             "                       rt.buffer ones when the gradients are that many\n"
             "  --fd-tol ATOL,RTOL   |grad - fd| <= ATOL + RTOL |fd| (default 1e-4,1e-3)\n"
             "  --fd-sample N        check N elements of each argument, chosen the same way\n"
             "                       on every run and listed (default: every element);\n"
             "                       progress goes to stderr\n"
             "  --check-sharded NAME (under mpirun -np N) run the joint function NAME of\n"
             "                       FILE sharded on the N ranks, and NAME of --unsharded\n"
             "                       on rank 0 on the concatenated shards; outputs must be\n"
             "                       equal, each rank's gradient shard the matching slice;\n"
             "                       with --split, NAME_fwd/NAME_bwd of SPLIT too; reports\n"
             "                       collectives per run, bytes and time per rank\n"
             "  --unsharded FILE     the same model with whole parameters\n"
             "  --repeat N           run the sharded functions N times; report the fastest\n"
             "  --inputs PATTERN     under mpirun, '%%r' in the file name is the rank\n"
             "  --outputs PATTERN    likewise; without '%%r' only rank 0 writes\n"
             "  --quiet              print only mismatches and the final line\n"
             "  --peak               with --fn or --check-split: measure the peak of live\n"
             "                       buffer bytes, each buffer freed after its last use\n"
             "                       (the conventions of remat-opt's peak estimate)\n"
             "  --dense-views        compiled: transposes, slices and broadcasts make dense\n"
             "                       copies, as --reference does, instead of host views\n"
             "  --device=cpu|cuda    where --fn runs (default cpu); cuda: kernels and\n"
             "                       reductions as PTX through the CUDA driver, rt.matmul\n"
             "                       through cuBLAS, other ops on the host (docs/design.md,\n"
             "                       \"CUDA backend\")\n"
             "  --check-device NAME  run NAME (or NAME_fwd then NAME_bwd) on the GPU and\n"
             "                       recompute every op on the CPU from the same operands:\n"
             "                       exact ops bit-identical, libm/libdevice kernels within\n"
             "                       --device-ulp, cuBLAS within (2Ku + 2u_out) sum|a||b|,\n"
             "                       every random tensor bit-identical; exit 1 otherwise\n"
             "  --device-ulp N       the ulp bound of kernels calling libm/libdevice functions\n"
             "                       (default 64, at max(|x|, 1))\n"
             "  --bench N            run each --fn N times on the GPU (after one warm-up),\n"
             "                       interleaved, timing every launch; print a table of\n"
             "                       device times and bandwidth\n"
             "  --peak-gbs X         the device's peak memory bandwidth for --bench (default:\n"
             "                       from its memory clock and bus width)\n"
             "  --sm N               PTX target for --device=cuda (default: the device's)\n"
             "  --device-info        describe the GPU, or fail when there is none\n"
             "  --help               this text\n");
}

typedef struct options {
  const char *file, *fn, *inputs, *outputs, *split, *check_split, *check_fd, *wrt;
  const char *check_compiled, *check_sharded, *unsharded;
  const char *print;
  const char *device, *check_device;
  const char *fns[64];
  int nfns, bench, sm;
  double peak_gbs;
  unsigned long long device_ulp;
  bool device_info;
  unsigned long long seed;
  rtr_values values;
  long long max_ulp;
  int jit_opt, repeat;
  int jit_jobs;          /* 0: one per core */
  const char *cache_dir; /* NULL: no cache */
  bool no_cache, jit_stats;
  double atol, rtol;
  bool reference, quiet, split_all, peak, dense_views;
  bool fd_tol, print_set, max_ulp_set, jit_opt_set; /* given on the command line */
  long long fd_sample;                              /* --fd-sample N; 0: every element */
} options;

/* Prints the lines of a library's error message (remat_error_add) and frees it. A line that
 * is already a located diagnostic ("FILE:LINE:COL: error: ...", the --inputs reader's)
 * is printed as it is; the others get the tool's prefix, then WHAT (what failed, such as
 * "--device=cuda: "; "" for nothing). */
static void print_errors_of(const char *what, char *err) {
  for (char *line = err, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    if (strstr(line, ": error: "))
      fprintf(stderr, "%s\n", line);
    else
      fprintf(stderr, "remat-run: error: %s%s\n", what, line);
  }
  free(err);
}

static void print_errors(char *err) { print_errors_of("", err); }

/* rtr_ranks_agree, its messages printed: 0 when every rank of C is ready. */
static int ranks_agree(rtr_coll *c, int mine, const char *what) {
  char *err = NULL;
  int rc = rtr_ranks_agree(c, mine, what, &err);
  print_errors(err);
  return rc;
}

static MlirModule parse(MlirContext ctx, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "remat-run: error: cannot read '%s': %s\n", path, strerror(errno));
    return (MlirModule){NULL};
  }
  fclose(f);
  MlirModule m = rematParseFile(ctx, path);
  if (mlirModuleIsNull(m))
    return m;
  /* rtr_check_sizes: every tensor within the runtime's limit before anything is allocated;
   * rtr_check_no_extern: no op that remat does not model, on any executor */
  if (mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(m))) ||
      rtr_check_sizes(mlirModuleGetOperation(m)) ||
      rtr_check_no_extern(mlirModuleGetOperation(m))) {
    mlirModuleDestroy(m);
    return (MlirModule){NULL};
  }
  return m;
}

/* Writes the results to PATH (or, on ranks, to PATH with %r expanded; a path without %r
 * is written by rank 0 only). */
static int write_outputs(const char *pattern, rtr_buffer *const *out, int nout, rtr_coll *c) {
  int rank = c ? c->rank : 0;
  if (c && c->size > 1 && rank != 0 && !strstr(pattern, "%r"))
    return 0;
  char *path = rtr_rank_path(pattern, rank);
  int rc = 0;
  FILE *w = fopen(path, "w");
  if (!w) {
    fprintf(stderr, "remat-run: error: cannot write '%s': %s\n", path, strerror(errno));
    rc = 1;
  } else {
    for (int k = 0; k < nout; k++)
      rtr_buffer_write_text(w, out[k]);
    int bad = fflush(w) != 0; /* every write checked: a full disk shows at any of these */
    bad |= ferror(w) != 0;
    bad |= fclose(w) != 0;
    if (bad) {
      fprintf(stderr, "remat-run: error: cannot write '%s'\n", path);
      rc = 1;
    }
  }
  free(path);
  return rc;
}

/* --fn: on one process, or on every rank of C (each with its inputs: the %r of --inputs,
 * or the seed's per-rank shards). The ranks agree that all are ready before any of them
 * communicates; a failure after that ends the job. */
static int run_fn(MlirOperation module, const options *o, const rtr_interp_options *run,
                  rtr_coll *c) {
  MlirOperation f = rtr_interp_lookup(module, o->fn);
  int nin = 0, nout = 0, rank = c ? c->rank : 0, ready = -1;
  rtr_buffer **in = NULL;
  if (mlirOperationIsNull(f))
    fprintf(stderr, "remat-run: error: no function '@%s' in %s\n", o->fn, o->file);
  else if (c && rtr_check_groups(module, c))
    ;
  else {
    char *err = NULL;
    if (o->inputs) {
      char *path = rtr_rank_path(o->inputs, rank);
      in = rtr_inputs_read(f, path, &nin, &err);
      free(path);
    } else
      in = rtr_inputs_random_rank(f, o->seed, o->values, rank, &nin, &err);
    print_errors(err);
  }
  if (in)
    ready = 0;
  if (c ? ranks_agree(c, ready, "not running") : ready) {
    rtr_buffers_free(in, nin);
    return 1;
  }
  rtr_buffer **out = NULL;
  rtr_interp_options ro = *run;
  rtr_peak pk = {0};
  ro.coll = c;
  ro.peak = o->peak ? &pk : NULL;
  int rc = rtr_interp_run(module, f, &ro, in, nin, &out, &nout) ? 1 : 0;
  if (rc && c && c->size > 1) { /* other ranks may wait in a collective for this one */
    fprintf(stderr, "remat-run: error: rank %d: the run failed; aborting every rank\n", rank);
    c->abort(c, 1);
  }
  char prefix[32] = "";
  if (c && c->size > 1)
    snprintf(prefix, sizeof prefix, "rank %d: ", rank);
  if (!rc) {
    for (int k = 0; k < nout; k++) {
      if (!strcmp(o->print, "full")) {
        printf("%sresult #%d: ", prefix, k);
        rtr_buffer_write_text(stdout, out[k]);
      } else if (!strcmp(o->print, "summary")) {
        printf("%sresult #%d: ", prefix, k);
        rtr_buffer_write_summary(stdout, out[k]);
        putchar('\n');
      }
    }
    if (c && strcmp(o->print, "none"))
      printf("%scollectives: all_gather %ld, reduce_scatter %ld, all_reduce %ld; sent %llu "
             "B, received %llu B (%s, %d rank%s)\n",
             prefix, c->stats.started[RTR_COLL_ALL_GATHER],
             c->stats.started[RTR_COLL_REDUCE_SCATTER], c->stats.started[RTR_COLL_ALL_REDUCE],
             (unsigned long long)c->stats.bytes_sent, (unsigned long long)c->stats.bytes_received,
             c->name, c->size, c->size == 1 ? "" : "s");
    if (o->peak) {
      char loc[256] = "";
      MlirStringRef n = {"-", 1};
      if (!mlirOperationIsNull(pk.at)) {
        n = mlirIdentifierStr(mlirOperationGetName(pk.at));
        remat_report_loc(mlirOperationGetLocation(pk.at), loc, sizeof loc);
      }
      printf("%speak live bytes: %llu (%ld ops; at %.*s %s; %s)\n", prefix,
             (unsigned long long)pk.peak, pk.ops, (int)n.length, n.data, loc,
             ro.call_kernel || ro.host_op ? "compiled" : "reference");
    }
    if (o->outputs && write_outputs(o->outputs, out, nout, c))
      rc = 1;
  }
  rtr_buffers_free(in, nin);
  rtr_buffers_free(out, nout);
  return rc;
}

/* ", N host views read in place (M copied)" when the compiled runtime made any. */
static void print_views(const rtr_compiled *c) {
  long copies = 0, views = c ? rtr_compiled_views(c, &copies) : 0;
  if (views)
    printf(", %ld host views read in place (%ld copied)", views, copies);
}

/* --check-split NAME, or every joint function of the module for --check-split-all. */
static int check_splits(MlirOperation joint, MlirOperation split, const options *o,
                        const rtr_check_options *co, rtr_split_stats *st, const rtr_compiled *c) {
  if (!o->split_all) {
    char *err = NULL;
    int rc = rtr_check_split(joint, split, o->check_split, co, st, &err) ? 1 : 0;
    print_errors(err);
    if (!rc) {
      printf("ok: %ld values bit-exact%s, %ld ops executed", st->values,
             o->max_ulp ? " or within tolerance" : "", st->ops);
      if (c && rtr_compiled_launches(c))
        printf(", %ld compiled kernel and reduction launches", rtr_compiled_launches(c));
      print_views(c);
      putchar('\n');
    }
    return rc;
  }
  long graphs = 0, failed = 0, joint_failed = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(joint, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    int64_t n;
    if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(f)), "func.func") ||
        !rt_func_num_outputs(f, &n))
      continue;
    MlirStringRef name = rt_func_name(f);
    char *fn = xstrndup(name.data, name.length), *err = NULL;
    graphs++;
    int rc = rtr_check_split(joint, split, fn, co, st, &err);
    joint_failed += rc == 3;
    failed += rc != 0 && rc != 3;
    print_errors(err);
    free(fn);
  }
  printf("check-split-all: %ld joint functions, %ld ops executed, %ld values compared, %ld "
         "random tensors recomputed in backwards, %ld compiled launches\n",
         graphs, st->ops, st->values, st->random, c ? rtr_compiled_launches(c) : 0L);
  if (joint_failed)
    fprintf(stderr,
            "remat-run: error: the joint function fails on these inputs: %ld of %ld joint "
            "functions, their splits not compared\n",
            joint_failed, graphs);
  if (failed)
    fprintf(stderr, "remat-run: error: %ld of %ld splits differ from their joint function\n",
            failed, graphs);
  if (failed || joint_failed)
    return 1;
  if (!graphs) {
    fprintf(stderr, "remat-run: error: no joint function (rt.num_outputs) in %s\n", o->file);
    return 1;
  }
  printf("ok: every split matches its joint function bit for bit%s\n",
         o->max_ulp ? " or within tolerance" : "");
  return 0;
}

/* --check-compiled NAME, or every function that is not a kernel for
 * --check-compiled-all. */
static int check_compiled(MlirOperation module, const options *o, const rtr_check_options *co,
                          const rtr_compiled *c) {
  long funcs = 0, failed = 0, values = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(f)), "func.func"))
      continue;
    MlirStringRef name = rt_func_name(f);
    char *fn = xstrndup(name.data, name.length), *err = NULL;
    bool kernel = rt_func_is_kernel(f);
    if (o->split_all ? kernel || mlirBlockIsNull(rt_func_entry_block(f))
                     : strcmp(fn, o->check_compiled)) {
      free(fn);
      continue;
    }
    int v = 0;
    funcs++;
    failed += rtr_check_same(module, fn, &co->run, co, &v, &err) != 0;
    print_errors(err);
    free(fn);
    values += v;
  }
  if (!funcs) {
    fprintf(stderr, "remat-run: error: no function '@%s' in %s\n",
            o->split_all ? "(any)" : o->check_compiled, o->file);
    return 1;
  }
  if (failed) {
    fprintf(stderr,
            "remat-run: error: %ld of %ld functions differ between compiled and "
            "reference runs\n",
            failed, funcs);
    return 1;
  }
  printf("ok: %ld functions, %ld results bit-exact, %ld compiled kernel and reduction "
         "launches",
         funcs, values, rtr_compiled_launches(c));
  print_views(c);
  putchar('\n');
  return 0;
}

/* The options that run functions of M: the reference interpreter, or M compiled (*c,
 * destroyed by the caller). -1 when compilation fails (reported). */
static int executor(MlirOperation m, const char *file, const options *o, rtr_compiled **c,
                    rtr_interp_options *run) {
  *c = NULL;
  *run = (rtr_interp_options){.promote_f64 = false};
  if (o->reference)
    return 0;
  char *err = NULL;
  *c = rtr_compiled_create(m, o->jit_opt, o->jit_jobs, o->cache_dir, &err);
  if (!*c) {
    char *what = xasprintf("cannot compile %s: ", file);
    print_errors_of(what, err);
    free(what);
    return -1;
  }
  if (o->jit_stats) {
    const remat_codegen_stats *st = rtr_compiled_stats(*c);
    fprintf(stderr,
            "remat-run: %d functions compiled on %d threads; cache: %s%d hits, %d misses, "
            "%d corrupt entries rebuilt\n",
            st->units, st->jobs, o->cache_dir ? "" : "off, ", st->cache_hits, st->cache_misses,
            st->cache_corrupt);
  }
  *run = rtr_compiled_options(*c);
  if (o->dense_views)
    run->lazy_views = false;
  return 0;
}

#ifdef REMAT_HAVE_CUDA
/* --device=cuda --fn: the function through the executor EX (one process; the inputs
 * and outputs in the CPU's text format). */
static int run_fn_device(MlirOperation module, const options *o, rtr_executor *ex) {
  MlirOperation f = rtr_interp_lookup(module, o->fn);
  if (mlirOperationIsNull(f)) {
    fprintf(stderr, "remat-run: error: no function '@%s' in %s\n", o->fn, o->file);
    return 1;
  }
  int nin = 0, nout = 0;
  char *err = NULL;
  rtr_buffer **in = o->inputs ? rtr_inputs_read(f, o->inputs, &nin, &err)
                              : rtr_inputs_random(f, o->seed, o->values, &nin, &err);
  if (!in) {
    print_errors(err);
    return 1;
  }
  rtr_buffer **out = NULL;
  char *xerr = NULL;
  int rc = rtr_executor_run(ex, f, in, nin, NULL, &out, &nout, &xerr) ? 1 : 0;
  char *what = xasprintf("--device=%s: ", ex->device);
  print_errors_of(what, xerr);
  free(what);
  if (!rc) {
    for (int k = 0; k < nout; k++) {
      if (!strcmp(o->print, "full")) {
        printf("result #%d: ", k);
        rtr_buffer_write_text(stdout, out[k]);
      } else if (!strcmp(o->print, "summary")) {
        printf("result #%d: ", k);
        rtr_buffer_write_summary(stdout, out[k]);
        putchar('\n');
      }
    }
    if (o->outputs && write_outputs(o->outputs, out, nout, NULL))
      rc = 1;
  }
  rtr_buffers_free(in, nin);
  rtr_buffers_free(out, nout);
  return rc;
}

static double median(double *v, int n) {
  for (int i = 1; i < n; i++) /* insertion sort: n is small */
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

static double device_ms(rtr_executor *ex) {
  int n = 0;
  const rtr_exec_stat *s = ex->stats(ex, &n);
  double ms = 0;
  for (int k = 0; k < n; k++)
    ms += s[k].ms;
  return ms;
}

/* --bench N: each --fn N times, interleaved, after one warm-up run each; prints the
 * device time of each function and a table of its launches (markdown, for
 * bench/RESULTS.md). */
static int bench(MlirOperation module, const options *o, rtr_executor *ex) {
  MlirOperation f[64];
  rtr_buffer **in[64] = {NULL};
  int nin[64] = {0}, rc = 0;
  double *t = xcalloc((size_t)o->nfns * (size_t)o->bench + 1, sizeof *t);
  char *ierr = NULL;
  for (int k = 0; k < o->nfns && !rc; k++) {
    f[k] = rtr_interp_lookup(module, o->fns[k]);
    if (mlirOperationIsNull(f[k])) {
      fprintf(stderr, "remat-run: error: no function '@%s' in %s\n", o->fns[k], o->file);
      rc = 1;
    } else if (!(in[k] = rtr_inputs_random(f[k], o->seed, o->values, &nin[k], &ierr))) {
      print_errors(ierr);
      rc = 1;
    }
  }
  for (int r = -1; r < o->bench && !rc; r++)
    for (int k = 0; k < o->nfns && !rc; k++) {
      rtr_buffer **out = NULL;
      int nout = 0;
      double before = device_ms(ex);
      char *err = NULL;
      if (rtr_executor_run(ex, f[k], in[k], nin[k], NULL, &out, &nout, &err))
        rc = 1;
      print_errors_of("--device=cuda: ", err);
      rtr_buffers_free(out, nout);
      if (r < 0 && k == o->nfns - 1)
        ex->reset_stats(ex); /* the warm-up runs are not counted */
      else if (r >= 0)
        t[k * o->bench + r] = device_ms(ex) - before;
    }
  double peak = o->peak_gbs > 0 ? o->peak_gbs : rtr_cuda_peak_gbs(ex);
  if (!rc) {
    for (int k = 0; k < o->nfns; k++)
      printf("bench @%s: %d runs, median device time %.4f ms\n", o->fns[k], o->bench,
             median(t + k * o->bench, o->bench));
    printf("\n| device function | what | launches | bytes per launch | best ms | mean ms | "
           "GB/s (best) | of peak %.0f GB/s |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
           peak);
    int n = 0;
    const rtr_exec_stat *s = ex->stats(ex, &n);
    for (int k = 0; k < n; k++) {
      double gbs = s[k].ms_min > 0 ? (double)s[k].bytes / (s[k].ms_min * 1e6) : 0;
      printf("| `%s` | %s | %ld | %lld | %.4f | %.4f | %.1f | %.1f%% |\n", s[k].name, s[k].what,
             s[k].launches, (long long)s[k].bytes, s[k].ms_min,
             s[k].launches ? s[k].ms / (double)s[k].launches : 0, gbs,
             peak > 0 ? 100 * gbs / peak : 0);
    }
  }
  for (int k = 0; k < o->nfns; k++)
    rtr_buffers_free(in[k], nin[k]);
  free(t);
  return rc;
}
#endif

/* --device=cuda, --check-device, --bench, --device-info. */
static int run_device(MlirContext ctx, const options *o) {
#ifdef REMAT_HAVE_CUDA
  char *err = NULL, line[512];
  if (o->device_info) {
    if (rtr_cuda_describe(0, line, sizeof line, &err)) {
      print_errors_of("--device=cuda: ", err);
      return 1;
    }
    printf("%s\n", line);
    return 0;
  }
  MlirModule m = parse(ctx, o->file);
  if (mlirModuleIsNull(m))
    return 1;
  MlirOperation top = mlirModuleGetOperation(m);
  rtr_cuda_options co = {0, o->sm, o->jit_opt, o->bench > 0, o->check_device != NULL};
  rtr_executor *ex = rtr_cuda_create(top, &co, &err);
  rtr_compiled *c = NULL;
  int rc = 1;
  if (!ex)
    print_errors_of("--device=cuda: ", err);
  else if (o->check_device) {
    char *cerr = NULL;
    if (!(c = rtr_compiled_create(top, o->jit_opt, o->jit_jobs, o->cache_dir, &cerr))) {
      char *what = xasprintf("cannot compile %s for the CPU: ", o->file);
      print_errors_of(what, cerr);
      free(what);
    } else {
      rtr_interp_options cpu = rtr_compiled_options(c);
      rtr_device_check_options dco = {o->seed, o->inputs, o->device_ulp,
                                      stdout,  o->quiet,  o->values};
      rc = rtr_check_device(top, o->check_device, ex, &cpu, &dco, &err);
      if (rc == 2)
        print_errors_of("--check-device: ", err);
      else if (rc == 1)
        fprintf(stderr,
                "remat-run: error: --check-device: '@%s' on the GPU differs from "
                "the CPU\n",
                o->check_device);
      rc = rc ? 1 : 0;
    }
  } else if (o->bench)
    rc = bench(top, o, ex);
  else
    rc = run_fn_device(top, o, ex);
  rtr_compiled_destroy(c);
  rtr_executor_destroy(ex);
  mlirModuleDestroy(m);
  return rc;
#else
  (void)ctx;
  (void)o;
  fprintf(stderr, "remat-run: error: --device=cuda: this remat-run was built without the "
                  "CUDA toolkit (no cuda.h and cublas_v2.h at configure time)\n");
  return 1;
#endif
}

/* --check-sharded NAME on the ranks of C: the three modules are read and compiled on
 * every rank, and the ranks agree that all could before the check starts. */
static int check_sharded(MlirContext ctx, const options *o, rtr_coll *c) {
  MlirModule m = parse(ctx, o->file), u = {NULL}, s = {NULL};
  rtr_compiled *cj = NULL, *cs = NULL;
  rtr_sharded_check sc = {.name = o->check_sharded, .coll = c, .repeat = o->repeat};
  rtr_check_options co = {o->seed, o->inputs, o->max_ulp, {.promote_f64 = false},
                          o->atol, o->rtol,   stdout,     o->quiet,
                          o->peak, o->values, 0,          NULL,
                          false};
  int ready = -1, rc = 1;
  if (!mlirModuleIsNull(m) && !mlirModuleIsNull(u = parse(ctx, o->unsharded)) &&
      (!o->split || !mlirModuleIsNull(s = parse(ctx, o->split))) &&
      executor(mlirModuleGetOperation(m), o->file, o, &cj, &sc.joint_run) == 0 &&
      (!o->split || executor(mlirModuleGetOperation(s), o->split, o, &cs, &sc.split_run) == 0))
    ready = 0;
  if (!ranks_agree(c, ready, "not checking")) {
    sc.sharded = mlirModuleGetOperation(m);
    sc.unsharded = mlirModuleGetOperation(u);
    sc.split = o->split ? mlirModuleGetOperation(s) : (MlirOperation){NULL};
    char *err = NULL;
    int verdict = rtr_check_sharded(&sc, &co, &err);
    print_errors(err);
    if (verdict == 3) /* failed while the ranks communicate: others may wait in one */
      c->abort(c, 1);
    rc = verdict ? 1 : 0;
  }
  rtr_compiled_destroy(cs);
  rtr_compiled_destroy(cj);
  if (!mlirModuleIsNull(s))
    mlirModuleDestroy(s);
  if (!mlirModuleIsNull(u))
    mlirModuleDestroy(u);
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);
  return rc;
}

/* C: the ranks of an MPI run (NULL in a single process). */
static int run(MlirContext ctx, const options *o, rtr_coll *rk) {
  if (o->check_sharded)
    return check_sharded(ctx, o, rk);
  MlirModule m = parse(ctx, o->file), s = {NULL};
  if (mlirModuleIsNull(m)) {
    if (rk)
      ranks_agree(rk, -1, "not running");
    return 1;
  }
  MlirOperation top = mlirModuleGetOperation(m);
  if (o->check_split) {
    s = parse(ctx, o->split);
    if (mlirModuleIsNull(s)) {
      mlirModuleDestroy(m);
      return 1;
    }
  }
  /* The functions under test run compiled unless --reference: the split's for
   * --check-split, the file's otherwise. */
  rtr_compiled *c = NULL;
  rtr_check_options co = {o->seed, o->inputs, o->max_ulp, {.promote_f64 = false},
                          o->atol, o->rtol,   stdout,     o->quiet,
                          o->peak, o->values, 0,          NULL,
                          false};
  int rc = 1;
  if (executor(o->check_split ? mlirModuleGetOperation(s) : top,
               o->check_split ? o->split : o->file, o, &c, &co.run) != 0) {
    if (rk)
      ranks_agree(rk, -1, "not running");
  } else {
    if (o->check_split) {
      rtr_split_stats st = {0, 0, 0};
      rc = check_splits(top, mlirModuleGetOperation(s), o, &co, &st, c);
    } else if (o->check_fd) {
      /* Minutes on a real model: progress on stderr, in place on a terminal. */
      co.fd_sample = o->fd_sample;
      co.progress = stderr;
      co.progress_tty = isatty(fileno(stderr));
      char *err = NULL;
      rc = rtr_check_fd(top, o->check_fd, o->wrt, &co, &err) ? 1 : 0;
      print_errors(err);
    } else if (o->check_compiled) {
      if (o->reference)
        fprintf(stderr, "remat-run: error: --check-compiled compares against --reference; "
                        "do not pass both\n");
      else
        rc = check_compiled(top, o, &co, c);
    } else
      rc = run_fn(top, o, &co.run, rk);
  }
  rtr_compiled_destroy(c);
  if (!mlirModuleIsNull(s))
    mlirModuleDestroy(s);
  mlirModuleDestroy(m);
  return rc;
}

int main(int argc, char **argv) {
  options o = {0};
  o.print = "summary";
  o.jit_opt = 3;
  o.atol = 1e-4;
  o.rtol = 1e-3;
  cli_prog = "remat-run";
  int files = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val;
    unsigned long long u;
#define VALUE(flag) cli_value(argc, argv, &i, flag, &val)
    if (VALUE("--device")) {
      o.device = val;
      if (strcmp(o.device, "cpu") && strcmp(o.device, "cuda")) {
        fprintf(stderr, "remat-run: error: --device expects cpu or cuda\n");
        return 1;
      }
    } else if (VALUE("--check-device"))
      o.check_device = val;
    else if (cli_flag(a, "--device-info"))
      o.device_info = true;
    else if (VALUE("--bench")) {
      if (!cli_u64(val, &u) || u < 1 || u > 100000) {
        fprintf(stderr, "remat-run: error: --bench expects a number of runs (1 to 100000)\n");
        return 1;
      }
      o.bench = (int)u;
    } else if (VALUE("--sm")) {
      if (!cli_u64(val, &u) || u > 1000) {
        fprintf(stderr, "remat-run: error: --sm expects a compute capability such as 90\n");
        return 1;
      }
      o.sm = (int)u;
    } else if (VALUE("--device-ulp")) {
      if (!cli_u64(val, &o.device_ulp) || !o.device_ulp) {
        fprintf(stderr, "remat-run: error: --device-ulp expects a positive integer\n");
        return 1;
      }
    } else if (VALUE("--peak-gbs")) {
      char *end;
      o.peak_gbs = strtod(val, &end);
      if (*end || !(o.peak_gbs > 0)) {
        fprintf(stderr, "remat-run: error: --peak-gbs expects a bandwidth in GB/s\n");
        return 1;
      }
    } else if (cli_flag(a, "--help") || cli_flag(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (VALUE("--fn")) {
      if (o.nfns == (int)(sizeof o.fns / sizeof *o.fns)) {
        fprintf(stderr, "remat-run: error: too many --fn\n");
        return 1;
      }
      o.fn = o.fn ? o.fn : val;
      o.fns[o.nfns++] = val;
    } else if (VALUE("--seed")) {
      if (!cli_u64(val, &o.seed)) {
        fprintf(stderr, "remat-run: error: --seed expects a non-negative integer\n");
        return 1;
      }
    } else if (VALUE("--values")) {
      if (!rtr_values_parse(val, &o.values)) {
        fprintf(stderr, "remat-run: error: --values expects unit, wide or special\n");
        return 1;
      }
    } else if (VALUE("--inputs"))
      o.inputs = val;
    else if (VALUE("--outputs"))
      o.outputs = val;
    else if (VALUE("--check-split"))
      o.check_split = val;
    else if (VALUE("--split"))
      o.split = val;
    else if (VALUE("--check-fd"))
      o.check_fd = val;
    else if (VALUE("--check-sharded"))
      o.check_sharded = val;
    else if (VALUE("--unsharded"))
      o.unsharded = val;
    else if (VALUE("--repeat")) {
      if (!cli_u64(val, &u) || u < 1 || u > 1000000) {
        fprintf(stderr, "remat-run: error: --repeat expects a count from 1 to 1000000\n");
        return 1;
      }
      o.repeat = (int)u;
    } else if (VALUE("--jit-opt")) {
      if (strcmp(val, "0") && strcmp(val, "3")) {
        fprintf(stderr, "remat-run: error: --jit-opt expects 0 or 3\n");
        return 1;
      }
      o.jit_opt = atoi(val);
      o.jit_opt_set = true;
    } else if (VALUE("-j")) {
      if (!cli_u64(val, &u) || u < 1 || u > 1024) {
        fprintf(stderr, "remat-run: error: -j expects a number of threads from 1 to 1024\n");
        return 1;
      }
      o.jit_jobs = (int)u;
    } else if (VALUE("--check-compiled"))
      o.check_compiled = val;
    else if (VALUE("--wrt"))
      o.wrt = val;
    else if (VALUE("--max-ulp")) {
      if (!cli_u64(val, &u) || u > INT64_MAX) {
        fprintf(stderr, "remat-run: error: --max-ulp expects a non-negative integer\n");
        return 1;
      }
      o.max_ulp = (long long)u;
      o.max_ulp_set = true;
    } else if (VALUE("--fd-sample")) {
      if (!cli_u64(val, &u) || u == 0 || u > INT64_MAX) {
        fprintf(stderr, "remat-run: error: --fd-sample expects a positive number of "
                        "elements\n");
        return 1;
      }
      o.fd_sample = (long long)u;
    } else if (VALUE("--fd-tol")) {
      char *end;
      o.atol = strtod(val, &end);
      o.rtol = *end == ',' ? strtod(end + 1, &end) : -1;
      if (*end || !(o.atol >= 0) || !(o.rtol >= 0) || !isfinite(o.atol) || !isfinite(o.rtol)) {
        fprintf(stderr, "remat-run: error: --fd-tol expects ATOL,RTOL\n");
        return 1;
      }
      o.fd_tol = true;
    } else if (cli_flag(a, "--reference"))
      o.reference = true;
    else if (cli_flag(a, "--check-compiled-all"))
      o.split_all = true, o.quiet = true, o.check_compiled = "*";
    else if (cli_flag(a, "--check-split-all"))
      o.split_all = true, o.quiet = true, o.check_split = "*";
    else if (cli_flag(a, "--quiet"))
      o.quiet = true;
    else if (cli_flag(a, "--peak"))
      o.peak = true;
    else if (cli_flag(a, "--dense-views"))
      o.dense_views = true;
    else if (VALUE("--cache-dir"))
      o.cache_dir = val;
    else if (cli_flag(a, "--no-cache"))
      o.no_cache = true;
    else if (cli_flag(a, "--jit-stats"))
      o.jit_stats = true;
    else if (VALUE("--print")) {
      o.print = val;
      o.print_set = true;
      if (strcmp(o.print, "summary") && strcmp(o.print, "full") && strcmp(o.print, "none")) {
        fprintf(stderr, "remat-run: error: --print expects summary, full or none\n");
        return 1;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "remat-run: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else {
      o.file = a;
      files++;
    }
#undef VALUE
  }
  cli_check_cache_dir(o.no_cache ? NULL : o.cache_dir, "--cache-dir");
  if (!o.cache_dir && getenv("REMAT_CACHE_DIR") && *getenv("REMAT_CACHE_DIR")) {
    o.cache_dir = getenv("REMAT_CACHE_DIR");
    cli_check_cache_dir(o.no_cache ? NULL : o.cache_dir, "$REMAT_CACHE_DIR");
  }
  if (o.no_cache)
    o.cache_dir = NULL;
  bool cuda = o.device && !strcmp(o.device, "cuda");
  int modes = !!o.fn + !!o.check_split + !!o.check_fd + !!o.check_compiled + !!o.check_sharded +
              !!o.check_device;
  if (o.device_info && !cuda) {
    fprintf(stderr, "remat-run: error: --device-info needs --device=cuda\n");
    return 1;
  }
  if (o.bench && (!cuda || !o.fn || modes != 1)) {
    fprintf(stderr, "remat-run: error: --bench needs --device=cuda and --fn NAME\n");
    return 1;
  }
  if (o.nfns > 1 && !o.bench) {
    fprintf(stderr, "remat-run: error: several --fn need --bench\n");
    return 1;
  }
  if (cuda && (o.check_split || o.check_fd || o.check_compiled || o.check_sharded || o.reference)) {
    fprintf(stderr, "remat-run: error: --device=cuda runs --fn, --check-device and --bench; "
                    "the other checks run on the CPU\n");
    return 1;
  }
  if (o.device && !cuda && (o.check_device || o.bench)) {
    fprintf(stderr, "remat-run: error: --check-device and --bench run on --device=cuda\n");
    return 1;
  }
  if (!o.device_info && (files != 1 || modes != 1)) {
    fprintf(stderr, "remat-run: error: expected one input file and one of --fn, "
                    "--check-split, --check-split-all, --check-fd, --check-compiled, "
                    "--check-sharded, --check-device (see --help)\n");
    return 1;
  }
  if (o.check_sharded && !o.unsharded) {
    fprintf(stderr, "remat-run: error: --check-sharded needs --unsharded FILE\n");
    return 1;
  }
  if (o.check_split && !o.split && !o.check_sharded) {
    fprintf(stderr, "remat-run: error: --check-split needs --split FILE\n");
    return 1;
  }
  if (o.values != RTR_VALUES_UNIT && o.inputs) {
    fprintf(stderr, "remat-run: error: --values chooses random inputs: it does not apply "
                    "with --inputs\n");
    return 1;
  }
  /* Options that do not apply to the mode are errors, not silently ignored. */
  const char *stray = o.split && !o.check_split && !o.check_sharded         ? "--split"
                      : o.wrt && !o.check_fd                                ? "--wrt"
                      : o.fd_tol && !o.check_fd                             ? "--fd-tol"
                      : o.fd_sample && !o.check_fd                          ? "--fd-sample"
                      : o.outputs && !o.fn                                  ? "--outputs"
                      : o.print_set && !o.fn                                ? "--print"
                      : o.max_ulp_set && !o.check_split && !o.check_sharded ? "--max-ulp"
                      : o.unsharded && !o.check_sharded                     ? "--unsharded"
                      : o.jit_opt_set && o.reference                        ? "--jit-opt"
                      : o.jit_stats && o.reference                          ? "--jit-stats"
                      : o.dense_views && (o.reference || cuda)              ? "--dense-views"
                      : o.peak && ((!o.fn && !o.check_split) || o.check_sharded || cuda) ? "--peak"
                                                                                         : NULL;
  if (stray) {
    fprintf(stderr, "remat-run: error: %s does not apply to %s (see --help)\n", stray,
            cuda                                            ? "--device=cuda"
            : (o.dense_views || o.jit_stats) && o.reference ? "--reference"
            : o.fn                                          ? "--fn"
            : o.check_split                                 ? "--check-split"
            : o.check_fd                                    ? "--check-fd"
            : o.check_sharded                               ? "--check-sharded"
            : o.check_device                                ? "--check-device"
            : o.reference                                   ? "--reference"
                                                            : "--check-compiled");
    return 1;
  }
  /* Real ranks when an MPI launcher started this process; otherwise collectives are
   * simulated in this one process. */
  rtr_coll *rk = NULL;
  if (rtr_launched_by_mpi()) {
#ifdef REMAT_HAVE_MPI
    char *err = NULL;
    if (!(rk = rtr_coll_mpi_create(&argc, &argv, &err))) {
      print_errors(err);
      return 1;
    }
    /* One write per line: the launcher interleaves the ranks' output at write
     * boundaries, and a diagnostic is printed in pieces. */
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
#else
    fprintf(stderr, "remat-run: error: started by an MPI launcher, but this remat-run was "
                    "built without MPI (mpi.h was not found): its collectives would only be "
                    "simulated\n");
    return 1;
#endif
  }
  if (!rk && o.check_sharded) {
    fprintf(stderr, "remat-run: error: --check-sharded needs real ranks: run it under "
                    "mpirun -np N\n");
    return 1;
  }
  if (rk && rk->size > 1 && !o.fn && !o.check_sharded) {
    fprintf(stderr,
            "remat-run: error: rank %d: --check-split, --check-fd and "
            "--check-compiled run in one process; start them without mpirun\n",
            rk->rank);
    rk->destroy(rk);
    return 1;
  }
  MlirContext ctx = rematContextCreate(stderr, NULL);
  int rc = 1;
  if (mlirContextIsNull(ctx))
    fprintf(stderr, "remat-run: error: cannot load the rt dialect\n");
  else {
    rc = cuda || o.check_device || o.device_info ? run_device(ctx, &o) : run(ctx, &o, rk);
    mlirContextDestroy(ctx);
  }
  if (rk)
    rk->destroy(rk);
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "remat-run: error: cannot write the output: %s\n", strerror(errno));
    rc = 1;
  }
  return rc;
}
