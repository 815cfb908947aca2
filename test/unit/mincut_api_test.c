/* mincut_api_test: --remat-mincut through its typed constructor (remat-c/Passes.h): the
 * defaults, refused options with their messages, and typed options building the same
 * split as the option text. Driven by test/mincut/api.test; argv[1] is
 * examples/dropout.mlir. With argv[2], then the saved set of argv[2]'s split as
 * rematSplitSavedValues gives it (test/extern/saved-values.test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_test.h"
#include "remat-c/Passes.h"

static void refused(const char *what, RematMincutOptions *o) {
  char err[256] = "";
  MlirPass p = rematCreateMincutPass(o, err, sizeof err);
  printf("%s: %s: %s\n", what, p.ptr ? "built" : "refused", err);
  if (p.ptr)
    exit(1); /* the C API cannot free an unowned pass: a built pass fails the test */
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3)
    return 2;
  MlirContext ctx = rematContextCreate(stdout, NULL);
  if (mlirContextIsNull(ctx))
    return 1;
  char err[256];
  RematMincutOptions o;
  rematMincutOptionsInit(&o);
  printf("defaults: scalar_factor=%g params_free=%d ban=%s ban_random=%d report='%s'\n",
         o.scalar_factor, o.params_free, o.ban, o.ban_random, o.report);

  o.scalar_factor = -1;
  refused("scalar_factor=-1", &o);
  rematMincutOptionsInit(&o);
  snprintf(o.ban, sizeof o.ban, "rt.matmul,convolution");
  refused("ban=rt.matmul,convolution", &o);
  rematMincutOptionsInit(&o);
  printf("defaults: objective=%s peak_budget=%lld peak_search=%s\n", o.objective,
         (long long)o.peak_budget, o.peak_search);
  snprintf(o.objective, sizeof o.objective, "memory");
  refused("objective=memory", &o);
  rematMincutOptionsInit(&o);
  snprintf(o.objective, sizeof o.objective, "peak");
  o.peak_budget = -5;
  refused("peak_budget=-5", &o);
  rematMincutOptionsInit(&o);
  o.peak_budget = 1000;
  refused("peak_budget=1000 with objective=bytes", &o);

  rematMincutOptionsInit(&o);
  o.scalar_factor = 1;
  char *typed = api_run_pass_file(ctx, argv[1], rematCreateMincutPass(&o, err, sizeof err));
  char *textual = api_run_pass_file(
      ctx, argv[1], rematCreatePass("remat-mincut", "scalar-factor=1", err, sizeof err));
  printf("typed == text: %s\n", typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  printf("%s\n", typed ? typed : "(failed)");
  free(typed);
  free(textual);
  if (argc == 3) {
    MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[2]));
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    mlirPassManagerAddOwnedPass(pm, rematCreatePass("remat-mincut", "", err, sizeof err));
    if (mlirModuleIsNull(m) ||
        mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))))
      return 1;
    char *saved = rematSplitSavedValues(mlirModuleGetOperation(m));
    printf("saved values:\n%s", saved);
    rematStringFree(saved);
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return 0;
}
