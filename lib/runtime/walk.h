/* walk.h: the one walk over a function's entry block that both executors make (the
 * interpreter, interp.c; the CUDA backend, cuda_exec.c), so that the order of the steps
 * and their diagnostics cannot drift apart.
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

#endif
