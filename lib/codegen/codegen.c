/* codegen.c: the driver. Walks a module in order and lowers each rt.kernel function and
 * each reduction of the other functions into a *unit*: an LLVM module of its own, in its
 * own LLVMContext (LLVM contexts are not thread-safe; MLIR is only read here, on the
 * calling thread, so diagnostics come out in module order). Then, for an output, every
 * unit is optimized and emitted on its own, on `jobs` threads, and the results are put
 * together in unit order: PTX texts concatenated under one header, host objects added to
 * the JIT. A unit's output depends only on the unit, so the output is the same bytes
 * whatever the number of threads, and a unit can be cached on disk by its content
 * (codegen_cache.c). LLVM IR, a reading output, links the units first and optimizes them
 * as one module. See codegen.h for the ABI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/Analysis.h"
#include "llvm-c/BitReader.h"
#include "llvm-c/BitWriter.h"
#include "llvm-c/Linker.h"
#include "codegen_internal.h"
#include "rt.h"

/* Bump when the lowering after the unit's LLVM IR changes (passes, emission, renaming):
 * part of every cache key. */
#define CACHE_FORMAT "remat-codegen-units 1"

typedef struct unit_out {
  char *data;
  size_t len;
  char *err; /* remat_error_add lines of a failure, NULL if none */
  int failed;
  cg_cache_result cache;
  char *key; /* with a cache: the unit's key */
  size_t key_len;
} unit_out;

struct remat_codegen {
  remat_codegen_options opts;
  int jobs;               /* 0: one per core */
  char *cache_dir;        /* NULL: no cache */
  remat_cg_function *fns; /* fns[i] is lowered into units[i] */
  cg_module *units;
  int num_fns, cap_fns;
  char *triple, *layout;
  bool consumed; /* the units were compiled into an output */
  remat_codegen_stats stats;
};

static void module_init(cg_module *m, remat_target target, const char *name, const char *triple,
                        const char *layout) {
  memset(m, 0, sizeof *m);
  m->target = target;
  m->ctx = LLVMContextCreate();
  m->mod = LLVMModuleCreateWithNameInContext(name, m->ctx);
  LLVMSetTarget(m->mod, triple);
  LLVMSetDataLayout(m->mod, layout);
  m->b = LLVMCreateBuilderInContext(m->ctx);
  m->void_t = LLVMVoidTypeInContext(m->ctx);
  m->i1 = LLVMInt1TypeInContext(m->ctx);
  m->i8 = LLVMInt8TypeInContext(m->ctx);
  m->i16 = LLVMInt16TypeInContext(m->ctx);
  m->i32 = LLVMInt32TypeInContext(m->ctx);
  m->i64 = LLVMInt64TypeInContext(m->ctx);
  m->f32 = LLVMFloatTypeInContext(m->ctx);
  m->f64 = LLVMDoubleTypeInContext(m->ctx);
  m->ptr = LLVMPointerTypeInContext(m->ctx, target == REMAT_TARGET_NVPTX64 ? 1 : 0);
}

static void module_dispose(cg_module *m) {
  if (m->b)
    LLVMDisposeBuilder(m->b);
  if (m->mod)
    LLVMDisposeModule(m->mod);
  if (m->ctx)
    LLVMContextDispose(m->ctx);
  free(m->libdevice_calls);
  memset(m, 0, sizeof *m);
}

/* A new function and its unit (a fresh module named name). */
static remat_cg_function *new_function(remat_codegen *cg, const char *name, cg_module **unit) {
  if (cg->num_fns == cg->cap_fns) {
    cg->cap_fns = cg->cap_fns ? 2 * cg->cap_fns : 8;
    cg->fns = xrealloc(cg->fns, (size_t)cg->cap_fns, sizeof *cg->fns);
    cg->units = xrealloc(cg->units, (size_t)cg->cap_fns, sizeof *cg->units);
  }
  remat_cg_function *f = &cg->fns[cg->num_fns];
  memset(f, 0, sizeof *f);
  *unit = &cg->units[cg->num_fns++];
  module_init(*unit, cg->opts.target, name, cg->triple, cg->layout);
  return f;
}

/* Drops the function just added (its lowering failed). */
static void drop_last_function(remat_codegen *cg) {
  remat_cg_function *f = &cg->fns[--cg->num_fns];
  free(f->name);
  free(f->params);
  module_dispose(&cg->units[cg->num_fns]);
}

static bool is_func(MlirOperation op) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func");
}

typedef int (*emit_fn)(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out);

/* Lowers op of host function fname into a function of its own, `<fname>_<tag><n>`; 1 on
 * a user error (diagnostic emitted, nothing added). */
static int lower_host_op(remat_codegen *cg, MlirOperation op, MlirStringRef fname, char tag, int n,
                         emit_fn emit) {
  char *name = xasprintf("%.*s_%c%d", (int)fname.length, fname.data, tag, n);
  cg_module *u;
  remat_cg_function *f = new_function(cg, name, &u);
  int failed = emit(u, op, name, f) != 0;
  if (failed)
    drop_last_function(cg);
  free(name);
  return failed;
}

/* The ops of a host function the codegen lowers, in order: its reductions `<fn>_r<N>`,
 * its indexing ops (gather, scatter_add, argmax) `<fn>_i<N>`, its conv ops (unless
 * skip_conv) `<fn>_c<N>`, its attention ops (unless skip_attention) `<fn>_a<N>`. */
static int lower_host_ops(remat_codegen *cg, MlirOperation func) {
  MlirBlock body = rt_func_entry_block(func);
  if (mlirBlockIsNull(body))
    return 0;
  MlirStringRef fname = rt_func_name(func);
  int n = 0, ni = 0, nc = 0, na = 0, errors = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    rt_op_id id = rt_op_lookup(op);
    if (rt_op_kind_of(id) == RT_KIND_INDEXING)
      errors += lower_host_op(cg, op, fname, 'i', ni++, cg_emit_indexing);
    else if (rt_op_kind_of(id) == RT_KIND_CONV && !cg->opts.skip_conv)
      errors += lower_host_op(cg, op, fname, 'c', nc++, cg_emit_conv);
    else if (rt_op_kind_of(id) == RT_KIND_ATTENTION && !cg->opts.skip_attention)
      errors += lower_host_op(cg, op, fname, 'a', na++, cg_emit_attention);
    else if (id == RT_OP_SUM || id == RT_OP_AMAX)
      errors += lower_host_op(cg, op, fname, 'r', n++, cg_emit_reduction);
  }
  return errors;
}

remat_codegen *remat_codegen_create(MlirOperation module, const remat_codegen_options *opts) {
  if (opts->target == REMAT_TARGET_NVPTX64 && !remat_codegen_sm_is_valid(opts->sm))
    remat_fatal("unsupported sm_%d (callers check remat_codegen_sm_is_valid)", opts->sm);
  remat_codegen *cg = xcalloc(1, sizeof *cg);
  cg->opts = *opts;
  cg_target_strings(opts->target, opts->sm, &cg->triple, &cg->layout);
  int errors = 0;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_func(op))
      continue;
    if (rt_func_is_kernel(op)) {
      MlirStringRef name = rt_func_name(op);
      char *cname = xstrndup(name.data, name.length);
      cg_module *u;
      remat_cg_function *f = new_function(cg, cname, &u);
      free(cname);
      if (cg_emit_kernel(u, op, f)) {
        errors++;
        drop_last_function(cg);
      }
    } else
      errors += lower_host_ops(cg, op);
  }
  if (errors) {
    remat_codegen_destroy(cg);
    return NULL;
  }
  for (int i = 0; i < cg->num_fns; i++) {
    cg_module *u = &cg->units[i];
    char *msg = NULL;
    if (LLVMVerifyModule(u->mod, LLVMReturnStatusAction, &msg)) {
      LLVMDumpModule(u->mod);
      remat_fatal("the LLVM module of '%s' does not verify: %s", cg->fns[i].name, msg);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeBuilder(u->b);
    u->b = NULL;
    u->uses_libdevice = u->target == REMAT_TARGET_NVPTX64 && cg_uses_libdevice(u);
    u->libdevice_calls = u->uses_libdevice ? cg_libdevice_calls(u) : NULL;
  }
  return cg;
}

void remat_codegen_destroy(remat_codegen *cg) {
  if (!cg)
    return;
  for (int i = 0; i < cg->num_fns; i++) {
    free(cg->fns[i].name);
    free(cg->fns[i].params);
    module_dispose(&cg->units[i]);
  }
  free(cg->fns);
  free(cg->units);
  free(cg->triple);
  free(cg->layout);
  free(cg->cache_dir);
  free(cg);
}

int remat_codegen_num_functions(const remat_codegen *cg) { return cg->num_fns; }

const remat_cg_function *remat_codegen_function(const remat_codegen *cg, int index) {
  return index >= 0 && index < cg->num_fns ? &cg->fns[index] : NULL;
}

void remat_codegen_set_compile(remat_codegen *cg, int jobs, const char *cache_dir) {
  cg->jobs = jobs > 0 ? jobs : 0;
  free(cg->cache_dir);
  cg->cache_dir = cache_dir && *cache_dir ? xstrdup(cache_dir) : NULL;
}

const remat_codegen_stats *remat_codegen_get_stats(const remat_codegen *cg) { return &cg->stats; }

/* ---- compiling the units ------------------------------------------------------------ */

typedef struct compile_job {
  remat_codegen *cg;
  cg_artifact kind;
  const cg_libdevice *lib;       /* the whole of libdevice (its digest) */
  const cg_libdevice **unit_lib; /* [i]: what unit i links (NULL: nothing) */
  const char *host_cpu;          /* host objects: the CPU they are compiled for */
  unit_out *outs;
} compile_job;

/* Everything a unit's artifact depends on, for the cache: the format of this file, LLVM's
 * version, the artifact, target, sm, CPU, opt level, libdevice and the unit's IR. */
static char *cache_key(const compile_job *j, int i, size_t *len) {
  cg_module *u = &j->cg->units[i];
  unsigned maj, min, patch;
  LLVMGetVersion(&maj, &min, &patch);
  char dig[65] = "none";
  if (u->uses_libdevice)
    for (int b = 0; b < 32; b++)
      snprintf(dig + 2 * b, 3, "%02x", j->lib->digest[b]);
  static const char *kinds[] = {"ptx", "object"};
  char *ir = LLVMPrintModuleToString(u->mod);
  char *key = xasprintf("%s\nllvm %u.%u.%u\nartifact %s\ntarget %s sm %d cpu %s\nopt %d\n"
                        "libdevice %s\nentry %s\n%s",
                        CACHE_FORMAT, maj, min, patch, kinds[j->kind], j->cg->triple,
                        j->cg->opts.sm, j->host_cpu ? j->host_cpu : "-", j->cg->opts.opt_level, dig,
                        j->cg->fns[i].name, ir);
  LLVMDisposeMessage(ir);
  *len = strlen(key);
  return key;
}

/* Looks unit i up in the cache (before libdevice is parsed, which a unit found there does
 * not need); a miss keeps its key for the store. */
static void probe_unit(void *ctx, int i) {
  compile_job *j = ctx;
  unit_out *o = &j->outs[i];
  o->key = cache_key(j, i, &o->key_len);
  o->cache = cg_cache_get(j->cg->cache_dir, o->key, o->key_len, &o->data, &o->len);
}

static void compile_unit(void *ctx, int i) {
  compile_job *j = ctx;
  remat_codegen *cg = j->cg;
  cg_module *u = &cg->units[i];
  unit_out *o = &j->outs[i];
  if (o->cache != CG_CACHE_HIT) {
    const cg_libdevice *lib = j->unit_lib[i];
    o->failed = cg_optimize(u, cg->opts.sm, cg->opts.opt_level, lib, &o->err) ||
                cg_emit(u, cg->opts.sm, j->kind, lib, cg->fns[i].name, &o->data, &o->len, &o->err);
    if (!o->failed && o->key)
      cg_cache_put(cg->cache_dir, o->key, o->key_len, o->data, o->len);
  }
  module_dispose(u); /* frees its memory as early as possible */
}

/* Compiles every unit into kind; outs[i] for unit i. -1 with the first failing unit's
 * message (in unit order, whatever the threads did). */
static int compile_units(remat_codegen *cg, cg_artifact kind, unit_out **outs_p, char **err) {
  if (cg->consumed)
    remat_fatal("the units were already compiled (one output per remat_codegen)");
  cg->consumed = true;
  unit_out *outs = xcalloc((size_t)cg->num_fns + 1, sizeof *outs);
  *outs_p = outs;
  cg_libdevice lib;
  memset(&lib, 0, sizeof lib);
  bool need_lib = false;
  for (int i = 0; i < cg->num_fns; i++)
    need_lib |= cg->units[i].uses_libdevice;
  if (need_lib && cg_libdevice_load(&lib, err))
    return -1;
  const cg_libdevice **unit_lib = xcalloc((size_t)cg->num_fns + 1, sizeof *unit_lib);
  char *host_cpu = cg->opts.target == REMAT_TARGET_HOST ? cg_host_cpu() : NULL;
  compile_job job = {cg, kind, &lib, unit_lib, host_cpu, outs};
  int jobs = cg->jobs > 0 ? cg->jobs : cg_default_jobs();
  if (cg->cache_dir) {
    cg_parallel_for(cg->num_fns, jobs, probe_unit, &job);
    bool all_found = true;
    for (int i = 0; i < cg->num_fns; i++)
      all_found &= outs[i].cache == CG_CACHE_HIT;
    if (all_found)
      need_lib = false; /* nothing to link */
  }
  /* libdevice parsed once, here, and cut down for each distinct set of functions the
   * units to compile call (a function of the unit alone, so the output stays independent
   * of the other units and of the threads). */
  cg_libdevice *subsets = NULL;
  const char **subset_calls = NULL;
  int num_subsets = 0;
  if (need_lib) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef parsed = cg_libdevice_parse(&lib, ctx, err);
    if (!parsed) {
      LLVMContextDispose(ctx);
      cg_libdevice_free(&lib);
      free(unit_lib);
      free(host_cpu);
      return -1;
    }
    subsets = xcalloc((size_t)cg->num_fns, sizeof *subsets);
    subset_calls = xcalloc((size_t)cg->num_fns, sizeof *subset_calls);
    for (int i = 0; i < cg->num_fns; i++) {
      const char *calls = cg->units[i].libdevice_calls;
      if (!calls || outs[i].cache == CG_CACHE_HIT)
        continue;
      int k = 0;
      while (k < num_subsets && strcmp(subset_calls[k], calls))
        k++;
      if (k == num_subsets) {
        cg_libdevice_subset(&lib, parsed, calls, &subsets[k]);
        subset_calls[num_subsets++] = calls;
      }
      unit_lib[i] = &subsets[k];
    }
    LLVMDisposeModule(parsed);
    LLVMContextDispose(ctx);
  }
  cg_parallel_for(cg->num_fns, jobs, compile_unit, &job);
  for (int k = 0; k < num_subsets; k++)
    cg_libdevice_free(&subsets[k]);
  free(subsets);
  free(subset_calls);
  free(unit_lib);
  cg_libdevice_free(&lib);
  free(host_cpu);
  cg->stats = (remat_codegen_stats){cg->num_fns, jobs < cg->num_fns ? jobs : cg->num_fns, 0, 0, 0};
  int rc = 0;
  for (int i = 0; i < cg->num_fns; i++) {
    if (cg->cache_dir) {
      cg->stats.cache_hits += outs[i].cache == CG_CACHE_HIT;
      cg->stats.cache_misses += outs[i].cache != CG_CACHE_HIT;
      cg->stats.cache_corrupt += outs[i].cache == CG_CACHE_CORRUPT;
    }
    if (outs[i].failed && rc == 0) {
      remat_error_add(err, "%s", outs[i].err);
      rc = -1;
    }
  }
  return rc;
}

static void outs_free(unit_out *outs, int n) {
  for (int i = 0; i < n; i++) {
    free(outs[i].data);
    free(outs[i].err);
    free(outs[i].key);
  }
  free(outs);
}

/* The length of the PTX header LLVM writes before a module's first declaration (comment,
 * .version, .target, .address_size): the same for every unit of one target. */
static size_t ptx_header_len(const char *ptx) {
  const char *a = strstr(ptx, "\n.address_size ");
  if (!a)
    remat_fatal("PTX without .address_size");
  const char *eol = strchr(a + 1, '\n');
  return eol ? (size_t)(eol + 1 - ptx) : strlen(ptx);
}

char *remat_codegen_ptx(remat_codegen *cg, char **err) {
  if (cg->opts.target != REMAT_TARGET_NVPTX64)
    remat_fatal("PTX needs an nvptx64 codegen");
  unit_out *outs;
  if (compile_units(cg, CG_ARTIFACT_PTX, &outs, err)) {
    outs_free(outs, cg->num_fns);
    return NULL;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    remat_fatal("open_memstream failed");
  if (cg->num_fns == 0) { /* an empty module still has a header */
    cg_module m;
    module_init(&m, cg->opts.target, "remat", cg->triple, cg->layout);
    char *e = NULL;
    size_t elen;
    if (cg_emit(&m, cg->opts.sm, CG_ARTIFACT_PTX, NULL, "remat", &e, &elen, err)) {
      module_dispose(&m);
      fclose(f);
      free(text);
      outs_free(outs, 0);
      return NULL;
    }
    fwrite(e, 1, elen, f);
    free(e);
    module_dispose(&m);
  }
  for (int i = 0; i < cg->num_fns; i++) {
    size_t skip = i == 0 ? 0 : ptx_header_len(outs[i].data);
    fwrite(outs[i].data + skip, 1, outs[i].len - skip, f);
  }
  fclose(f);
  outs_free(outs, cg->num_fns);
  return text;
}

/* LLVM IR is a reading and debugging output: the units are linked, before optimization,
 * into one module, which is then optimized as a whole on the calling thread, so the text
 * is what one module holding every function gives (each helper once). Units define the
 * same internal helpers (remat.philox.bits, conversions, reduction trees) with the same
 * bodies: made linkonce_odr for the link, the linker keeps one of each, and they are
 * internal again afterwards. */
char *remat_codegen_llvm_ir(remat_codegen *cg, char **err) {
  if (cg->consumed)
    remat_fatal("the units were already compiled (one output per remat_codegen)");
  cg->consumed = true;
  cg_module m;
  module_init(&m, cg->opts.target, "remat", cg->triple, cg->layout);
  bool need_lib = false;
  for (int i = 0; i < cg->num_fns; i++) {
    cg_module *u = &cg->units[i];
    need_lib |= u->uses_libdevice;
    for (LLVMValueRef f = LLVMGetFirstFunction(u->mod); f; f = LLVMGetNextFunction(f))
      if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMInternalLinkage)
        LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(u->mod);
    module_dispose(u);
    LLVMModuleRef part;
    if (LLVMParseBitcodeInContext2(m.ctx, buf, &part))
      remat_fatal("cannot read back the bitcode of '%s'", cg->fns[i].name);
    LLVMDisposeMemoryBuffer(buf);
    if (LLVMLinkModules2(m.mod, part))
      remat_fatal("cannot link the unit of '%s'", cg->fns[i].name);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m.mod); f; f = LLVMGetNextFunction(f))
    if (LLVMGetLinkage(f) == LLVMLinkOnceODRLinkage)
      LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_libdevice lib;
  memset(&lib, 0, sizeof lib);
  char *copy = NULL;
  if ((!need_lib || cg->opts.opt_level == 0 || !cg_libdevice_load(&lib, err)) &&
      !cg_optimize(&m, cg->opts.sm, cg->opts.opt_level, &lib, err)) {
    char *s = LLVMPrintModuleToString(m.mod);
    copy = xstrdup(s);
    LLVMDisposeMessage(s);
  }
  cg_libdevice_free(&lib);
  module_dispose(&m);
  cg->stats = (remat_codegen_stats){cg->num_fns, 1, 0, 0, 0};
  return copy;
}

char *remat_codegen_manifest(const remat_codegen *cg) {
  char *text = NULL, tb[256];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    remat_fatal("open_memstream failed");
  for (int i = 0; i < cg->num_fns; i++) {
    const remat_cg_function *fn = &cg->fns[i];
    static const char *kinds[] = {"kernel", "reduction", "indexing", "conv", "attention"};
    fprintf(f, "%s %s numel=%lld", kinds[fn->kind], fn->name, (long long)fn->numel);
    if (fn->kind == REMAT_CG_REDUCTION || fn->row_len > 0)
      fprintf(f, " row=%lld block=%d", (long long)fn->row_len, REMAT_REDUCE_LANES);
    int in = 0, out = 0;
    for (int p = 0; p < fn->num_params; p++)
      fprintf(f, " %s%d:%s", fn->params[p].is_output ? "out" : "in",
              fn->params[p].is_output ? out++ : in++,
              rt_type_str(fn->params[p].type, tb, sizeof tb));
    fputc('\n', f);
  }
  fclose(f);
  return text;
}

int cg_compile_objects(remat_codegen *cg, char ***objects, size_t **lens, char **err) {
  if (cg->opts.target != REMAT_TARGET_HOST)
    remat_fatal("the JIT needs a host codegen");
  unit_out *outs;
  int rc = compile_units(cg, CG_ARTIFACT_OBJECT, &outs, err);
  *objects = xcalloc((size_t)cg->num_fns + 1, sizeof **objects);
  *lens = xcalloc((size_t)cg->num_fns + 1, sizeof **lens);
  for (int i = 0; i < cg->num_fns && rc == 0; i++) {
    (*objects)[i] = outs[i].data;
    (*lens)[i] = outs[i].len;
    outs[i].data = NULL;
  }
  outs_free(outs, cg->num_fns);
  return rc;
}
