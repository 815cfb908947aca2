/* pass_constructors.c: the typed constructors of remat-c/Passes.h, one pair per row of
 * REMAT_PASSES with options, each a thin wrapper over the pass's registry entry (so typed
 * and textual options build the same pass). */
#include "passes.h"

#define TYPED_CONSTRUCTORS(name, Name, LIST)                                                      \
  void remat##Name##OptionsInit(Remat##Name##Options *o) { remat_##name##_pass.init_options(o); } \
  MlirPass rematCreate##Name##Pass(const Remat##Name##Options *o, char *err, size_t cap) {        \
    return rematCreatePassFromOptions(&remat_##name##_pass, o, err, cap);                         \
  }
REMAT_PASSES(TYPED_CONSTRUCTORS, REMAT_PASS_NONE)
