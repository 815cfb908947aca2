/* passes.h: what every pass file shares (private): the registry entries of the passes,
 * the one way a pass file defines its entry, and the one wrapper of
 * mlirCreateExternalPass.
 *
 * A pass file (passes/<name>.c, a row of REMAT_PASSES in remat-c/Passes.h) has, at its
 * top, its contract (what it requires, keeps and breaks: the one text of it, which
 * remat-opt --help prints and docs/design.md is generated from), and at its bottom:
 *
 *   static int check_options(const void *options, char *error, size_t cap);
 *   static MlirPass create(const void *options);    -- remat_pass_create(...)
 *   REMAT_PASS_INFO(fuse, Fuse, REMAT_FUSE_OPTIONS, "summary", contract, check_options,
 *                   create);
 *
 * where REMAT_FUSE_OPTIONS is the pass's option list in remat-c/Passes.h: the options
 * struct, the defaults, the rows of --help and the text parser all come from that one
 * declaration. The layer's own functions below are defined in passes/pass_info.c. */
#ifndef REMAT_PASSES_H
#define REMAT_PASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"

/* The registry entries remat_<name>_pass, one per row of REMAT_PASSES (api/pass_registry.c
 * lists them in its order). */
#define REMAT_PASS_ENTRY_DECL(name, ...) extern const RematPassInfo remat_##name##_pass;
REMAT_PASSES(REMAT_PASS_ENTRY_DECL, REMAT_PASS_ENTRY_DECL)
#undef REMAT_PASS_ENTRY_DECL

/* Runs once per builtin.module with the pass's state. */
typedef void (*remat_pass_run)(MlirOperation module, MlirExternalPass pass, void *state);

/* The MlirPass of registry entry INFO named NAME ("RematFuse": what timing and IR dumps
 * print), anchored on builtin.module, described by INFO's summary, with INFO's address
 * as its TypeID. It owns a copy of STATE (SIZE plain bytes, copied again for each clone
 * the pass manager makes) and hands it to RUN. */
MlirPass remat_pass_create(const RematPassInfo *info, const char *name, remat_pass_run run,
                           const void *state, size_t size);

/* The func.funcs of MODULE (at any depth, never inside another func.func) for which
 * WANT holds, in walk order: what a pass runs on. ITEMS is the caller's to free. */
typedef struct remat_func_list {
  MlirOperation *items;
  size_t n, cap;
} remat_func_list;
remat_func_list remat_pass_funcs(MlirOperation module, bool (*want)(MlirOperation func));

/* Sets every option of OPTIONS (a struct of INFO's type) to its declared default. */
void remat_options_set_defaults(const RematPassInfo *info, void *options);

/* Sets option O of OPTIONS from the text V (as the textual syntax writes it): 0, or -1
 * with a message added to *ERR. */
int remat_option_set(const RematOptionInfo *o, void *options, const char *v, char **err);

/* One RematOptionInfo row of an option list entry. */
#define REMAT_OPTION_ROW(S, field, name, type, def, help) \
  {name, REMAT_OPTION_##type, offsetof(S, field), help, def},

/* The registry entry remat_<name>_pass of the pass of row (name, Name, LIST) of
 * REMAT_PASSES, whose flag is --remat-<name> and whose options struct RematNameOptions is
 * declared by the list LIST. */
#define REMAT_PASS_INFO(name, Name, LIST, summary, contract, check, create)  \
  static const RematOptionInfo remat_##name##_options[] = {                  \
      LIST(REMAT_OPTION_ROW, Remat##Name##Options)};                         \
  static void remat_##name##_init(void *options);                            \
  const RematPassInfo remat_##name##_pass = {                                \
      "remat-" #name,                                                        \
      summary,                                                               \
      contract,                                                              \
      remat_##name##_options,                                                \
      (int)(sizeof remat_##name##_options / sizeof *remat_##name##_options), \
      sizeof(Remat##Name##Options),                                          \
      remat_##name##_init,                                                   \
      check,                                                                 \
      create};                                                               \
  static void remat_##name##_init(void *options) {                           \
    remat_options_set_defaults(&remat_##name##_pass, options);               \
  }

/* The same for a pass without options (a NONE row). */
#define REMAT_PASS_INFO_NO_OPTIONS(name, summary, contract, create)                              \
  static void remat_##name##_init(void *options) { (void)options; }                              \
  const RematPassInfo remat_##name##_pass = {"remat-" #name,      summary, contract, NULL, 0, 0, \
                                             remat_##name##_init, NULL,    create};

#endif
