/* remat-c/Passes.h: typed constructors for remat's passes.
 *
 * For each pass: an options struct (plain value, owned by the caller), a function that
 * sets it to the defaults, and a constructor. Set the defaults, change fields, build:
 *
 *   RematFuseOptions o;
 *   rematFuseOptionsInit(&o);
 *   o.max_ops = 8;
 *   MlirPass p = rematCreateFusePass(&o, err, sizeof err);
 *
 * Each pass's options are declared once, in its list REMAT_<PASS>_OPTIONS below: one
 * X(S, field, "name", TYPE, "default", "help") per option. The struct's fields, the
 * defaults rematXxxOptionsInit sets, the rows remat-opt --help prints and the textual
 * syntax (remat-opt --remat-fuse=max-ops=8, mlir-opt -p
 * 'builtin.module(remat-fuse{max-ops=8})', rematCreatePass) all come from it, so both ways
 * build the same pass. TYPE is BOOL (bool), INT (int64_t), DOUBLE (double), STRING (a
 * NUL-terminated char array of REMAT_OPTION_STRING_MAX bytes; a comma list is kept as
 * written) or FILE (the same array, naming a file); "default" is the value in the
 * textual syntax. A help text may name a macro of remat's private headers
 * (RT_KIND_NAMES: the op kinds of the dialect's table): the registry's rows are generated
 * where they are defined, and REMAT_OPTION_FIELD reads no help text.
 *
 * Conventions (as in remat-c/Remat.h): a constructor copies the options; it checks them
 * and returns a null MlirPass (pass.ptr == NULL) with a NUL-terminated message in
 * error[error_cap] when they are invalid; the returned pass is the caller's until added to
 * a pass manager (mlirPassManagerAddOwnedPass). Errors in the IR a pass runs on are MLIR
 * diagnostics at the op's location, and the pass manager's run fails. Each pass runs on a
 * builtin.module. */
#ifndef REMAT_C_PASSES_H
#define REMAT_C_PASSES_H

#include "remat-c/Remat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A field of an options struct, from an option list entry. */
#define REMAT_OPTION_FIELD(S, field, name, type, def, help) REMAT_OPTION_FIELD_##type(field)
#define REMAT_OPTION_FIELD_BOOL(field) bool field;
#define REMAT_OPTION_FIELD_INT(field) int64_t field;
#define REMAT_OPTION_FIELD_DOUBLE(field) double field;
#define REMAT_OPTION_FIELD_STRING(field) char field[REMAT_OPTION_STRING_MAX];
#define REMAT_OPTION_FIELD_FILE(field) char field[REMAT_OPTION_STRING_MAX];

/* ---- --remat-attention: decomposed attention becomes rt.attention (and its gradient) ---- */

#define REMAT_ATTENTION_OPTIONS(X, S) \
  X(S, report, "report", FILE, "",    \
    "write the report: - for stderr, or a file to append to; empty: none")

/* ---- --remat-autodiff: forward functions (rt.autodiff) become joint functions ------ */

#define REMAT_AUTODIFF_OPTIONS(X, S) \
  X(S, report, "report", FILE, "",   \
    "write the report: - for stderr, or a file to append to; empty: none")

/* ---- --remat-checkpoint: tag activation-checkpoint policies (rt.policy) ------------ */

#define REMAT_CHECKPOINT_OPTIONS(X, S)                                                          \
  X(S, ac, "ac", STRING, "none",                                                                \
    "none | auto | <GiB>: stage heuristic; auto = sqrt(recomputable forward GiB)")              \
  X(S, fsdp, "fsdp", STRING, "recompute",                                                       \
    "recompute | save | off: all-gathers of rt.param arguments")                                \
  X(S, save_ops, "save-ops", STRING, "mm",                                                      \
    "forward ops saved every save-every-th time, the others recomputed: rt op names, "          \
    "mm (rank-2 rt.matmul), bmm (batched); none: off")                                          \
  X(S, always_save, "always-save", STRING, "none",                                              \
    "forward ops always saved, not counted by save-ops (as save-ops)")                          \
  X(S, save_every, "save-every", INT, "2", "N >= 1: save the 1st, (N+1)th, ... op of save-ops") \
  X(S, memory_budget, "memory-budget", INT, "-1",                                               \
    "bytes of forward results saved for the backward, chosen at least recompute cost; "         \
    "replaces save-ops; -1: off")                                                               \
  X(S, budget_greedy, "budget-greedy", BOOL, "false",                                           \
    "use the heuristic budget choice even where the exact one is affordable")                   \
  X(S, budget_dump, "budget-dump", FILE, "",                                                    \
    "append each budget problem and its choice to this file, for bench/ilp; empty: none")       \
  X(S, report, "report", FILE, "",                                                              \
    "write the report: - for stderr, or a file to append to; empty: none")

/* ---- --remat-fuse: outline fusible groups into rt.kernel functions ----------------- */

#define REMAT_FUSE_OPTIONS(X, S)                                                        \
  X(S, max_ops, "max-ops", INT, "0",                                                    \
    "most ops in one kernel, views and constants not counted; no producer is inlined "  \
    "then; 0: unlimited")                                                               \
  X(S, grouping, "grouping", STRING, "index",                                           \
    "index: loop fusion by index, reduction kernels, free views; shape: the previous "  \
    "grouping (one kernel per result shape, views as copies, reductions in the host), " \
    "kept to measure before and after")                                                 \
  X(S, duplicate, "duplicate", BOOL, "true",                                            \
    "recompute cheap producers in each consumer kernel when that moves fewer bytes")    \
  X(S, dedup, "dedup", BOOL, "true",                                                    \
    "one definition per structurally equal kernel, called by the copies' calls")        \
  X(S, report, "report", FILE, "",                                                      \
    "write the report: - for stderr, or a file to append to; empty: none")

/* ---- --remat-mincut: min-cut split of joint functions into @f_fwd and @f_bwd ------- */

#define REMAT_MINCUT_OPTIONS(X, S)                                                          \
  X(S, scalar_factor, "scalar-factor", DOUBLE, "0.1",                                       \
    "weight of scalars and 0-d values per byte, >= 0")                                      \
  X(S, params_free, "params-free", BOOL, "true", "rt.param arguments cost nothing to save") \
  X(S, ban, "ban", STRING, "matmul,conv,attention,reduction,collective",                    \
    "ops never recomputed: op names (rt.matmul or matmul) and kind names (" RT_KIND_NAMES   \
    ": every rt.extern; those not recompute=pure are banned anyway); none: nothing")        \
  X(S, ban_random, "ban-random", BOOL, "false",                                             \
    "also ban rt.uniform_philox: save masks instead of seeds")                              \
  X(S, reduction_ratio, "reduction-ratio", INT, "0",                                        \
    "a banned reduction whose operand holds at most this many times its result's bytes "    \
    "may be recomputed (torch's min-cut: 4); 0: every banned reduction stays banned")       \
  X(S, objective, "objective", STRING, "bytes",                                             \
    "bytes: the min-cut, least saved bytes; peak: the least estimated peak of the order "   \
    "emitted, then the least recompute cost")                                               \
  X(S, peak_budget, "peak-budget", INT, "0",                                                \
    "objective=peak: the least recompute cost whose peak is at most this many bytes; "      \
    "0: none")                                                                              \
  X(S, peak_search, "peak-search", STRING, "auto",                                          \
    "objective=peak: auto (exact up to 32 candidate values, the least peak up to 48 "       \
    "without a budget, else heuristic), exact (branch and bound, up to 64), heuristic, "    \
    "enumerate (every subset, up to 20: the exact search's check)")                         \
  X(S, report, "report", FILE, "",                                                          \
    "write the report: - for stderr, or a file to append to; empty: none")                  \
  X(S, dot, "dot", FILE, "", "write a Graphviz picture of each split to this file")         \
  X(S, timeline, "timeline", FILE, "",                                                      \
    "write an SVG chart of live bytes per step, no remat against the split, to this file")  \
  X(S, dump_network, "dump-network", FILE, "",                                              \
    "write each joint function's flow network to this file in the DIMACS max-flow "         \
    "format, for other solvers")

/* ---- every pass ---------------------------------------------------------------------- */

/* Every pass, in pipeline order (the order of rematGetPassInfo and --help): X(name, Name,
 * LIST) for a pass with the option list LIST above, NONE(name) for one without options.
 * Its flag is --remat-<name>, its registry entry is defined at the bottom of
 * passes/<name>.c (REMAT_PASS_INFO), and for a pass with options this list declares
 * below its options struct RematNameOptions, rematNameOptionsInit and
 * rematCreateNamePass (RematMincutOptions, rematMincutOptionsInit,
 * rematCreateMincutPass, ...); the registry (rematGetPassInfo) comes from it too. A new
 * pass is its row here (and its option list) and its file. remat-verify is a check, not
 * a stage: usable anywhere in a pipeline. */
#define REMAT_PASSES(X, NONE)                         \
  X(attention, Attention, REMAT_ATTENTION_OPTIONS)    \
  X(autodiff, Autodiff, REMAT_AUTODIFF_OPTIONS)       \
  X(checkpoint, Checkpoint, REMAT_CHECKPOINT_OPTIONS) \
  X(mincut, Mincut, REMAT_MINCUT_OPTIONS)             \
  X(fuse, Fuse, REMAT_FUSE_OPTIONS)                   \
  NONE(verify)

#define REMAT_PASS_NONE(name)
#define REMAT_PASS_TYPED_API(name, Name, LIST)                                                 \
  typedef struct Remat##Name##Options {                                                        \
    LIST(REMAT_OPTION_FIELD, Remat##Name##Options)                                             \
  } Remat##Name##Options;                                                                      \
  REMAT_API void remat##Name##OptionsInit(Remat##Name##Options *options);                      \
  REMAT_API MlirPass rematCreate##Name##Pass(const Remat##Name##Options *options, char *error, \
                                             size_t error_cap);
REMAT_PASSES(REMAT_PASS_TYPED_API, REMAT_PASS_NONE)

#ifdef __cplusplus
}
#endif

#endif
