/* api.c: the small public entry points that belong to no other file (remat-c/Remat.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/RegisterEverything.h"
#include "remat-c/Remat.h"
#include "rt.h"

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

MlirModule rematParseString(MlirContext ctx, MlirStringRef source, MlirStringRef name) {
  if (mlirLogicalResultIsFailure(rematCheckNesting(ctx, source, name)))
    return (MlirModule){NULL};
  /* MLIR's lexer reads to a NUL, past the length (an identifier that ends the text), and
   * SOURCE need not have one: parse a terminated copy */
  char *text = xmalloc(source.length + 1);
  memcpy(text, source.data, source.length);
  text[source.length] = 0;
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, source.length));
  free(text);
  return m;
}

/* NAME of a value for rematSplitSavedValues: its name location's name, else a stand-in. */
static void value_name(MlirValue v, char *buf, size_t cap) {
  if (mlirValueIsABlockArgument(v)) {
    MlirLocation loc = mlirValueGetLocation(v);
    if (mlirLocationIsAName(loc)) {
      MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
      snprintf(buf, cap, "%.*s", (int)n.length, n.data);
    } else
      snprintf(buf, cap, "arg%lld", (long long)mlirBlockArgumentGetArgNumber(v));
    return;
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  MlirLocation loc = mlirOperationGetLocation(op);
  int n_res = (int)mlirOperationGetNumResults(op);
  long long k = (long long)mlirOpResultGetResultNumber(v);
  MlirStringRef n = mlirLocationIsAName(loc) ? mlirIdentifierStr(mlirLocationNameGetName(loc))
                                             : rt_op_label(op);
  if (n_res > 1)
    snprintf(buf, cap, "%.*s#%lld", (int)n.length, n.data, k);
  else
    snprintf(buf, cap, "%.*s", (int)n.length, n.data);
}

char *rematSplitSavedValues(MlirOperation module) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    remat_fatal("open_memstream: out of memory");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    int64_t num_outputs, saved_bytes;
    if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(f)), "func.func") ||
        !rt_get_i64(f, "rt.num_outputs", &num_outputs) ||
        !rt_get_i64(f, "rt.saved_bytes", &saved_bytes) ||
        mlirRegionIsNull(mlirOperationGetRegion(f, 0)))
      continue;
    MlirBlock fb = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(fb))
      continue;
    MlirOperation ret = mlirBlockGetTerminator(fb);
    MlirStringRef fname = mlirStringAttrGetValue(
        mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
    intptr_t n = mlirOperationGetNumOperands(ret);
    for (intptr_t i = num_outputs; i < n; i++) {
      MlirValue v = mlirOperationGetOperand(ret, i);
      char name[512], tb[128];
      uint64_t bytes = 0;
      value_name(v, name, sizeof name);
      if (rt_value_bytes(v, &bytes))
        bytes = 0;
      fprintf(out, "%.*s\t%lld\t%s\t%s\t%llu\n", (int)fname.length, fname.data,
              (long long)(i - num_outputs), name, rt_type_str(mlirValueGetType(v), tb, sizeof tb),
              (unsigned long long)bytes);
    }
  }
  if (fclose(out))
    remat_fatal("open_memstream: out of memory");
  return text;
}
