/* codegen_target.c: target machines (nvptx64-nvidia-cuda sm_NN with its PTX ISA version,
 * or the host CPU), libdevice linking, the O3 pipeline and PTX emission. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/BitReader.h"
#include "llvm-c/Linker.h"
#include "llvm-c/Target.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "codegen_internal.h"

#define LIBDEVICE_DEFAULT "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"

/* Supported compute capabilities and the PTX ISA version each needs (LLVM's minimum,
 * 8.0 for sm_90). */
static const struct {
  int sm, ptx;
} sm_table[] = {{60, 60}, {61, 60}, {62, 60}, {70, 60},  {72, 61},  {75, 63}, {80, 70},
                {86, 71}, {87, 74}, {89, 78}, {90, 80}, {100, 86}, {120, 87}};

bool remat_codegen_sm_is_valid(int sm) {
  for (size_t i = 0; i < sizeof sm_table / sizeof *sm_table; i++)
    if (sm_table[i].sm == sm)
      return true;
  return false;
}

static int ptx_version(int sm) {
  for (size_t i = 0; i < sizeof sm_table / sizeof *sm_table; i++)
    if (sm_table[i].sm == sm)
      return sm_table[i].ptx;
  remat_fatal("unsupported sm_%d (callers check remat_codegen_sm_is_valid)", sm);
}

static void init_targets(void) {
  static bool done;
  if (done)
    return;
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
    remat_fatal("cannot initialize the native target");
  done = true;
}

LLVMTargetMachineRef cg_target_machine(remat_target target, int sm) {
  init_targets();
  char cpu_buf[32], feat_buf[32], *msg = NULL;
  char *triple, *cpu, *features;
  if (target == REMAT_TARGET_NVPTX64) {
    snprintf(cpu_buf, sizeof cpu_buf, "sm_%d", sm);
    snprintf(feat_buf, sizeof feat_buf, "+ptx%d", ptx_version(sm));
    triple = xstrdup("nvptx64-nvidia-cuda");
    cpu = xstrdup(cpu_buf);
    features = xstrdup(feat_buf);
  } else {
    triple = LLVMGetDefaultTargetTriple();
    cpu = LLVMGetHostCPUName();
    features = LLVMGetHostCPUFeatures();
  }
  LLVMTargetRef t;
  if (LLVMGetTargetFromTriple(triple, &t, &msg))
    remat_fatal("no LLVM target for %s: %s", triple, msg);
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, cpu, features,
                                                    LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                                    LLVMCodeModelDefault);
  if (!tm)
    remat_fatal("cannot create a target machine for %s", triple);
  if (target == REMAT_TARGET_NVPTX64) {
    free(triple);
    free(cpu);
    free(features);
  } else {
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
  }
  return tm;
}

void cg_set_target(cg_module *m, int sm) {
  LLVMTargetMachineRef tm = cg_target_machine(m->target, sm);
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m->mod, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  char *s = LLVMCopyStringRepOfTargetData(dl);
  LLVMSetDataLayout(m->mod, s);
  LLVMDisposeMessage(s);
  LLVMDisposeTargetData(dl);
  LLVMDisposeTargetMachine(tm);
}

static bool uses_libdevice(cg_module *m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (LLVMIsDeclaration(f) && n > 5 && !strncmp(name, "__nv_", 5))
      return true;
  }
  return false;
}

/* Links libdevice (nvptx64, once, only if a __nv_ function is called) and makes every
 * definition but the kernels internal, so that unused code goes away. */
static int link_libdevice(cg_module *m, char *err, size_t cap) {
  if (m->target != REMAT_TARGET_NVPTX64 || m->libdevice_linked || !uses_libdevice(m))
    return 0;
  const char *path = getenv("REMAT_LIBDEVICE");
  if (!path || !*path)
    path = LIBDEVICE_DEFAULT;
  LLVMMemoryBufferRef buf;
  LLVMModuleRef lib;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
    snprintf(err, cap, "cannot read libdevice '%s': %s (set REMAT_LIBDEVICE)", path, msg);
    LLVMDisposeMessage(msg);
    return -1;
  }
  bool bad = LLVMParseBitcodeInContext2(m->ctx, buf, &lib);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) {
    snprintf(err, cap, "cannot parse libdevice '%s'", path);
    return -1;
  }
  LLVMSetTarget(lib, LLVMGetTarget(m->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m->mod));
  if (LLVMLinkModules2(m->mod, lib))
    remat_fatal("linking libdevice failed");
  for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) != LLVMPTXKernelCallConv)
      LLVMSetLinkage(f, LLVMInternalLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m->mod); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g))
      LLVMSetLinkage(g, LLVMInternalLinkage);
  m->libdevice_linked = true;
  return 0;
}

static void run_passes(cg_module *m, int sm, const char *passes) {
  LLVMTargetMachineRef tm = cg_target_machine(m->target, sm);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m->mod, passes, tm, opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    remat_fatal("LLVM passes '%s' failed: %s", passes, msg);
  }
  LLVMDisposePassBuilderOptions(opts);
  LLVMDisposeTargetMachine(tm);
}

int cg_optimize(cg_module *m, int sm, int opt_level, char *err, size_t cap) {
  if (opt_level == 0)
    return 0;
  if (link_libdevice(m, err, cap))
    return -1;
  run_passes(m, sm, "default<O3>");
  return 0;
}

char *cg_emit_ptx(cg_module *m, int sm, char *err, size_t cap) {
  if (!m->libdevice_linked && uses_libdevice(m)) {
    if (link_libdevice(m, err, cap))
      return NULL;
    run_passes(m, sm, "globaldce"); /* -O0: drop the libdevice functions not called */
  }
  LLVMTargetMachineRef tm = cg_target_machine(m->target, sm);
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m->mod, LLVMAssemblyFile, &msg, &buf)) {
    snprintf(err, cap, "PTX emission failed: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    LLVMDisposeTargetMachine(tm);
    return NULL;
  }
  size_t n = LLVMGetBufferSize(buf);
  char *ptx = xmalloc(n + 1);
  memcpy(ptx, LLVMGetBufferStart(buf), n);
  ptx[n] = 0;
  LLVMDisposeMemoryBuffer(buf);
  LLVMDisposeTargetMachine(tm);
  return ptx;
}
