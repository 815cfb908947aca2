/* pass_registry.c: every pass remat has, in pipeline order, and the one wrapper of
 * mlirCreateExternalPass that builds them (passes.h). A pass is listed once it is
 * implemented: every entry has a constructor. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "support.h"

static const RematPassInfo *const passes[] = {
    &remat_autodiff_pass, &remat_checkpoint_pass, &remat_mincut_pass,
    &remat_fuse_pass,     &remat_verify_pass, /* a check, not a stage: usable anywhere in a pipeline */
};

const RematPassInfo *rematGetPassInfo(intptr_t i) {
  return i >= 0 && i < (intptr_t)(sizeof passes / sizeof *passes) ? passes[i] : NULL;
}

const RematPassInfo *rematLookupPass(const char *argument) {
  for (intptr_t i = 0; rematGetPassInfo(i); i++)
    if (!strcmp(passes[i]->argument, argument))
      return passes[i];
  return NULL;
}

/* ---- the external pass: state copied per clone -------------------------------------- */

typedef struct pass_state {
  remat_pass_run run;
  size_t size;
  _Alignas(max_align_t) unsigned char data[];
} pass_state;

static pass_state *state_new(remat_pass_run run, const void *data, size_t size) {
  pass_state *s = xmalloc(sizeof *s + size);
  s->run = run;
  s->size = size;
  if (size)
    memcpy(s->data, data, size);
  return s;
}

static void construct(void *ud) { (void)ud; }
static void destruct(void *ud) { free(ud); }

static void *clone(void *ud) {
  const pass_state *s = ud;
  return state_new(s->run, s->data, s->size);
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  pass_state *s = ud;
  s->run(module, pass, s->data);
}

MlirPass remat_pass_create(const RematPassInfo *info, const char *name, remat_pass_run fn,
                           const void *state, size_t size) {
  MlirExternalPassCallbacks cb = {construct, destruct, NULL, clone, run};
  /* The registry entry is a static object: its address is the pass's TypeID (aligned as
   * mlirTypeIDCreate requires, since the entry holds pointers). */
  return mlirCreateExternalPass(
      mlirTypeIDCreate(info), mlirStringRefCreateFromCString(name),
      mlirStringRefCreateFromCString(info->argument), mlirStringRefCreateFromCString(info->summary),
      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, cb, state_new(fn, state, size));
}
