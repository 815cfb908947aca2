/* codegen_test.h: what the codegen unit tests share (codegen_interp_test.c,
 * codegen_conv_test.c, codegen_attention_test.c, codegen_host_test.c): a module text
 * parsed and verified with remat's dialects, and its host JIT (each returns NULL, a null
 * module, after printing why; the test then exits 1); the module compiled at -O0 and
 * -O3 in turn; a function of the JIT by name; the --module option's file; the
 * bit-for-bit comparison of a result with the reference's. Header-only. */
#ifndef REMAT_CODEGEN_TEST_H
#define REMAT_CODEGEN_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "buffer.h"

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

/* What a test checks at one optimisation level OPT of TOP's host codegen CG, whose
 * functions JIT runs: the mismatching elements it found. */
typedef int (*codegen_test_level)(MlirOperation top, remat_codegen *cg, remat_jit *jit, int opt);

/* TEXT (LEN bytes) parsed, compiled for the host at -O0 and then -O3, LEVEL run at each:
 * 0 when nothing mismatched, else 1 (also when the module does not parse or compile). */
static inline int codegen_test_levels(const char *text, size_t len, codegen_test_level level) {
  MlirContext ctx;
  MlirModule module = codegen_test_parse(&ctx, text, len, stdout);
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation top = mlirModuleGetOperation(module);
  int bad = 0;
  for (int opt = 0; opt <= 3; opt += 3) {
    remat_jit *jit;
    remat_codegen *cg = codegen_test_host(top, opt, &jit);
    if (!cg)
      return 1;
    bad += level(top, cg, jit, opt);
    remat_jit_destroy(jit);
    remat_codegen_destroy(cg);
  }
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return bad != 0;
}

/* The packed-ABI entry `<NAME>_packed` of JIT; a test without it exits 1. */
static inline remat_packed_fn codegen_test_packed(remat_jit *jit, const char *name) {
  char packed[160];
  snprintf(packed, sizeof packed, "%s_packed", name);
  remat_packed_fn f = (remat_packed_fn)(uintptr_t)remat_jit_lookup(jit, packed);
  if (!f) {
    printf("%s: not in the JIT\n", packed);
    exit(1);
  }
  return f;
}

/* Writes the module text to PATH (the tests' --module option): 0, or 1 on an error. */
static inline int codegen_test_write(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  bool ok = f && fwrite(text, 1, len, f) == len;
  if (f)
    ok = !fclose(f) && ok;
  return ok ? 0 : 1;
}

/* The elements of GOT that differ from WANT: bit-identical, or NaN on both sides, passes
 * (payloads are not part of the contract). Prints the first three, naming WHAT. */
static inline int codegen_test_compare(const char *what, const rtr_buffer *want,
                                       const rtr_buffer *got) {
  size_t es = rtr_elem_size(want->elem);
  int bad = 0;
  for (int64_t i = 0; i < want->numel; i++) {
    const char *w = (const char *)want->data + (size_t)i * es,
               *g = (const char *)got->data + (size_t)i * es;
    double wv = rtr_buffer_get_f(want, i), gv = rtr_buffer_get_f(got, i);
    if (!memcmp(w, g, es) || (isnan(wv) && isnan(gv)))
      continue;
    if (bad++ < 3)
      printf("MISMATCH %s element %lld: reference %.17g, compiled %.17g\n", what, (long long)i, wv,
             gv);
  }
  return bad;
}

#endif
