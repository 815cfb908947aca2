/* pass_constructors.c: the typed constructors of remat-c/Passes.h, each a thin wrapper
 * over the pass's registry entry (so typed and textual options build the same pass). */
#include "passes.h"

#define TYPED_CONSTRUCTORS(Name, S, entry)                              \
  void remat##Name##OptionsInit(S *o) { entry.init_options(o); }        \
  MlirPass rematCreate##Name##Pass(const S *o, char *err, size_t cap) { \
    return rematCreatePassFromOptions(&entry, o, err, cap);             \
  }

TYPED_CONSTRUCTORS(Checkpoint, RematCheckpointOptions, remat_checkpoint_pass)
TYPED_CONSTRUCTORS(Mincut, RematMincutOptions, remat_mincut_pass)
TYPED_CONSTRUCTORS(Fuse, RematFuseOptions, remat_fuse_pass)
TYPED_CONSTRUCTORS(Autodiff, RematAutodiffOptions, remat_autodiff_pass)
