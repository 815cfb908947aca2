/* remat-run: runs a function of an rt module on the CPU, and checks a split against its
 * joint function, gradients against finite differences, compiled code against the
 * reference interpreter. Exit 0 on success, 1 on any error or mismatch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "remat-c/Remat.h"
#include "runtime/check.h"
#include "runtime/interp.h"
#include "runtime/io.h"
#include "rt.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: remat-run FILE --fn NAME [--seed N | --inputs FILE] [--reference]\n"
          "                 [--print=summary|full|none] [--outputs FILE]\n"
          "       remat-run JOINT --check-split NAME --split SPLIT [--seed N] [--max-ulp N]\n"
          "       remat-run JOINT --check-split-all --split SPLIT [--seed N]\n"
          "       remat-run JOINT --check-fd NAME [--wrt I,J,...] [--fd-tol ATOL,RTOL]\n\n"
          "Runs function NAME of FILE on the CPU and prints its results.\n\n"
          "options:\n"
          "  --fn NAME            the function to run\n"
          "  --seed N             random inputs from seed N (default 0): floats uniform in\n"
          "                       [-1,1), integer tensors in [-8,8), i1 0/1, integer\n"
          "                       scalars (seeds, offsets) full-width\n"
          "  --inputs FILE        inputs in the text format (one 'TYPE values...' per\n"
          "                       argument; see docs/design.md, Runtime)\n"
          "  --reference          run every op with the reference interpreter\n"
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
          "  --wrt I,J,...        the arguments the gradients belong to (default: every\n"
          "                       floating-point tensor argument that is not a tangent)\n"
          "  --fd-tol ATOL,RTOL   |grad - fd| <= ATOL + RTOL |fd| (default 1e-4,1e-3)\n"
          "  --quiet              print only mismatches and the final line\n"
          "  --help               this text\n");
}

typedef struct options {
  const char *file, *fn, *inputs, *outputs, *split, *check_split, *check_fd, *wrt;
  const char *print;
  unsigned long long seed;
  long long max_ulp;
  double atol, rtol;
  bool reference, quiet, split_all;
} options;

static void write_to_file(MlirStringRef s, void *f) { fwrite(s.data, 1, s.length, f); }

static MlirModule parse(MlirContext ctx, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "remat-run: error: cannot read '%s': %s\n", path, strerror(errno));
    return (MlirModule){NULL};
  }
  fclose(f);
  MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(m))
    return m;
  if (mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(m)))) {
    mlirModuleDestroy(m);
    return (MlirModule){NULL};
  }
  return m;
}

static int run_fn(MlirOperation module, const options *o) {
  MlirOperation f = rt_interp_lookup(module, o->fn);
  if (mlirOperationIsNull(f)) {
    fprintf(stderr, "remat-run: error: no function '@%s' in %s\n", o->fn, o->file);
    return 1;
  }
  int nin = 0, nout = 0;
  rt_buffer **in = o->inputs ? rt_inputs_read(f, o->inputs, &nin)
                             : rt_inputs_random(f, o->seed, &nin);
  if (!in)
    return 1;
  rt_buffer **out = NULL;
  rt_interp_options run = {false, o->reference ? 0 : 64, NULL, NULL, NULL, NULL};
  int rc = rt_interp_run(module, f, &run, in, nin, &out, &nout) ? 1 : 0;
  if (!rc) {
    for (int k = 0; k < nout; k++) {
      if (!strcmp(o->print, "full")) {
        printf("result #%d: ", k);
        rt_buffer_write_text(stdout, out[k]);
      } else if (!strcmp(o->print, "summary")) {
        printf("result #%d: ", k);
        rt_buffer_write_summary(stdout, out[k]);
        putchar('\n');
      }
    }
    if (o->outputs) {
      FILE *w = fopen(o->outputs, "w");
      if (!w) {
        fprintf(stderr, "remat-run: error: cannot write '%s': %s\n", o->outputs,
                strerror(errno));
        rc = 1;
      } else {
        for (int k = 0; k < nout; k++)
          rt_buffer_write_text(w, out[k]);
        if (fclose(w)) {
          fprintf(stderr, "remat-run: error: cannot write '%s'\n", o->outputs);
          rc = 1;
        }
      }
    }
  }
  rt_buffers_free(in, nin);
  rt_buffers_free(out, nout);
  return rc;
}

/* --check-split NAME, or every joint function of the module for --check-split-all. */
static int check_splits(MlirOperation joint, MlirOperation split, const options *o,
                        const rt_check_options *co, rt_split_stats *st) {
  if (!o->split_all) {
    int rc = rt_check_split(joint, split, o->check_split, co, st) ? 1 : 0;
    if (!rc)
      printf("ok: %ld values bit-exact%s, %ld ops executed\n", st->values,
             o->max_ulp ? " or within tolerance" : "", st->ops);
    return rc;
  }
  long graphs = 0, failed = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(joint, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    int64_t n;
    if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(f)), "func.func") ||
        !rt_func_num_outputs(f, &n))
      continue;
    MlirStringRef name = rt_func_name(f);
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
    graphs++;
    failed += rt_check_split(joint, split, buf, co, st) != 0;
  }
  printf("check-split-all: %ld joint functions, %ld ops executed, %ld values compared, %ld "
         "random tensors recomputed in backwards\n",
         graphs, st->ops, st->values, st->random);
  if (failed) {
    fprintf(stderr, "remat-run: error: %ld of %ld splits differ from their joint function\n",
            failed, graphs);
    return 1;
  }
  if (!graphs) {
    fprintf(stderr, "remat-run: error: no joint function (rt.num_outputs) in %s\n", o->file);
    return 1;
  }
  printf("ok: every split matches its joint function bit for bit%s\n",
         o->max_ulp ? " or within tolerance" : "");
  return 0;
}

/* "0,2,3" -> ints; -1 on a malformed list. */
static int parse_list(const char *s, int *out, int cap) {
  int n = 0;
  while (*s && n < cap) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || (*end && *end != ','))
      return -1;
    out[n++] = (int)v;
    s = *end ? end + 1 : end;
  }
  return *s ? -1 : n;
}

static int run(MlirContext ctx, const options *o) {
  MlirModule m = parse(ctx, o->file);
  if (mlirModuleIsNull(m))
    return 1;
  MlirOperation top = mlirModuleGetOperation(m);
  int rc = 1;
  rt_check_options co = {o->seed, o->max_ulp, {false, o->reference ? 0 : 64, NULL, NULL, NULL, NULL},
                         o->atol, o->rtol, stdout, o->quiet};
  if (o->check_split) {
    MlirModule s = parse(ctx, o->split);
    if (!mlirModuleIsNull(s)) {
      rt_split_stats st = {0, 0, 0};
      rc = check_splits(top, mlirModuleGetOperation(s), o, &co, &st);
      mlirModuleDestroy(s);
    }
  } else if (o->check_fd) {
    int wrt[256], nwrt = -1;
    if (o->wrt && (nwrt = parse_list(o->wrt, wrt, 256)) < 0)
      fprintf(stderr, "remat-run: error: --wrt expects a list of argument numbers\n");
    else
      rc = rt_check_fd(top, o->check_fd, o->wrt ? wrt : NULL, nwrt, &co) ? 1 : 0;
  } else
    rc = run_fn(top, o);
  mlirModuleDestroy(m);
  return rc;
}

static bool parse_u64(const char *s, unsigned long long *v) {
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 0);
  return *s && !*end && !errno && *s != '-';
}

int main(int argc, char **argv) {
  options o = {0};
  o.print = "summary";
  o.atol = 1e-4;
  o.rtol = 1e-3;
  int files = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    unsigned long long u;
#define TAKES(flag) (!strcmp(a, flag) && val && (i++, true))
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (TAKES("--fn"))
      o.fn = val;
    else if (TAKES("--seed")) {
      if (!parse_u64(val, &o.seed)) {
        fprintf(stderr, "remat-run: error: --seed expects a non-negative integer\n");
        return 1;
      }
    } else if (TAKES("--inputs"))
      o.inputs = val;
    else if (TAKES("--outputs"))
      o.outputs = val;
    else if (TAKES("--check-split"))
      o.check_split = val;
    else if (TAKES("--split"))
      o.split = val;
    else if (TAKES("--check-fd"))
      o.check_fd = val;
    else if (TAKES("--wrt"))
      o.wrt = val;
    else if (TAKES("--max-ulp")) {
      if (!parse_u64(val, &u)) {
        fprintf(stderr, "remat-run: error: --max-ulp expects a non-negative integer\n");
        return 1;
      }
      o.max_ulp = (long long)u;
    } else if (TAKES("--fd-tol")) {
      if (sscanf(val, "%lf,%lf", &o.atol, &o.rtol) != 2 || !(o.atol >= 0) || !(o.rtol >= 0)) {
        fprintf(stderr, "remat-run: error: --fd-tol expects ATOL,RTOL\n");
        return 1;
      }
    } else if (!strcmp(a, "--reference"))
      o.reference = true;
    else if (!strcmp(a, "--check-split-all"))
      o.split_all = true, o.quiet = true, o.check_split = "*";
    else if (!strcmp(a, "--quiet"))
      o.quiet = true;
    else if (!strncmp(a, "--print=", 8)) {
      o.print = a + 8;
      if (strcmp(o.print, "summary") && strcmp(o.print, "full") && strcmp(o.print, "none")) {
        fprintf(stderr, "remat-run: error: --print expects summary, full or none\n");
        return 1;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "remat-run: error: unknown or incomplete option '%s' (see --help)\n", a);
      return 1;
    } else {
      o.file = a;
      files++;
    }
#undef TAKES
  }
  int modes = !!o.fn + !!o.check_split + !!o.check_fd;
  if (files != 1 || modes != 1) {
    fprintf(stderr, "remat-run: error: expected one input file and one of --fn, "
                    "--check-split, --check-fd (see --help)\n");
    return 1;
  }
  if (o.check_split && !o.split) {
    fprintf(stderr, "remat-run: error: --check-split needs --split FILE\n");
    return 1;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  rematAttachDiagnosticPrinter(ctx, stderr, NULL);
  int rc = 1;
  if (mlirLogicalResultIsSuccess(rematLoadDialects(ctx)))
    rc = run(ctx, &o);
  else
    fprintf(stderr, "remat-run: error: cannot load the rt dialect\n");
  mlirContextDestroy(ctx);
  (void)write_to_file;
  return rc;
}
