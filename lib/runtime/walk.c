/* walk.c: the executors' walk over a function's entry block (see walk.h). */
#include "walk.h"

#include "interp.h"
#include "rt.h"

int rtr_walk_block(MlirOperation func, const rtr_block_walk *w, bool *returned) {
  MlirBlock entry = rt_func_entry_block(func);
  int rc = 0, t = 0; /* t: the index of the op in the block */
  *returned = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op) && !rc;
       op = mlirOperationGetNextInBlock(op), t++) {
    intptr_t no = mlirOperationGetNumOperands(op), nr = mlirOperationGetNumResults(op);
    w->reserve(w->ctx, no, nr);
    for (intptr_t k = 0; k < no && !rc; k++) {
      int got = w->operand(w->ctx, op, k, mlirOperationGetOperand(op, k));
      if (got > 0)
        rt_emit_error(op, "operand #%ld has no value (defined outside the entry block?)", (long)k);
      if (got)
        rc = -1;
    }
    if (rc)
      break;
    if (rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.return")) {
      rc = w->ret(w->ctx, op, no);
      *returned = true;
      break;
    }
    if (rtr_check_no_regions(op)) {
      rc = -1;
      break;
    }
    rc = w->exec(w->ctx, op, no, nr, t);
  }
  if (!rc && !*returned) {
    rt_emit_error(func, "function ends without func.return");
    rc = -1;
  }
  return rc;
}
