/* autodiff_api_test: --remat-autodiff through the public API, as a host builds it: the
 * typed constructor (remat-c/Passes.h) and the option text give the same joint function,
 * and a bad forward fails with a located diagnostic through the host's printer.
 * Driven by test/autodiff/api.test; argv[1] is a forward-only module. */
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

/* Parses SRC, runs PASS (taking it), returns the printed module (caller frees) or NULL. */
static char *run_pass(MlirContext ctx, const char *src, MlirPass pass) {
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(src));
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

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  text t = {NULL, 0};
  char buf[4096];
  size_t n;
  if (!f)
    return NULL;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    append(mlirStringRefCreate(buf, n), &t);
  fclose(f);
  return t.data;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  char *src = read_file(argv[1]);
  if (!src)
    return 2;
  MlirContext ctx = mlirContextCreate();
  int errors = 0;
  rematAttachDiagnosticPrinter(ctx, stdout, &errors);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx)))
    return 1;
  char err[256];
  RematAutodiffOptions o;
  rematAutodiffOptionsInit(&o);
  printf("autodiff defaults: report='%s'\n", o.report);
  char *typed = run_pass(ctx, src, rematCreateAutodiffPass(&o, err, sizeof err));
  char *textual = run_pass(ctx, src, rematCreatePass("remat-autodiff", "", err, sizeof err));
  printf("autodiff typed == text: %s\n",
         typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  if (typed)
    fputs(typed, stdout);
  free(typed);
  free(textual);

  /* A wrt index out of range: the pass fails, the printer reports at the function. */
  const char *bad = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32>\n"
                    "    attributes {rt.autodiff = {wrt = [3]}} {\n"
                    "  return %x : tensor<4xf32>\n"
                    "}\n";
  char *out = run_pass(ctx, bad, rematCreateAutodiffPass(&o, err, sizeof err));
  printf("bad forward: %s, errors counted: %d\n", out ? "differentiated" : "failed", errors);
  free(out);
  mlirContextDestroy(ctx);
  free(src);
  return 0;
}
