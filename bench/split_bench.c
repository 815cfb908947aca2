/* split_bench: where --remat-mincut's time goes on a large function: the pass itself
 * against MLIR's verification after it.
 *
 * Parses FILE once, then RUNS times: runs the pass on a fresh copy of the module with
 * MLIR's verifier on (what `remat-opt --timing` shows as RematMincut), and on another
 * copy with the verifier off, then verifies that result once (mlirOperationVerify: the
 * share of the first number that is MLIR's verification). MLIR runs on one thread, as
 * remat-opt does by default. Copies are made outside the timed parts. Prints the first
 * run ("cold") and the medians of the others ("warm"), in ms. Asserts nothing.
 *
 * It uses only the public C API, so bench/chain_bench.sh compiles it against older
 * builds too. Usage: split_bench FILE [RUNS]   (default 5) */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"
#include "remat-c/Remat.h"

#include "bench.h"

/* Runs the pass on a copy of MODULE: its time in ms (-1 on failure); with the verifier
 * off, *verify_ms is the time of verifying the result afterwards. */
static double run_once(MlirContext ctx, MlirOperation module, bool verifier, double *verify_ms) {
  RematMincutOptions o;
  char err[256];
  rematMincutOptionsInit(&o);
  MlirPass pass = rematCreateMincutPass(&o, err, sizeof err);
  if (!pass.ptr) {
    fprintf(stderr, "split_bench: error: %s\n", err);
    return -1;
  }
  MlirOperation copy = mlirOperationClone(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerEnableVerifier(pm, verifier);
  mlirPassManagerAddOwnedPass(pm, pass);
  double t0 = now_ms();
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, copy);
  double ms = now_ms() - t0;
  if (!verifier) {
    t0 = now_ms();
    if (!mlirOperationVerify(copy))
      ms = -1;
    *verify_ms = now_ms() - t0;
  }
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(copy);
  return mlirLogicalResultIsSuccess(r) ? ms : -1;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: split_bench FILE [RUNS]\n");
    return 2;
  }
  int runs = argc == 3 ? atoi(argv[2]) : 5;
  if (runs < 2)
    runs = 2;
  MlirContext ctx = bench_context(false);
  if (mlirContextIsNull(ctx))
    return 1;
  MlirModule m = bench_parse("split_bench", ctx, argv[1]);
  if (mlirModuleIsNull(m))
    return 1;
  double *on = calloc((size_t)runs, sizeof *on), *off = calloc((size_t)runs, sizeof *off),
         *ver = calloc((size_t)runs, sizeof *ver);
  int rc = 0;
  for (int r = 0; r < runs && rc == 0; r++) {
    on[r] = run_once(ctx, mlirModuleGetOperation(m), true, NULL);
    off[r] = run_once(ctx, mlirModuleGetOperation(m), false, &ver[r]);
    if (on[r] < 0 || off[r] < 0)
      rc = 1;
  }
  if (rc == 0) {
    double cold = on[0];
    printf("%s: pass cold %.3f ms, warm %.3f ms; warm without the verifier %.3f ms; "
           "verifying the result %.3f ms (medians of %d)\n",
           argv[1], cold, median(on + 1, runs - 1), median(off + 1, runs - 1),
           median(ver + 1, runs - 1), runs - 1);
  }
  free(on);
  free(off);
  free(ver);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return rc;
}
