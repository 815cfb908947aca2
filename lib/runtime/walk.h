/* walk.h: the one walk over a function's entry block that both executors make (the
 * interpreter, interp.c; the CUDA backend, cuda_exec.c), and the one path of their calls
 * (the callee lookup and the checks before and after a call), so that the order of the
 * steps and their diagnostics cannot drift apart.
 *
 * For each op in block order the walker asks the executor to make room for its operands
 * and results, fetches each operand through the executor's value storage (an operand
 * without a value is reported here), then either hands func.return's operands back (the
 * walk ends) or, after rtr_check_no_regions, has the executor run the op and store its
 * results. A block that ends without func.return is reported here. The executor owns
 * every value; the walker holds none. */
#ifndef REMAT_RUNTIME_WALK_H
#define REMAT_RUNTIME_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "buffer.h"

typedef struct rtr_block_walk {
  void *ctx; /* the executor's, passed to every hook */
  /* Room for an op's NO operands and NR results in the executor's arrays. */
  void (*reserve)(void *ctx, intptr_t no, intptr_t nr);
  /* Operand K of OP, value V, from the executor's storage into its operand array: 0; 1
   * when V has no value (the walker reports it); -1 after reporting an error. */
  int (*operand)(void *ctx, MlirOperation op, intptr_t k, MlirValue v);
  /* func.return OP with its NO operands fetched: hand them to the caller. 0 or -1. */
  int (*ret)(void *ctx, MlirOperation op, intptr_t no);
  /* Any other op (the T-th of the block) with its NO operands fetched: run it and store
   * its NR results. 0, or -1 after reporting an error (the walk stops). */
  int (*exec)(void *ctx, MlirOperation op, intptr_t no, intptr_t nr, int t);
} rtr_block_walk;

/* Walks FUNC's entry block with W's hooks. Returns 0 once func.return ran, or -1 after an
 * error was reported; *returned says whether func.return's hook ran (its outputs exist,
 * even on -1). */
int rtr_walk_block(MlirOperation func, const rtr_block_walk *w, bool *returned);

/* ---- calls: the executors' one path --------------------------------------------------- */

/* How deep calls may nest in a run (the interpreter's and the executors' walks). */
#define RTR_MAX_CALL_DEPTH 64

/* The func.func named NAME in MODULE, or a null operation. */
MlirOperation rtr_interp_lookup(MlirOperation module, const char *name);

/* The function func.call CALL calls: its flat `callee` symbol names a function with a
 * body in MODULE. A null operation after the one located error at CALL. */
MlirOperation rtr_callee(MlirOperation module, MlirOperation call);

/* The checks before a walk enters FUNC, called at AT (the func.call, or FUNC itself for
 * the function a run starts with) from DEPTH calls deep: FUNC has a body, takes NARGS
 * arguments, argument k has ARGS[k]'s type (float elements as f64 when PROMOTE_F64; only
 * the header of each buffer is read), and DEPTH is below RTR_MAX_CALL_DEPTH. 0, or -1
 * after a located error at AT. */
int rtr_check_call(MlirOperation func, rtr_buffer *const *args, int nargs, bool promote_f64,
                   int depth, MlirOperation at);

/* The check after CALLEE returned: its NOUTS values OUTS are the NRES results RES of
 * func.call CALL, in number and type (only the buffers' headers are read). 0, or -1 after
 * the one located error at CALL. */
int rtr_check_returned(MlirOperation call, MlirOperation callee, const rtr_buffer *const *outs,
                       int nouts, const rtr_buffer *const *res, int nres);

/* The check before a walk executes OP: it has no regions (the walks run straight-line
 * bodies only). 0, or -1 after a located error at OP. */
int rtr_check_no_regions(MlirOperation op);

#endif
