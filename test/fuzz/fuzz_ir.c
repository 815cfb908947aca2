/* fuzz_ir: libFuzzer harness over remat's whole pipeline in one process.
 *
 * Each input is MLIR text. It goes through rematParseString (rematCheckNesting, the
 * parser), rematVerify,
 * then two pipelines on copies of the module:
 *   A  remat-autodiff, remat-checkpoint{ac=auto}, remat-mincut, remat-fuse, then the host
 *      codegen of the kernels (rematTranslate, LLVM IR at -O0);
 *   B  remat-autodiff, remat-checkpoint{memory-budget=4096 fsdp=save},
 *      remat-mincut{ban=none scalar-factor=0}, remat-fuse{max-ops=3}.
 * (remat-autodiff turns functions marked rt.autodiff into joint functions and leaves the
 * others alone.)
 * Bad input must end in diagnostics (swallowed here), never in a crash, a leak, a hang or
 * a sanitizer report. Two invariants abort, so libFuzzer reports them as findings: a
 * pipeline that succeeds leaves IR that rematVerify accepts, and that IR prints and
 * parses back.
 *
 * A fresh MLIR context per input (without threads): no state carries over from one input
 * to the next, so every finding reproduces from its input alone. See test/fuzz/README.md
 * for the limits (-max_len, -timeout, -rss_limit_mb). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Remat.h"
#include "remat-c/Translate.h"

/* Runs the passes named in PASSES (argument, options; NULL-terminated) on a copy of
 * MODULE. Returns the copy when the pipeline succeeded (the caller destroys it), else a
 * null operation. */
static MlirOperation run_pipeline(MlirContext ctx, MlirOperation module,
                                  const char *const *passes) {
  MlirOperation copy = mlirOperationClone(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  char err[256];
  for (int k = 0; passes[k]; k += 2) {
    MlirPass p = rematCreatePass(passes[k], passes[k + 1], err, sizeof err);
    if (!p.ptr) {
      fprintf(stderr, "fuzz_ir: %s{%s}: %s\n", passes[k], passes[k + 1], err);
      abort(); /* the harness's own options are valid */
    }
    mlirPassManagerAddOwnedPass(pm, p);
  }
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, copy));
  mlirPassManagerDestroy(pm);
  if (ok)
    return copy;
  mlirOperationDestroy(copy);
  return (MlirOperation){NULL};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const pipeline_a[] = {"remat-autodiff",
                                           "",
                                           "remat-checkpoint",
                                           "ac=auto",
                                           "remat-mincut",
                                           "",
                                           "remat-fuse",
                                           "",
                                           NULL};
  static const char *const pipeline_b[] = {"remat-autodiff",
                                           "",
                                           "remat-checkpoint",
                                           "memory-budget=4096,fsdp=save",
                                           "remat-mincut",
                                           "ban=none,scalar-factor=0",
                                           "remat-fuse",
                                           "max-ops=3",
                                           NULL};
  MlirContext ctx = fuzz_context();
  int diagnostics = 0; /* the expected outcome of most inputs: counted, not printed */
  mlirContextAttachDiagnosticHandler(ctx, fuzz_swallow, &diagnostics, NULL);
  /* the nesting check, then MLIR's parser on a NUL-terminated copy: the bytes libFuzzer
   * hands over end without one, and MLIR's lexer reads to it (mlirModuleCreateParse on
   * them read past the end of an identifier that ends the input) */
  /* the nesting check, then MLIR's parser on a NUL-terminated copy: libFuzzer's bytes end
   * without one, and MLIR's lexer reads to it (mlirModuleCreateParse on them read past
   * the end of an identifier that ends the input) */
  MlirModule m = rematParseString(ctx, mlirStringRefCreate((const char *)data, size),
                                  mlirStringRefCreateFromCString("fuzz"));
  if (!mlirModuleIsNull(m)) {
    MlirOperation top = mlirModuleGetOperation(m);
    if (mlirLogicalResultIsSuccess(rematVerify(top))) {
      MlirOperation a = run_pipeline(ctx, top, pipeline_a);
      if (!mlirOperationIsNull(a)) {
        fuzz_check_output(ctx, a, "fuzz_ir: pipeline A");
        RematTranslateOptions o;
        rematTranslateOptionsInit(&o);
        o.target = REMAT_TRANSLATE_HOST;
        o.emit = REMAT_TRANSLATE_LLVM_IR;
        o.opt_level = 0;
        char err[256], *manifest = NULL;
        char *ir = rematTranslate(a, &o, &manifest, err, sizeof err);
        rematStringFree(ir);
        rematStringFree(manifest);
        mlirOperationDestroy(a);
      }
      MlirOperation b = run_pipeline(ctx, top, pipeline_b);
      if (!mlirOperationIsNull(b)) {
        fuzz_check_output(ctx, b, "fuzz_ir: pipeline B");
        mlirOperationDestroy(b);
      }
    }
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return 0;
}
