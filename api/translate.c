/* translate.c: rematTranslate (remat-c/Translate.h), the public face of lib/codegen:
 * checks the options, runs remat's verifier, lowers and prints. */
#include <stdio.h>
#include <stdlib.h>

#include "codegen.h"
#include "remat-c/Translate.h"
#include "rt.h"
#include "support.h"

void rematTranslateOptionsInit(RematTranslateOptions *o) {
  *o = (RematTranslateOptions){REMAT_TRANSLATE_NVPTX64, REMAT_TRANSLATE_PTX, 90, 3, 0, NULL, NULL};
}

bool rematTranslateSmIsValid(int sm) { return remat_codegen_sm_is_valid(sm); }

char *rematTranslate(MlirOperation module, const RematTranslateOptions *o, char **manifest,
                     char *err, size_t cap) {
  if (manifest)
    *manifest = NULL;
  if (o->target != REMAT_TRANSLATE_NVPTX64 && o->target != REMAT_TRANSLATE_HOST) {
    snprintf(err, cap, "unknown target %d", (int)o->target);
    return NULL;
  }
  if (o->emit != REMAT_TRANSLATE_PTX && o->emit != REMAT_TRANSLATE_LLVM_IR) {
    snprintf(err, cap, "unknown output kind %d", (int)o->emit);
    return NULL;
  }
  if (o->emit == REMAT_TRANSLATE_PTX && o->target != REMAT_TRANSLATE_NVPTX64) {
    snprintf(err, cap, "PTX needs the nvptx64 target");
    return NULL;
  }
  if (o->target == REMAT_TRANSLATE_NVPTX64 && !remat_codegen_sm_is_valid(o->sm)) {
    snprintf(err, cap, "invalid compute capability %d (expected one such as 80, 89, 90)", o->sm);
    return NULL;
  }
  if (o->opt_level != 0 && o->opt_level != 3) {
    snprintf(err, cap, "invalid optimization level %d (expected 0 or 3)", o->opt_level);
    return NULL;
  }
  if (o->jobs < 0) {
    snprintf(err, cap, "invalid number of jobs %d (expected 0 for one per core, or more)", o->jobs);
    return NULL;
  }
  snprintf(err, cap, "%s", ""); /* IR errors: the diagnostics say it */
  if (mlirLogicalResultIsFailure(rematVerify(module)))
    return NULL;
  MlirOperation ext = rt_find_op(module, RT_OP_EXTERN); /* its host function has no code */
  if (!mlirOperationIsNull(ext)) {
    MlirStringRef name = rt_op_label(ext);
    rt_emit_error(ext, "remat-translate cannot compile 'rt.extern' (%.*s): remat does not model it",
                  (int)name.length, name.data);
    return NULL;
  }
  remat_codegen_options cg_opts = {
      .target = o->target == REMAT_TRANSLATE_HOST ? REMAT_TARGET_HOST : REMAT_TARGET_NVPTX64,
      .sm = o->sm,
      .opt_level = o->opt_level};
  remat_codegen *cg = remat_codegen_create(module, &cg_opts);
  if (!cg)
    return NULL;
  remat_codegen_set_compile(cg, o->jobs, o->cache_dir);
  /* The manifest first: emitting PTX runs LLVM's code generator on the module. */
  char *m = manifest ? remat_codegen_manifest(cg) : NULL;
  char *msg = NULL;
  char *text = o->emit == REMAT_TRANSLATE_PTX ? remat_codegen_ptx(cg, &msg)
                                              : remat_codegen_llvm_ir(cg, &msg);
  remat_error_copy(msg, err, cap);
  if (o->stats) {
    const remat_codegen_stats *st = remat_codegen_get_stats(cg);
    *o->stats = (RematTranslateStats){st->units, st->jobs, st->cache_hits, st->cache_misses,
                                      st->cache_corrupt};
  }
  remat_codegen_destroy(cg);
  if (!text)
    free(m);
  else if (manifest)
    *manifest = m;
  return text;
}
