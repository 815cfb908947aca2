/* codegen_jit.c: JIT-compiles a host-target codegen module with LLVM ORC's LLJIT and looks
 * its functions up. The libm functions the kernels call are bound to this process's libm
 * explicitly (absolute symbols), so the JIT works whatever libraries the process loaded;
 * anything else (memset, memcpy) comes from LLJIT's process-symbol search. */
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

/* The functions of the RT_MATH rows (rt_ops.def) and those other lowerings call. */
static const struct {
  const char *name;
  void *addr;
} libm_symbols[] = {
#define RT_MATH(ID, name, kind, arity, rule, ew, m32, m64, ...)                              \
  {#m32, (void *)m32}, {#m64, (void *)m64},
#define RT_OP(...)
#include "rt_ops.def"
    {"powf", (void *)powf}, {"sqrtf", (void *)sqrtf}, {"fmaf", (void *)fmaf},
    {"pow", (void *)pow},   {"sqrt", (void *)sqrt},   {"fma", (void *)fma},
};

static void error_text(LLVMErrorRef e, const char *what, char *err, size_t cap) {
  char *msg = LLVMGetErrorMessage(e);
  snprintf(err, cap, "%s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
}

remat_jit *remat_jit_create(remat_codegen *cg, char *err, size_t cap) {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  cg_take_module(cg, &ctx, &mod);
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContextFromLLVMContext(ctx);
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
  LLVMOrcDisposeThreadSafeContext(tsc);

  remat_jit *j = xcalloc(1, sizeof *j);
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->jit, NULL);
  if (e) {
    error_text(e, "cannot create the JIT", err, cap);
    LLVMOrcDisposeThreadSafeModule(tsm);
    free(j);
    return NULL;
  }
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->jit);
  size_t n = sizeof libm_symbols / sizeof *libm_symbols;
  LLVMOrcCSymbolMapPair pairs[sizeof libm_symbols / sizeof *libm_symbols];
  for (size_t i = 0; i < n; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j->jit, libm_symbols[i].name);
    pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)libm_symbols[i].addr;
    pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
  if ((e = LLVMOrcJITDylibDefine(jd, mu))) {
    LLVMOrcDisposeMaterializationUnit(mu);
    error_text(e, "cannot define libm symbols", err, cap);
  } else if ((e = LLVMOrcLLJITAddLLVMIRModule(j->jit, jd, tsm))) {
    error_text(e, "cannot add the module", err, cap);
    tsm = NULL;
  } else
    return j;
  if (tsm)
    LLVMOrcDisposeThreadSafeModule(tsm);
  remat_jit_destroy(j);
  return NULL;
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
