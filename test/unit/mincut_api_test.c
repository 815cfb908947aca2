/* mincut_api_test: --remat-mincut through its typed constructor (remat-c/Passes.h): the
 * defaults, refused options with their messages, and typed options building the same
 * split as the option text. Driven by test/mincut/api.test; argv[1] is
 * examples/dropout.mlir. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"

typedef struct text {
  char *data;
  size_t len;
} text;

static void append(MlirStringRef s, void *ud) {
  text *t = ud;
  t->data = realloc(t->data, t->len + s.length + 1);
  if (!t->data)
    abort();
  memcpy(t->data + t->len, s.data, s.length);
  t->len += s.length;
  t->data[t->len] = 0;
}

/* Runs PASS (taking it) on the module in PATH; the printed result (caller frees) or NULL. */
static char *run_pass(MlirContext ctx, const char *path, MlirPass pass) {
  if (!pass.ptr)
    return NULL;
  MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(m))
    abort();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  text t = {NULL, 0};
  if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))))
    mlirOperationPrint(mlirModuleGetOperation(m), append, &t);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  return t.data;
}

static void refused(const char *what, RematMincutOptions *o) {
  char err[256] = "";
  MlirPass p = rematCreateMincutPass(o, err, sizeof err);
  printf("%s: %s: %s\n", what, p.ptr ? "built" : "refused", err);
  if (p.ptr)
    exit(1); /* the C API cannot free an unowned pass: a built pass fails the test */
}

int main(int argc, char **argv) {
  if (argc != 2)
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
  snprintf(o.ban, sizeof o.ban, "rt.matmul,conv");
  refused("ban=rt.matmul,conv", &o);

  rematMincutOptionsInit(&o);
  o.scalar_factor = 1;
  char *typed = run_pass(ctx, argv[1], rematCreateMincutPass(&o, err, sizeof err));
  char *textual =
      run_pass(ctx, argv[1], rematCreatePass("remat-mincut", "scalar-factor=1", err, sizeof err));
  printf("typed == text: %s\n", typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  printf("%s\n", typed ? typed : "(failed)");
  free(typed);
  free(textual);
  mlirContextDestroy(ctx);
  return 0;
}
