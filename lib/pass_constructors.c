/* pass_constructors.c: the typed constructors of remat-c/Passes.h, each a thin wrapper
 * over the pass's registry entry (so typed and textual options build the same pass). */
#include "remat-c/Passes.h"

extern const RematPassInfo remat_checkpoint_pass;
extern const RematPassInfo remat_mincut_pass;
extern const RematPassInfo remat_fuse_pass;
extern const RematPassInfo remat_autodiff_pass;

void rematCheckpointOptionsInit(RematCheckpointOptions *o) {
  remat_checkpoint_pass.init_options(o);
}

MlirPass rematCreateCheckpointPass(const RematCheckpointOptions *o, char *err, size_t cap) {
  return rematCreatePassFromOptions(&remat_checkpoint_pass, o, err, cap);
}

void rematMincutOptionsInit(RematMincutOptions *o) { remat_mincut_pass.init_options(o); }

MlirPass rematCreateMincutPass(const RematMincutOptions *o, char *err, size_t cap) {
  return rematCreatePassFromOptions(&remat_mincut_pass, o, err, cap);
}

void rematFuseOptionsInit(RematFuseOptions *o) { remat_fuse_pass.init_options(o); }

MlirPass rematCreateFusePass(const RematFuseOptions *o, char *err, size_t cap) {
  return rematCreatePassFromOptions(&remat_fuse_pass, o, err, cap);
}

void rematAutodiffOptionsInit(RematAutodiffOptions *o) { remat_autodiff_pass.init_options(o); }

MlirPass rematCreateAutodiffPass(const RematAutodiffOptions *o, char *err, size_t cap) {
  return rematCreatePassFromOptions(&remat_autodiff_pass, o, err, cap);
}
