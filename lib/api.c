/* api.c: the small public entry points that belong to no other file (remat-c/Remat.h). */
#include <stdlib.h>

#include "mlir-c/RegisterEverything.h"
#include "remat-c/Remat.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char *rematVersion(void) {
  return STR(REMAT_VERSION_MAJOR) "." STR(REMAT_VERSION_MINOR) "." STR(REMAT_VERSION_PATCH);
}

void rematStringFree(char *string) { free(string); }

MlirContext rematContextCreate(FILE *diagnostics, int *errors) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  if (diagnostics)
    rematAttachDiagnosticPrinter(ctx, diagnostics, errors);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx))) {
    mlirContextDestroy(ctx);
    return (MlirContext){NULL};
  }
  return ctx;
}
