/* codegen_jit.c: loads the host objects of a codegen's units (compiled on several threads,
 * codegen.c) into LLVM ORC's LLJIT and looks their functions up. The libm functions the
 * kernels call are bound to this process's libm explicitly (absolute symbols), so the JIT
 * works whatever libraries the process loaded; anything else (memset, memcpy) comes from
 * LLJIT's process-symbol search. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/Error.h"
#include "llvm-c/LLJIT.h"
#include "llvm-c/Orc.h"
#include "llvm-c/Target.h"
#include "codegen_internal.h"

struct remat_jit {
  LLVMOrcLLJITRef jit;
};

/* The libm functions of the rows (rt_ops.def's f32 and f64 columns): those the kernels
 * call, and those LLVM may lower an intrinsic to. A row's 0 gives {"0", NULL}, left out. */
static const struct {
  const char *name;
  void *addr;
} libm_symbols[] = {
#define RT_OP(ID, name, kind, arity, rule, ew, m32, m64, ...) \
  {#m32, (void *)m32}, {#m64, (void *)m64},
#include "rt_ops.def"
};

static void error_text(LLVMErrorRef e, const char *what, char **err) {
  char *msg = LLVMGetErrorMessage(e);
  remat_error_add(err, "%s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
}

remat_jit *remat_jit_create(remat_codegen *cg, char **err) {
  int n = remat_codegen_num_functions(cg);
  char **objects;
  size_t *lens;
  if (cg_compile_objects(cg, &objects, &lens, err)) {
    free(objects);
    free(lens);
    return NULL;
  }
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  remat_jit *j = xcalloc(1, sizeof *j);
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->jit, NULL);
  int next = 0; /* objects[next...] not yet handed to the JIT */
  if (e) {
    error_text(e, "cannot create the JIT", err);
    free(j);
    j = NULL;
  } else {
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->jit);
    size_t ns = 0;
    LLVMOrcCSymbolMapPair pairs[sizeof libm_symbols / sizeof *libm_symbols];
    for (size_t i = 0; i < sizeof libm_symbols / sizeof *libm_symbols; i++) {
      bool seen = !libm_symbols[i].addr; /* a row's 0, or a name an earlier row bound */
      for (size_t k = 0; k < i && !seen; k++)
        seen = !strcmp(libm_symbols[k].name, libm_symbols[i].name);
      if (seen)
        continue;
      pairs[ns].Name = LLVMOrcLLJITMangleAndIntern(j->jit, libm_symbols[i].name);
      pairs[ns].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)libm_symbols[i].addr;
      pairs[ns].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported |
                                         LLVMJITSymbolGenericFlagsCallable;
      pairs[ns++].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, ns);
    if ((e = LLVMOrcJITDylibDefine(jd, mu))) {
      LLVMOrcDisposeMaterializationUnit(mu);
      error_text(e, "cannot define libm symbols", err);
    }
    /* The objects, in function order: each buffer copies its object and is the JIT's. */
    for (; !e && next < n; next++) {
      const remat_cg_function *f = remat_codegen_function(cg, next);
      LLVMMemoryBufferRef buf =
          LLVMCreateMemoryBufferWithMemoryRangeCopy(objects[next], lens[next], f->name);
      if ((e = LLVMOrcLLJITAddObjectFile(j->jit, jd, buf)))
        error_text(e, "cannot add an object", err);
    }
    if (e) {
      remat_jit_destroy(j);
      j = NULL;
    }
  }
  for (int i = 0; i < n; i++)
    free(objects[i]);
  free(objects);
  free(lens);
  return j;
}

void *remat_jit_lookup(remat_jit *j, const char *name) {
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
  if (e) {
    LLVMConsumeError(e);
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

void remat_jit_destroy(remat_jit *j) {
  if (!j)
    return;
  LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
  if (e)
    LLVMConsumeError(e);
  free(j);
}
