/* passes_api_test: the public API as a host uses it: typed pass constructors
 * (remat-c/Passes.h) build the same pass as option text, invalid typed options are
 * refused with a message, the diagnostic printer counts errors, the version string.
 * Driven by test/embed/passes-api.test; argv[1] is examples/dropout.mlir. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_test.h"
#include "remat-c/Passes.h"
#include "remat-c/Translate.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  printf("version %s\n", rematVersion());
  int errors = 0;
  MlirContext ctx = rematContextCreate(stdout, &errors); /* the tools' setup */
  if (mlirContextIsNull(ctx))
    return 1;
  char err[256];

  MlirPass bad;
  char *typed, *textual;

  RematFuseOptions fuse;
  rematFuseOptionsInit(&fuse);
  printf("fuse defaults: max_ops=%lld\n", (long long)fuse.max_ops);
  fuse.max_ops = -1;
  bad = rematCreateFusePass(&fuse, err, sizeof err);
  printf("fuse max_ops=-1: %s: %s\n", bad.ptr ? "built" : "refused", err);
  fuse.max_ops = 3;
  typed = api_run_pass_file(ctx, argv[1], rematCreateFusePass(&fuse, err, sizeof err));
  textual =
      api_run_pass_file(ctx, argv[1], rematCreatePass("remat-fuse", "max-ops=3", err, sizeof err));
  printf("fuse typed == text: %s\n", typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  printf("%s\n", typed ? typed : "(failed)");

  /* The fused module's kernels, lowered for the host; then options that are refused. */
  MlirModule fused = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(typed));
  RematTranslateOptions tr;
  rematTranslateOptionsInit(&tr);
  printf("translate defaults: target=%s emit=%s sm=%d O%d\n",
         tr.target == REMAT_TRANSLATE_NVPTX64 ? "nvptx64" : "host",
         tr.emit == REMAT_TRANSLATE_PTX ? "ptx" : "llvm", tr.sm, tr.opt_level);
  tr.target = REMAT_TRANSLATE_HOST;
  tr.emit = REMAT_TRANSLATE_LLVM_IR;
  tr.opt_level = 0;
  char *manifest = NULL;
  char *ir = rematTranslate(mlirModuleGetOperation(fused), &tr, &manifest, err, sizeof err);
  printf("translate host: %s\n%s",
         ir && strstr(ir, "define void @seed_dropout_k0(") ? "ok" : "failed",
         manifest ? manifest : "(no manifest)\n");
  rematStringFree(ir);
  rematStringFree(manifest);
  tr.emit = REMAT_TRANSLATE_PTX;
  ir = rematTranslate(mlirModuleGetOperation(fused), &tr, NULL, err, sizeof err);
  printf("translate ptx on host: %s: %s\n", ir ? "built" : "refused", err);
  rematStringFree(ir);
  tr.target = REMAT_TRANSLATE_NVPTX64;
  tr.sm = 1;
  ir = rematTranslate(mlirModuleGetOperation(fused), &tr, NULL, err, sizeof err);
  printf("translate sm=1: %s: %s\n", ir ? "built" : "refused", err);
  rematStringFree(ir);
  mlirModuleDestroy(fused);
  free(typed);
  free(textual);

  RematCheckpointOptions ck;
  rematCheckpointOptionsInit(&ck);
  printf("checkpoint defaults: ac=%s fsdp=%s save_ops=%s save_every=%lld memory_budget=%lld "
         "budget_greedy=%d\n",
         ck.ac, ck.fsdp, ck.save_ops, (long long)ck.save_every, (long long)ck.memory_budget,
         ck.budget_greedy);
  ck.save_every = 0;
  bad = rematCreateCheckpointPass(&ck, err, sizeof err);
  printf("checkpoint save_every=0: %s: %s\n", bad.ptr ? "built" : "refused", err);
  ck.save_every = 2;
  strcpy(ck.ac, "auto");
  typed = api_run_pass_file(ctx, argv[1], rematCreateCheckpointPass(&ck, err, sizeof err));
  textual = api_run_pass_file(ctx, argv[1],
                              rematCreatePass("remat-checkpoint", "ac=auto", err, sizeof err));
  printf("checkpoint typed == text: %s\n",
         typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  printf("%s\n", typed ? typed : "(failed)");
  free(typed);
  free(textual);

  /* An error only remat's verifier finds reaches the printer at its location, counted. */
  MlirModule m = mlirModuleCreateParse(
      ctx,
      mlirStringRefCreateFromCString(
          "func.func @f(%a: tensor<4x8xf32>) {\n"
          "  %0 = \"rt.matmul\"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n"
          "  return\n}\n"));
  MlirLogicalResult r = mlirModuleIsNull(m) ? mlirLogicalResultFailure()
                                            : rematVerify(mlirModuleGetOperation(m));
  printf("verify: %s, errors counted: %d\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         errors);
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);

  rematStringFree(NULL); /* allowed */
  mlirContextDestroy(ctx);
  return 0;
}
