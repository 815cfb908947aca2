/* compiled.h: compiled execution on the CPU. The kernels (func.func with rt.kernel) and
 * the reductions of host functions are lowered by lib/codegen for the host and
 * JIT-compiled with LLVM ORC; host functions are walked by the interpreter, whose C
 * runtime (runtime/ops.h) runs the other host-level ops (matmul as a blocked loop,
 * structural ops, collectives, arith scalars). func.call to a kernel launches the
 * compiled kernel over its whole iteration space.
 *
 * Ownership: rtr_compiled_create returns an object the caller destroys with
 * rtr_compiled_destroy, after the last run that uses its options. */
#ifndef REMAT_RUNTIME_COMPILED_H
#define REMAT_RUNTIME_COMPILED_H

#include <stddef.h>

#include "mlir-c/IR.h"
#include "codegen.h"
#include "interp.h"

typedef struct rtr_compiled rtr_compiled;

/* Lowers and JIT-compiles every kernel and reduction of MODULE, with the codegen's
 * opt_level (0: its IR as built, 3: O3; the bits are the same, no fast-math either way),
 * on jobs threads (0: one per core; the code is the same whatever the number), through
 * the codegen's on-disk cache in cache_dir (NULL: none; a unit found there is not
 * compiled again, the same object either way).
 * NULL on failure, with a message added to *err (remat_error_add), after located
 * diagnostics when the codegen cannot lower a construct. */
rtr_compiled *rtr_compiled_create(MlirOperation module, int opt_level, int jobs,
                                  const char *cache_dir, char **err);
void rtr_compiled_destroy(rtr_compiled *c);

/* What the compilation did: units, threads, cache results. */
const remat_codegen_stats *rtr_compiled_stats(const rtr_compiled *c);

/* Interpreter options that run MODULE's kernels and reductions compiled. */
rtr_interp_options rtr_compiled_options(rtr_compiled *c);

/* Kernel launches and compiled reductions so far (for reports and tests). */
long rtr_compiled_launches(const rtr_compiled *c);
/* Host views made so far (read in place by rt.matmul) and how many of them an op that
 * needs data had to copy. */
long rtr_compiled_views(const rtr_compiled *c, long *copies);

#endif
