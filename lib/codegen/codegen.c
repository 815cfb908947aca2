/* codegen.c: the driver. Walks a module in order, lowers each rt.kernel function and each
 * reduction of the other functions into one LLVM module, verifies it, optimizes it, and
 * prints it as LLVM IR, PTX or a manifest. See codegen.h for the ABI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm-c/Analysis.h"
#include "codegen_internal.h"
#include "rt.h"

struct remat_codegen {
  cg_module m;
  remat_codegen_options opts;
  remat_cg_function *fns;
  int num_fns, cap_fns;
  bool module_taken; /* handed to the JIT */
};

static remat_cg_function *new_function(remat_codegen *cg) {
  if (cg->num_fns == cg->cap_fns) {
    cg->cap_fns = cg->cap_fns ? 2 * cg->cap_fns : 8;
    cg->fns = xrealloc(cg->fns, (size_t)cg->cap_fns, sizeof *cg->fns);
  }
  remat_cg_function *f = &cg->fns[cg->num_fns++];
  memset(f, 0, sizeof *f);
  return f;
}

static bool is_func(MlirOperation op) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func");
}

static bool is_kernel(MlirOperation func) {
  return !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("rt.kernel")));
}

/* The reductions of a host function, in order: `<fn>_r<N>`. */
static int lower_reductions(remat_codegen *cg, MlirOperation func) {
  MlirBlock body = rt_func_entry_block(func);
  if (mlirBlockIsNull(body))
    return 0;
  MlirStringRef fname = rt_func_name(func);
  int n = 0, errors = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    rt_op_id id = rt_op_lookup(op);
    if (id != RT_OP_SUM && id != RT_OP_AMAX)
      continue;
    char *name = xasprintf("%.*s_r%d", (int)fname.length, fname.data, n++);
    errors += cg_emit_reduction(&cg->m, op, name, new_function(cg)) != 0;
    free(name);
  }
  return errors;
}

static void module_init(cg_module *m, remat_target target) {
  m->target = target;
  m->ctx = LLVMContextCreate();
  m->mod = LLVMModuleCreateWithNameInContext("remat", m->ctx);
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

remat_codegen *remat_codegen_create(MlirOperation module, const remat_codegen_options *opts) {
  if (opts->target == REMAT_TARGET_NVPTX64 && !remat_codegen_sm_is_valid(opts->sm))
    remat_fatal("unsupported sm_%d (callers check remat_codegen_sm_is_valid)", opts->sm);
  remat_codegen *cg = xcalloc(1, sizeof *cg);
  cg->opts = *opts;
  module_init(&cg->m, opts->target);
  cg_set_target(&cg->m, opts->sm);
  int errors = 0;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_func(op))
      continue;
    if (is_kernel(op)) {
      remat_cg_function *f = new_function(cg);
      if (cg_emit_kernel(&cg->m, op, f)) {
        errors++;
        free(f->name);
        free(f->params);
        cg->num_fns--;
      }
    } else
      errors += lower_reductions(cg, op);
  }
  if (errors) {
    remat_codegen_destroy(cg);
    return NULL;
  }
  char *msg = NULL;
  if (LLVMVerifyModule(cg->m.mod, LLVMReturnStatusAction, &msg)) {
    LLVMDumpModule(cg->m.mod);
    remat_fatal("the LLVM module does not verify: %s", msg);
  }
  LLVMDisposeMessage(msg);
  char err[512];
  if (cg_optimize(&cg->m, opts->sm, opts->opt_level, err, sizeof err)) {
    rt_emit_error(module, "%s", err);
    remat_codegen_destroy(cg);
    return NULL;
  }
  return cg;
}

void remat_codegen_destroy(remat_codegen *cg) {
  if (!cg)
    return;
  for (int i = 0; i < cg->num_fns; i++) {
    free(cg->fns[i].name);
    free(cg->fns[i].params);
  }
  free(cg->fns);
  if (cg->m.b)
    LLVMDisposeBuilder(cg->m.b);
  if (!cg->module_taken) {
    LLVMDisposeModule(cg->m.mod);
    LLVMContextDispose(cg->m.ctx);
  }
  free(cg);
}

int remat_codegen_num_functions(const remat_codegen *cg) { return cg->num_fns; }

const remat_cg_function *remat_codegen_function(const remat_codegen *cg, int index) {
  return index >= 0 && index < cg->num_fns ? &cg->fns[index] : NULL;
}

char *remat_codegen_llvm_ir(remat_codegen *cg) {
  if (cg->module_taken)
    remat_fatal("the module was handed to the JIT");
  char *s = LLVMPrintModuleToString(cg->m.mod), *copy = xstrdup(s);
  LLVMDisposeMessage(s);
  return copy;
}

char *remat_codegen_ptx(remat_codegen *cg, char *err, size_t err_cap) {
  if (cg->module_taken || cg->opts.target != REMAT_TARGET_NVPTX64)
    remat_fatal("PTX needs an nvptx64 module that is still held");
  return cg_emit_ptx(&cg->m, cg->opts.sm, err, err_cap);
}

char *remat_codegen_manifest(const remat_codegen *cg) {
  char *text = NULL, tb[256];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    remat_fatal("open_memstream failed");
  for (int i = 0; i < cg->num_fns; i++) {
    const remat_cg_function *fn = &cg->fns[i];
    fprintf(f, "%s %s numel=%lld", fn->kind == REMAT_CG_KERNEL ? "kernel" : "reduction",
            fn->name, (long long)fn->numel);
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

void cg_take_module(remat_codegen *cg, LLVMContextRef *ctx, LLVMModuleRef *mod) {
  if (cg->module_taken || cg->opts.target != REMAT_TARGET_HOST)
    remat_fatal("the JIT needs a host module that is still held");
  LLVMDisposeBuilder(cg->m.b);
  cg->m.b = NULL;
  *ctx = cg->m.ctx;
  *mod = cg->m.mod;
  cg->module_taken = true;
}
