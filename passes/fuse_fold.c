/* fuse_fold.c: --remat-fuse's rewrites of views before grouping: views that change
 * nothing go, and a transpose of the last two dims feeding rt.matmul becomes the matmul's
 * transpose_a / transpose_b. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- transposes into matmuls ---- */

static bool swaps_last_two(MlirOperation op) {
  if (rt_op_lookup(op) != RT_OP_TRANSPOSE)
    return false;
  int64_t perm[RT_MAX_RANK];
  int r = rt_get_i64_array(op, "perm", perm, RT_MAX_RANK);
  if (r < 2 || r > 3)
    return false;
  for (int i = 0; i < r - 2; i++)
    if (perm[i] != i)
      return false;
  return perm[r - 2] == r - 1 && perm[r - 1] == r - 2;
}

static int fold_matmul_transposes(MlirBlock block);

/* Erases op if nothing reads it any more (views only: they have no effect). */
static void erase_if_dead(MlirOperation op) {
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
    mlirOperationDestroy(op);
}

static MlirOperation view_producer(MlirOperation op, rt_op_id id) {
  MlirValue v = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(v) || rt_op_lookup(mlirOpResultGetOwner(v)) != id)
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(v);
}

/* A view that changes nothing: same type as its operand, and for a transpose the
 * identity permutation (a reshape or broadcast of one shape to itself is the identity). */
static bool is_identity_view(MlirOperation op, rt_op_id id) {
  if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, 0)),
                     mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  if (id == RT_OP_RESHAPE || id == RT_OP_BROADCAST)
    return true;
  if (id != RT_OP_TRANSPOSE)
    return false;
  int64_t perm[RT_MAX_RANK];
  int r = rt_get_i64_array(op, "perm", perm, RT_MAX_RANK);
  for (int d = 0; d < r; d++)
    if (perm[d] != d)
      return false;
  return true;
}

/* Simplifies views before grouping, in program order: a transpose of a transpose becomes
 * one transpose (perm[d] = inner[outer[d]]), a reshape of a reshape one reshape, a view
 * that changes nothing is replaced by its operand; views nothing reads any more are
 * erased. Then a transpose of the last two dims feeding rt.matmul becomes transpose_a /
 * transpose_b (a second one cancels the first). */
void fuse_simplify_views(MlirBlock block) {
  /* The view's ops as the list to visit, the rest of it unread (the rewrite changes it).
   * Ops are only erased once nothing reads them, and every op is looked at before any
   * later op could make it dead, so an erased op is never visited again. */
  rt_graph view;
  rt_graph_load_block(&view, block, 0);
  int n = view.nops + !mlirOperationIsNull(view.ret);
  for (int i = 0; i < n; i++) {
    MlirOperation op = view.ops[i];
    rt_op_id id = rt_op_lookup(op);
    if (id == RT_OP_TRANSPOSE) {
      MlirOperation inner = view_producer(op, RT_OP_TRANSPOSE);
      if (!mlirOperationIsNull(inner)) {
        int64_t po[RT_MAX_RANK], pi[RT_MAX_RANK], pc[RT_MAX_RANK];
        int r = rt_get_i64_array(op, "perm", po, RT_MAX_RANK);
        rt_get_i64_array(inner, "perm", pi, RT_MAX_RANK);
        for (int d = 0; d < r; d++)
          pc[d] = pi[po[d]];
        MlirContext ctx = mlirOperationGetContext(op);
        mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("perm"),
                                        mlirDenseI64ArrayGet(ctx, r, pc));
        mlirOperationSetOperand(op, 0, mlirOperationGetOperand(inner, 0));
        erase_if_dead(inner);
      }
    } else if (id == RT_OP_RESHAPE) {
      MlirOperation inner = view_producer(op, RT_OP_RESHAPE);
      if (!mlirOperationIsNull(inner)) {
        mlirOperationSetOperand(op, 0, mlirOperationGetOperand(inner, 0));
        erase_if_dead(inner);
      }
    }
    if (rt_op_is_view(id) && mlirOperationGetNumOperands(op) == 1 && is_identity_view(op, id)) {
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
      mlirOperationDestroy(op);
    }
  }
  rt_graph_free(&view);
  fold_matmul_transposes(block);
}

/* A transpose of the last two dims feeding rt.matmul becomes transpose_a / transpose_b
 * (a second one cancels the first); the transpose is erased when nothing else reads it.
 * Returns the number of transposes folded. */
static int fold_matmul_transposes(MlirBlock block) {
  int folded = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (rt_op_lookup(op) != RT_OP_MATMUL)
      continue;
    MlirContext ctx = mlirOperationGetContext(op);
    for (int k = 0; k < 2; k++) {
      MlirStringRef name = mlirStringRefCreateFromCString(k ? "transpose_b" : "transpose_a");
      for (;;) {
        MlirValue v = mlirOperationGetOperand(op, k);
        if (!mlirValueIsAOpResult(v) || !swaps_last_two(mlirOpResultGetOwner(v)))
          break;
        MlirOperation t = mlirOpResultGetOwner(v);
        mlirOperationSetOperand(op, k, mlirOperationGetOperand(t, 0));
        if (mlirAttributeIsNull(mlirOperationGetAttributeByName(op, name)))
          mlirOperationSetAttributeByName(op, name, mlirUnitAttrGet(ctx));
        else
          mlirOperationRemoveAttributeByName(op, name);
        if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
          mlirOperationDestroy(t);
        folded++;
      }
    }
  }
  return folded;
}
