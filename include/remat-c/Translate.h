/* remat-c/Translate.h: lowering of a module's kernels to LLVM IR or PTX.
 *
 * Input: a builtin.module whose `func.func ... attributes {rt.kernel}` functions hold
 * fusible rt ops (what --remat-fuse outlines; rematCreateFusePass) and whose other
 * functions may hold rt.sum / rt.amax. Output: one LLVM IR or PTX module with a function
 * per kernel and per reduction, as remat-translate prints it. The kernel ABI (parameters,
 * launch, storage of f16/bf16/i1) is in docs/design.md, "Fusion, codegen and PTX".
 *
 * Conventions (as in remat-c/Remat.h): the returned text is the caller's, freed with
 * rematStringFree. Errors in the IR (remat's verifier, an op or type the codegen cannot
 * lower) are MLIR diagnostics at the op's location through the context's handlers, and
 * error is set to the empty string; invalid options and failures of LLVM's code
 * generator write a message into error[error_cap]. The module is not changed. */
#ifndef REMAT_C_TRANSLATE_H
#define REMAT_C_TRANSLATE_H

#include "remat-c/Remat.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum RematTranslateTarget {
  REMAT_TRANSLATE_NVPTX64, /* NVIDIA GPUs: .entry kernels over a grid-stride loop */
  REMAT_TRANSLATE_HOST,    /* this machine's CPU: kernels over [begin, end) */
} RematTranslateTarget;

typedef enum RematTranslateEmit {
  REMAT_TRANSLATE_PTX,     /* PTX assembly (nvptx64 only) */
  REMAT_TRANSLATE_LLVM_IR, /* LLVM IR text */
} RematTranslateEmit;

/* What a translation did: functions compiled, threads used, results of the cache
 * (corrupt: damaged entries found and rebuilt, also counted as misses). */
typedef struct RematTranslateStats {
  int functions, jobs;
  int cache_hits, cache_misses, cache_corrupt;
} RematTranslateStats;

typedef struct RematTranslateOptions {
  RematTranslateTarget target; /* --target (default nvptx64) */
  RematTranslateEmit emit;     /* --emit (default PTX) */
  int sm;                      /* --sm: compute capability, 90 -> sm_90 (default 90) */
  int opt_level;               /* -O0 or -O3: 0 the IR as built; 3 libdevice + O3 (3) */
  /* -j: threads compiling the functions, each on its own (the output is the same bytes
   * whatever the number); 0: one per core (default 0) */
  int jobs;
  /* --cache-dir: a content-addressed on-disk cache of compiled functions, keyed by their
   * LLVM IR, target, sm, opt level, libdevice and LLVM version (docs/design.md, "Parallel
   * compilation and the kernel cache"); NULL or "": none (default NULL) */
  const char *cache_dir;
  /* if not NULL, receives what the translation did (default NULL) */
  RematTranslateStats *stats;
} RematTranslateOptions;

REMAT_API void rematTranslateOptionsInit(RematTranslateOptions *options);

/* Whether sm is a compute capability the NVPTX target knows (75, 80, 86, 89, 90, ...). */
REMAT_API bool rematTranslateSmIsValid(int sm);

/* Lowers module. Returns the text, or NULL on failure (see the conventions above). If
 * manifest is not NULL, *manifest receives (on success) the manifest a runtime needs, one
 * line per lowered function: `<kernel|reduction> <name> numel=<N> in0:<type> ...
 * out0:<type> ...`; the caller frees it with rematStringFree. */
REMAT_API char *rematTranslate(MlirOperation module, const RematTranslateOptions *options,
                               char **manifest, char *error, size_t error_cap);

#ifdef __cplusplus
}
#endif

#endif
