/* codegen_target.c: target machines (nvptx64-nvidia-cuda sm_NN with its PTX ISA version,
 * or the host CPU), libdevice linking, the O3 pipeline and the emission of one unit (PTX
 * or a host object file). Everything here but cg_libdevice_load works on one
 * unit's own LLVMContext, so units are compiled on several threads at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/BitReader.h"
#include "llvm-c/BitWriter.h"
#include "llvm-c/Linker.h"
#include "llvm-c/Target.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "llvm-c/blake3.h"
#include "codegen_internal.h"

#define LIBDEVICE_DEFAULT "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"

/* Supported compute capabilities and the PTX ISA version each needs (LLVM's minimum,
 * 8.0 for sm_90). */
static const struct {
  int sm, ptx;
} sm_table[] = {{60, 60}, {61, 60}, {62, 60}, {70, 60}, {72, 61},  {75, 63}, {80, 70},
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

static void init_targets_once(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
    remat_fatal("cannot initialize the native target");
}

/* Once per process, whichever thread comes first. */
static void init_targets(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_targets_once);
}

/* pic: position-independent code, for objects the JIT places anywhere in memory. */
static LLVMTargetMachineRef target_machine(remat_target target, int sm, bool pic) {
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
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
      t, triple, cpu, features, LLVMCodeGenLevelAggressive, pic ? LLVMRelocPIC : LLVMRelocDefault,
      pic ? LLVMCodeModelSmall : LLVMCodeModelDefault);
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

LLVMTargetMachineRef cg_target_machine(remat_target target, int sm) {
  return target_machine(target, sm, false);
}

void cg_target_strings(remat_target target, int sm, char **triple, char **layout) {
  LLVMTargetMachineRef tm = cg_target_machine(target, sm);
  char *t = LLVMGetTargetMachineTriple(tm);
  *triple = xstrdup(t);
  LLVMDisposeMessage(t);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  char *s = LLVMCopyStringRepOfTargetData(dl);
  *layout = xstrdup(s);
  LLVMDisposeMessage(s);
  LLVMDisposeTargetData(dl);
  LLVMDisposeTargetMachine(tm);
}

char *cg_host_cpu(void) {
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  char *s = xasprintf("%s %s", cpu, features);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return s;
}

bool cg_uses_libdevice(cg_module *m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (LLVMIsDeclaration(f) && n > 5 && !strncmp(name, "__nv_", 5))
      return true;
  }
  return false;
}

int cg_libdevice_load(cg_libdevice *lib, char **err) {
  memset(lib, 0, sizeof *lib);
  const char *path = getenv("REMAT_LIBDEVICE");
  if (!path || !*path)
    path = LIBDEVICE_DEFAULT;
  FILE *f = fopen(path, "rb");
  long n = -1;
  if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
    lib->bytes = xmalloc((size_t)n + 1);
    if (fread(lib->bytes, 1, (size_t)n, f) != (size_t)n)
      n = -1;
  }
  if (f)
    fclose(f);
  if (n < 0) {
    remat_error_add(err, "cannot read libdevice '%s' (set REMAT_LIBDEVICE)", path);
    cg_libdevice_free(lib);
    return -1;
  }
  lib->size = (size_t)n;
  lib->path = xstrdup(path);
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, lib->bytes, lib->size);
  llvm_blake3_hasher_finalize(&h, lib->digest, sizeof lib->digest);
  return 0;
}

void cg_libdevice_free(cg_libdevice *lib) {
  free(lib->bytes);
  free(lib->path);
  memset(lib, 0, sizeof *lib);
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char *cg_libdevice_calls(cg_module *m) {
  char **names = NULL;
  size_t n = 0, cap = 0, total = 2;
  for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len < 5 || strncmp(name, "__nv_", 5))
      continue;
    XGROW(names, n, cap, 8);
    names[n++] = xstrndup(name, len);
    total += len + 1;
  }
  if (n == 0)
    return NULL;
  qsort(names, n, sizeof *names, compare_names);
  char *s = xmalloc(total), *p = s;
  *p++ = '\n';
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(names[i]);
    memcpy(p, names[i], len);
    p += len;
    *p++ = '\n';
    free(names[i]);
  }
  *p = 0;
  free(names);
  return s;
}

LLVMModuleRef cg_libdevice_parse(const cg_libdevice *lib, LLVMContextRef ctx, char **err) {
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRange(lib->bytes, lib->size, "libdevice", 0);
  LLVMModuleRef mod;
  bool bad = LLVMParseBitcodeInContext2(ctx, buf, &mod);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) {
    remat_error_add(err, "cannot parse libdevice '%s'", lib->path);
    return NULL;
  }
  return mod;
}

/* The functions named in calls stay external, everything else defined becomes internal,
 * and globaldce removes what they do not reach: what is left is exactly what linking
 * the whole of libdevice and internalizing would keep reachable. */
void cg_libdevice_subset(const cg_libdevice *full, LLVMModuleRef parsed, const char *calls,
                         cg_libdevice *out) {
  LLVMModuleRef m = LLVMCloneModule(parsed);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    char *line = xasprintf("\n%.*s\n", (int)len, name);
    LLVMSetLinkage(f, strstr(calls, line) ? LLVMExternalLinkage : LLVMInternalLinkage);
    free(line);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g))
      LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "globaldce", NULL, opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    remat_fatal("pruning libdevice failed: %s", msg);
  }
  LLVMDisposePassBuilderOptions(opts);
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
  LLVMDisposeModule(m);
  memset(out, 0, sizeof *out);
  out->size = LLVMGetBufferSize(buf);
  out->bytes = xmalloc(out->size + 1);
  memcpy(out->bytes, LLVMGetBufferStart(buf), out->size);
  LLVMDisposeMemoryBuffer(buf);
  out->path = xstrdup(full->path);
  memcpy(out->digest, full->digest, sizeof out->digest);
}

/* Links libdevice (nvptx64, once, only if a __nv_ function is called) and makes every
 * definition but the kernels internal, so that unused code goes away. The bitcode is
 * parsed from the bytes read once per translation, into this unit's context. */
static int link_libdevice(cg_module *m, const cg_libdevice *lib, char **err) {
  if (m->target != REMAT_TARGET_NVPTX64 || m->libdevice_linked || !cg_uses_libdevice(m))
    return 0;
  if (!lib || !lib->bytes)
    remat_fatal("libdevice is needed but was not loaded");
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRange(lib->bytes, lib->size, "libdevice", 0);
  LLVMModuleRef mod;
  bool bad = LLVMParseBitcodeInContext2(m->ctx, buf, &mod);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) {
    remat_error_add(err, "cannot parse libdevice '%s'", lib->path);
    return -1;
  }
  LLVMSetTarget(mod, LLVMGetTarget(m->mod));
  LLVMSetDataLayout(mod, LLVMGetDataLayoutStr(m->mod));
  if (LLVMLinkModules2(m->mod, mod))
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

int cg_optimize(cg_module *m, int sm, int opt_level, const cg_libdevice *lib, char **err) {
  if (opt_level == 0)
    return 0;
  if (link_libdevice(m, lib, err))
    return -1;
  run_passes(m, sm, "default<O3>");
  return 0;
}

/* PTX has one namespace per module: the internal functions and globals of every unit
 * (libdevice's functions and tables, helpers, shared-memory arrays) are renamed
 * `<entry>.<name>` unless they already start so, which keeps them apart when the units'
 * PTX is concatenated (NVPTX writes '.' as "_$_"). */
static void prefix_internal_symbols(cg_module *m, const char *entry) {
  size_t elen = strlen(entry);
  for (LLVMValueRef v = LLVMGetFirstFunction(m->mod); v; v = LLVMGetNextFunction(v)) {
    if (LLVMIsDeclaration(v) || LLVMGetFunctionCallConv(v) == LLVMPTXKernelCallConv)
      continue;
    size_t n;
    const char *name = LLVMGetValueName2(v, &n);
    if (n > elen && !strncmp(name, entry, elen) && name[elen] == '.')
      continue;
    char *full = xasprintf("%s.%.*s", entry, (int)n, name);
    LLVMSetValueName2(v, full, strlen(full));
    free(full);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m->mod); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsDeclaration(g))
      continue;
    size_t n;
    const char *name = LLVMGetValueName2(g, &n);
    if (n > elen && !strncmp(name, entry, elen) && name[elen] == '.')
      continue;
    char *full = xasprintf("%s.%.*s", entry, (int)n, name);
    LLVMSetValueName2(g, full, strlen(full));
    free(full);
  }
}

static char *buffer_copy(LLVMMemoryBufferRef buf, size_t *len) {
  size_t n = LLVMGetBufferSize(buf);
  char *s = xmalloc(n + 1);
  memcpy(s, LLVMGetBufferStart(buf), n);
  s[n] = 0;
  *len = n;
  LLVMDisposeMemoryBuffer(buf);
  return s;
}

int cg_emit(cg_module *m, int sm, cg_artifact kind, const cg_libdevice *lib, const char *entry,
            char **out, size_t *len, char **err) {
  *out = NULL;
  *len = 0;
  if (kind == CG_ARTIFACT_PTX) {
    if (!m->libdevice_linked && cg_uses_libdevice(m)) {
      if (link_libdevice(m, lib, err))
        return -1;
      run_passes(m, sm, "globaldce"); /* -O0: drop the libdevice functions not called */
    }
    prefix_internal_symbols(m, entry);
  }
  LLVMTargetMachineRef tm = target_machine(m->target, sm, kind == CG_ARTIFACT_OBJECT);
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  LLVMCodeGenFileType ft = kind == CG_ARTIFACT_PTX ? LLVMAssemblyFile : LLVMObjectFile;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m->mod, ft, &msg, &buf)) {
    remat_error_add(err, "%s emission failed: %s", kind == CG_ARTIFACT_PTX ? "PTX" : "object",
                    msg ? msg : "");
    LLVMDisposeMessage(msg);
    LLVMDisposeTargetMachine(tm);
    return -1;
  }
  LLVMDisposeTargetMachine(tm);
  *out = buffer_copy(buf, len);
  return 0;
}
