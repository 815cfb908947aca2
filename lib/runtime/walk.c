/* walk.c: the executors' walk over a function's entry block, and the checks and the
 * callee lookup of their calls (see walk.h). */
#include "walk.h"

#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
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

/* ---- calls ---------------------------------------------------------------------------- */

MlirOperation rtr_interp_lookup(MlirOperation module, const char *name) {
  MlirRegion r = mlirOperationGetRegion(module, 0);
  MlirBlock b = mlirRegionGetFirstBlock(r);
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (rt_op_named(op, "func.func") && rt_str_eq(rt_func_name(op), name))
      return op;
  return (MlirOperation){NULL};
}

MlirOperation rtr_callee(MlirOperation module, MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(call, rt_str("callee"));
  if (!mlirAttributeIsAFlatSymbolRef(callee)) {
    rt_emit_error(call, "func.call without a flat 'callee' symbol");
    return (MlirOperation){NULL};
  }
  MlirStringRef cs = mlirFlatSymbolRefAttrGetValue(callee);
  char *name = xstrndup(cs.data, cs.length);
  MlirOperation f = rtr_interp_lookup(module, name);
  if (mlirOperationIsNull(f) || mlirBlockIsNull(rt_func_entry_block(f))) {
    rt_emit_error(call, "call to '@%s', which is not a function defined in this module", name);
    f = (MlirOperation){NULL};
  }
  free(name);
  return f;
}

int rtr_check_returned(MlirOperation call, MlirOperation callee, const rtr_buffer *const *outs,
                       int nouts, const rtr_buffer *const *res, int nres) {
  MlirStringRef name = rt_func_name(callee);
  if (nouts != nres) {
    rt_emit_error(call, "'@%.*s' returned %d values, the call expects %d", (int)name.length,
                  name.data, nouts, nres);
    return -1;
  }
  for (int k = 0; k < nres; k++)
    if (!rtr_buffer_same_type(outs[k], res[k])) {
      rt_emit_error(call, "result #%d of '@%.*s' does not match the call's type", k,
                    (int)name.length, name.data);
      return -1;
    }
  return 0;
}

int rtr_check_no_regions(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) == 0)
    return 0;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  rt_emit_error(op, "cannot execute '%.*s': operations with regions are not supported",
                (int)name.length, name.data);
  return -1;
}

/* Checks that ARGS match FUNC's argument types; emits at AT (the call) or FUNC. */
int rtr_check_call(MlirOperation func, rtr_buffer *const *args, int nargs, bool promote_f64,
                   int depth, MlirOperation at) {
  MlirBlock entry = rt_func_entry_block(func);
  MlirStringRef fname = rt_func_name(func);
  if (mlirBlockIsNull(entry)) {
    rt_emit_error(at, "'@%.*s' is a declaration without a body", (int)fname.length, fname.data);
    return -1;
  }
  intptr_t want = mlirBlockGetNumArguments(entry);
  if (want != nargs) {
    rt_emit_error(at, "'@%.*s' takes %ld arguments, got %d", (int)fname.length, fname.data,
                  (long)want, nargs);
    return -1;
  }
  for (int k = 0; k < nargs; k++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, k));
    rtr_buffer expect; /* the type only: nothing is allocated to compare */
    char a[128], b[128];
    if (!rtr_buffer_describe(t, &expect)) {
      rt_emit_error(at,
                    "argument #%d of '@%.*s' has a type the runtime does not support: "
                    "'%s'",
                    k, (int)fname.length, fname.data, rt_type_str(t, a, sizeof a));
      return -1;
    }
    if (promote_f64 && rtr_elem_is_float(expect.elem))
      expect.elem = RTR_F64;
    if (!rtr_buffer_same_type(&expect, args[k])) {
      rt_emit_error(at, "argument #%d of '@%.*s' must be '%s', got '%s'", k, (int)fname.length,
                    fname.data, rtr_buffer_type_str(&expect, a, sizeof a),
                    rtr_buffer_type_str(args[k], b, sizeof b));
      return -1;
    }
  }
  if (depth >= RTR_MAX_CALL_DEPTH) {
    rt_emit_error(at, "calls nested deeper than %d (recursion is not supported)",
                  RTR_MAX_CALL_DEPTH);
    return -1;
  }
  return 0;
}
