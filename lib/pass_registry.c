/* pass_registry.c: every pass remat has, in pipeline order. A pass that is designed but
 * not implemented yet has a NULL constructor, so tools can say so instead of faking it. */
#include <string.h>

#include "remat-c/Remat.h"

extern const RematPassInfo remat_fuse_pass;
extern const RematPassInfo remat_verify_pass;
extern const RematPassInfo remat_checkpoint_pass;
extern const RematPassInfo remat_mincut_pass;
extern const RematPassInfo remat_autodiff_pass;

static const RematPassInfo *const passes[] = {
    &remat_autodiff_pass,
    &remat_checkpoint_pass,
    &remat_mincut_pass,
    &remat_fuse_pass,
    &remat_verify_pass, /* a check, not a stage: usable anywhere in a pipeline */
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
