/* codegen_test.h: what the codegen unit tests share (codegen_interp_test.c,
 * codegen_conv_test.c, codegen_host_test.c): a module text parsed and verified with
 * remat's dialects, and its host JIT. Header-only. Each returns NULL (a null module)
 * after printing why; the test then exits 1. */
#ifndef REMAT_CODEGEN_TEST_H
#define REMAT_CODEGEN_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "codegen.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"

/* TEXT (len bytes) parsed and verified in *ctx, a new context with remat's dialects,
 * its diagnostics printed to DIAG (NULL: MLIR's default handler). The caller destroys
 * the module and the context. */
static inline MlirModule codegen_test_parse(MlirContext *ctx, const char *text, size_t len,
                                            FILE *diag) {
  *ctx = mlirContextCreate();
  if (diag)
    rematAttachDiagnosticPrinter(*ctx, diag, NULL);
  if (mlirLogicalResultIsFailure(rematLoadDialects(*ctx)))
    return (MlirModule){NULL};
  MlirModule module = mlirModuleCreateParse(*ctx, mlirStringRefCreate(text, len));
  if (!mlirModuleIsNull(module) &&
      mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(module)))) {
    mlirModuleDestroy(module);
    return (MlirModule){NULL};
  }
  return module;
}

/* The host JIT of cg (owned by the caller). */
static inline remat_jit *codegen_test_jit(remat_codegen *cg) {
  char *err = NULL;
  remat_jit *jit = remat_jit_create(cg, &err);
  if (!jit)
    printf("jit: %s\n", err ? err : "");
  free(err);
  return jit;
}

/* The host codegen of TOP at -O opt and its JIT in *jit. Its kernels go through make
 * test's kernel cache, as the tools read it: the sanitizer build's run loads the normal
 * build's LLVM objects (its lowering to LLVM IR still runs, to make the key). */
static inline remat_codegen *codegen_test_host(MlirOperation top, int opt, remat_jit **jit) {
  remat_codegen_options opts = {.target = REMAT_TARGET_HOST, .sm = 0, .opt_level = opt};
  remat_codegen *cg = remat_codegen_create(top, &opts);
  if (!cg)
    return NULL;
  remat_codegen_set_compile(cg, 0, getenv("REMAT_CACHE_DIR"));
  if (!(*jit = codegen_test_jit(cg))) {
    remat_codegen_destroy(cg);
    return NULL;
  }
  return cg;
}

#endif
