/* api_test.h: what the public-API tests (*_api_test.c) share, as a host would write it:
 * run one pass on a module and keep the printed result. Header-only (static inline). */
#ifndef REMAT_API_TEST_H
#define REMAT_API_TEST_H

#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

typedef struct api_text {
  char *data;
  size_t len;
} api_text;

/* An MlirStringCallback appending to an api_text (aborts when out of memory). */
static inline void api_text_append(MlirStringRef s, void *ud) {
  api_text *t = ud;
  t->data = realloc(t->data, t->len + s.length + 1);
  if (!t->data)
    abort();
  memcpy(t->data + t->len, s.data, s.length);
  t->len += s.length;
  t->data[t->len] = 0;
}

/* Runs PASS (taking it) on M (destroyed); the printed module (caller frees), or NULL when
 * the pass is null or fails. A module that did not parse aborts the test. */
static inline char *api_run_pass_on(MlirContext ctx, MlirModule m, MlirPass pass) {
  if (mlirModuleIsNull(m))
    abort();
  if (!pass.ptr) {
    mlirModuleDestroy(m);
    return NULL;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  api_text t = {NULL, 0};
  if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m))))
    mlirOperationPrint(mlirModuleGetOperation(m), api_text_append, &t);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(m);
  return t.data;
}

/* The same on the module in the file PATH. */
static inline char *api_run_pass_file(MlirContext ctx, const char *path, MlirPass pass) {
  return api_run_pass_on(
      ctx, mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path)), pass);
}

/* The same on the module text SRC. */
static inline char *api_run_pass_text(MlirContext ctx, const char *src, MlirPass pass) {
  return api_run_pass_on(ctx, mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(src)),
                         pass);
}

#endif
