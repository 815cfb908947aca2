/* passes.h: what every pass file shares (private): the registry entries of the passes,
 * the one way a pass file defines its entry, and the one wrapper of
 * mlirCreateExternalPass.
 *
 * A pass file (passes/<name>.c) has, at its bottom:
 *
 *   static int check_options(const void *options, char *error, size_t cap);
 *   static MlirPass create(const void *options);    -- remat_pass_create(...)
 *   REMAT_PASS_INFO(remat_fuse_pass, RematFuseOptions, REMAT_FUSE_OPTIONS, "remat-fuse",
 *                   "summary", contract, check_options, create);
 *
 * where REMAT_FUSE_OPTIONS is the pass's option list in remat-c/Passes.h: the options
 * struct, the defaults, the rows of --help and the text parser all come from that one
 * declaration. A new pass adds its entry below and to api/pass_registry.c. The layer's
 * own functions below are defined in passes/pass_info.c. */
#ifndef REMAT_PASSES_H
#define REMAT_PASSES_H

#include <stddef.h>

#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"

/* The registry entries, in pipeline order (api/pass_registry.c). */
extern const RematPassInfo remat_autodiff_pass;
extern const RematPassInfo remat_checkpoint_pass;
extern const RematPassInfo remat_mincut_pass;
extern const RematPassInfo remat_fuse_pass;
extern const RematPassInfo remat_verify_pass;

/* Runs once per builtin.module with the pass's state. */
typedef void (*remat_pass_run)(MlirOperation module, MlirExternalPass pass, void *state);

/* The MlirPass of registry entry INFO named NAME ("RematFuse": what timing and IR dumps
 * print), anchored on builtin.module, described by INFO's summary, with INFO's address
 * as its TypeID. It owns a copy of STATE (SIZE plain bytes, copied again for each clone
 * the pass manager makes) and hands it to RUN. */
MlirPass remat_pass_create(const RematPassInfo *info, const char *name, remat_pass_run run,
                           const void *state, size_t size);

/* Sets every option of OPTIONS (a struct of INFO's type) to its declared default. */
void remat_options_set_defaults(const RematPassInfo *info, void *options);

/* Sets option O of OPTIONS from the text V (as the textual syntax writes it): 0, or -1
 * with a message added to *ERR. */
int remat_option_set(const RematOptionInfo *o, void *options, const char *v, char **err);

/* One RematOptionInfo row of an option list entry. */
#define REMAT_OPTION_ROW(S, field, name, type, def, help) \
  {name, REMAT_OPTION_##type, offsetof(S, field), help, def},

/* The registry entry VAR of a pass whose options struct S is declared by the list LIST. */
#define REMAT_PASS_INFO(var, S, LIST, argument, summary, contract, check, create) \
  static const RematOptionInfo var##_options[] = {LIST(REMAT_OPTION_ROW, S)};     \
  static void var##_init(void *options);                                          \
  const RematPassInfo var = {argument,                                            \
                             summary,                                             \
                             contract,                                            \
                             var##_options,                                       \
                             (int)(sizeof var##_options / sizeof *var##_options), \
                             sizeof(S),                                           \
                             var##_init,                                          \
                             check,                                               \
                             create};                                             \
  static void var##_init(void *options) { remat_options_set_defaults(&var, options); }

/* The same for a pass without options. */
#define REMAT_PASS_INFO_NO_OPTIONS(var, argument, summary, contract, create) \
  static void var##_init(void *options) { (void)options; }                   \
  const RematPassInfo var = {argument, summary, contract, NULL, 0, 0, var##_init, NULL, create};

#endif
