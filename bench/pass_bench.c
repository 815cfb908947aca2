/* pass_bench: --remat-mincut's wall time in one process against the split's own time.
 *
 * Parses FILE once (with verification, as remat-opt does), then runs the pass RUNS times
 * on fresh copies of the module, each in a new pass manager (created outside the timed
 * part), and times mlirPassManagerRunOnOp: the pass with MLIR's verification after it,
 * what `remat-opt --timing` shows as RematMincut. Odd runs write the report to a
 * temporary file, for the split's own time (its `time:` lines summed over the joint
 * functions: load, classification, network, max-flow, planning, rewrite); even runs write
 * none, for the pass's time. Prints the first run ("cold": lazy symbol binding and first
 * touches of code, once per process) and the medians of the others ("warm").
 *
 * --first=pass and --first=split run the pass once, the first call in the process, and
 * print its wall time (no report) or the split's time (with a report): the first call at
 * microsecond resolution, which `remat-opt --timing` (0.1 ms) cannot give. A script runs
 * them over many processes (bench/pass_first.sh). Asserts nothing.
 *
 * --no-threads disables the context's multithreading: MLIR then verifies the two new
 * functions one after the other instead of handing them to its thread pool.
 *
 * Usage: pass_bench [--no-threads] [--first=pass|split] FILE [RUNS]   (default 41) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"
#include "remat-c/Remat.h"

#include "bench.h"

/* The sum of the report's "  time: X ms" lines; -1 if there is none. */
static double split_ms(const char *path) {
  FILE *f = fopen(path, "r");
  char line[512];
  double sum = -1, t;
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "  time: %lf ms", &t) == 1)
      sum = (sum < 0 ? 0 : sum) + t;
  fclose(f);
  return sum;
}

/* Runs the pass on a copy of MODULE; its wall time in ms, or -1 on failure. */
static double run_once(MlirContext ctx, MlirOperation module, const char *report) {
  RematMincutOptions o;
  char err[256];
  rematMincutOptionsInit(&o);
  if (report)
    snprintf(o.report, sizeof o.report, "%s", report);
  MlirPass pass = rematCreateMincutPass(&o, err, sizeof err);
  if (!pass.ptr) {
    fprintf(stderr, "pass_bench: error: %s\n", err);
    return -1;
  }
  MlirOperation copy = mlirOperationClone(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  double t0 = now_ms();
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, copy);
  double ms = now_ms() - t0;
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(copy);
  return mlirLogicalResultIsSuccess(r) ? ms : -1;
}

int main(int argc, char **argv) {
  bool threads = true;
  const char *first = NULL; /* "pass" or "split": one run only */
  for (; argc > 1 && !strncmp(argv[1], "--", 2); argv++, argc--) {
    if (!strcmp(argv[1], "--no-threads"))
      threads = false;
    else if (!strcmp(argv[1], "--first=pass") || !strcmp(argv[1], "--first=split"))
      first = argv[1] + strlen("--first=");
    else
      argc = 0; /* usage */
  }
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: pass_bench [--no-threads] [--first=pass|split] FILE [RUNS]\n");
    return 2;
  }
  int runs = first ? 1 : argc == 3 ? atoi(argv[2]) : 41;
  if (runs < 3 && !first)
    runs = 3;
  MlirContext ctx = bench_context(threads);
  if (mlirContextIsNull(ctx))
    return 1;
  MlirModule m = bench_parse("pass_bench", ctx, argv[1]);
  if (mlirModuleIsNull(m))
    return 1;
  char report[] = "/tmp/pass_bench_XXXXXX";
  int fd = mkstemp(report);
  if (fd < 0) {
    fprintf(stderr, "pass_bench: error: no temporary file\n");
    return 1;
  }
  double *pass = calloc((size_t)runs, sizeof *pass), *split = calloc((size_t)runs, sizeof *split);
  double cold = -1;
  int npass = 0, nsplit = 0, rc = 0;
  for (int r = 0; r < runs && rc == 0; r++) {
    bool with_report = first ? !strcmp(first, "split") : r % 2 == 1;
    if (with_report && fclose(fopen(report, "w")))
      rc = 1;
    double ms = run_once(ctx, mlirModuleGetOperation(m), with_report ? report : NULL);
    if (ms < 0) {
      rc = 1;
    } else if (r == 0) {
      cold = with_report ? split_ms(report) : ms;
    } else if (with_report) {
      split[nsplit++] = split_ms(report);
    } else {
      pass[npass++] = ms;
    }
  }
  remove(report);
  if (rc == 0 && first) {
    printf("%.6f\n", cold);
  } else if (rc == 0) {
    double p = median(pass, npass), s = median(split, nsplit);
    printf("%s%s: pass cold %.3f ms, warm %.3f ms (median of %d); split %.3f ms (median of "
           "%d); warm pass / split %.2f\n",
           argv[1], threads ? "" : " (no threads)", cold, p, npass, s, nsplit, s > 0 ? p / s : 0);
  }
  free(pass);
  free(split);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return rc;
}
