/* pass_registry.c: every pass remat has, in pipeline order. A pass is listed once it is
 * implemented: every entry has a constructor. */
#include <string.h>

#include "passes.h"

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
