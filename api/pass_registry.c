/* pass_registry.c: every pass remat has, in pipeline order: the rows of REMAT_PASSES
 * (remat-c/Passes.h). */
#include <string.h>

#include "passes.h"

static const RematPassInfo *const passes[] = {
#define REMAT_PASS_ENTRY(name, ...) &remat_##name##_pass,
    REMAT_PASSES(REMAT_PASS_ENTRY, REMAT_PASS_ENTRY)
#undef REMAT_PASS_ENTRY
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
