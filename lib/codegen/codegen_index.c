/* codegen_index.c: structural ops as index arithmetic. An element of the result at linear
 * index idx is the operand's element at a rewritten index: no data moves. Coordinates are
 * i64, shapes static, so the divisions are by constants. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

void cg_delinearize(cg_module *m, const remat_shape *s, LLVMValueRef idx, LLVMValueRef *c) {
  int64_t stride = 1;
  for (int k = s->rank - 1; k >= 0; k--) {
    if (s->d[k] == 1)
      c[k] = cg_i64(m, 0);
    else {
      LLVMValueRef q = stride == 1 ? idx : LLVMBuildUDiv(m->b, idx, cg_i64(m, stride), "");
      /* The outermost coordinate needs no remainder: idx is within the shape. */
      c[k] = k == 0 ? q : LLVMBuildURem(m->b, q, cg_i64(m, s->d[k]), "");
    }
    stride *= s->d[k];
  }
}

LLVMValueRef cg_linearize(cg_module *m, const remat_shape *s, LLVMValueRef *c) {
  LLVMValueRef idx = NULL;
  int64_t stride = 1;
  for (int k = s->rank - 1; k >= 0; k--) {
    if (s->d[k] != 1) {
      LLVMValueRef term = stride == 1 ? c[k] : LLVMBuildMul(m->b, c[k], cg_i64(m, stride), "");
      idx = idx ? LLVMBuildAdd(m->b, idx, term, "") : term;
    }
    stride *= s->d[k];
  }
  return idx ? idx : cg_i64(m, 0);
}

static LLVMValueRef smin(cg_module *m, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef ab[2] = {a, b};
  return cg_intrinsic(m, "llvm.smin", m->i64, ab, 2);
}

static LLVMValueRef smax(cg_module *m, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef ab[2] = {a, b};
  return cg_intrinsic(m, "llvm.smax", m->i64, ab, 2);
}

/* Concat: every operand is read at its coordinate clamped into its own extent and the
 * one that owns the coordinate is selected, so every load stays in bounds and the
 * element needs no branch. */
static LLVMValueRef concat(cg_kernel *k, MlirOperation op, LLVMValueRef *c) {
  cg_module *m = k->m;
  int64_t dim;
  rt_get_i64(op, "dim", &dim);
  LLVMValueRef at = c[dim], r = NULL;
  int64_t off = 0;
  for (intptr_t j = 0, n = mlirOperationGetNumOperands(op); j < n; j++) {
    MlirValue in = mlirOperationGetOperand(op, j);
    remat_shape s = rt_shape_of(mlirValueGetType(in));
    int64_t size = s.d[dim];
    if (size == 0)
      continue;
    LLVMValueRef local = off ? LLVMBuildSub(m->b, at, cg_i64(m, off), "") : at;
    LLVMValueRef ic[RT_MAX_RANK];
    for (int d = 0; d < s.rank; d++)
      ic[d] = c[d];
    ic[dim] = smin(m, smax(m, local, cg_i64(m, 0)), cg_i64(m, size - 1));
    LLVMValueRef v = cg_value_at(k, in, cg_linearize(m, &s, ic));
    off += size;
    r = r ? LLVMBuildSelect(m->b, LLVMBuildICmp(m->b, LLVMIntSGE, at, cg_i64(m, off - size), ""), v,
                            r, "")
          : v;
  }
  return r;
}

LLVMValueRef cg_structural(cg_kernel *k, MlirOperation op, LLVMValueRef idx) {
  cg_module *m = k->m;
  rt_op_id id = rt_op_lookup(op);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  remat_shape out = rt_shape_of(rt);
  LLVMValueRef c[RT_MAX_RANK], ic[RT_MAX_RANK];
  MlirValue in = id == RT_OP_IOTA ? (MlirValue){NULL} : mlirOperationGetOperand(op, 0);
  if (id == RT_OP_RESHAPE) /* row-major: the linear index is the same */
    return cg_value_at(k, in, idx);
  /* In a row kernel, a broadcast back along the reduced dims read at the current element
   * reads the current row: the per-row value is computed once, and a reduction's result
   * exists only there. */
  if (id == RT_OP_BROADCAST && k->row && idx == k->s_idx &&
      rt_broadcast_row_aligned(op, &k->row->s, k->row->reduced))
    return cg_value_at(k, in, k->row_idx);
  cg_delinearize(m, &out, idx, c);
  if (id == RT_OP_CONCAT)
    return concat(k, op, c);
  if (id == RT_OP_IOTA) {
    int64_t dim;
    rt_get_i64(op, "dim", &dim);
    MlirType i64 = mlirIntegerTypeGet(mlirTypeGetContext(rt), 64), e = rt_element_type(rt);
    if (!cg_is_float(e)) /* integers wrap to the width (i1: the low bit) */
      return LLVMBuildTrunc(m->b, c[dim], cg_compute_type(m, e), "");
    return cg_convert(m, c[dim], i64, e);
  }
  remat_shape s = rt_shape_of(mlirValueGetType(in));
  int64_t a[RT_MAX_RANK], b[RT_MAX_RANK], st[RT_MAX_RANK];
  switch (id) {
  case RT_OP_BROADCAST:
    rt_get_i64_array(op, "dims", a, RT_MAX_RANK);
    for (int d = 0; d < s.rank; d++)
      ic[d] = s.d[d] == 1 ? cg_i64(m, 0) : c[a[d]];
    break;
  case RT_OP_TRANSPOSE: /* result dim d is operand dim perm[d] */
    rt_get_i64_array(op, "perm", a, RT_MAX_RANK);
    for (int d = 0; d < s.rank; d++)
      ic[a[d]] = c[d];
    break;
  case RT_OP_SLICE:
    rt_get_i64_array(op, "start", a, RT_MAX_RANK);
    rt_get_i64_array(op, "limit", b, RT_MAX_RANK);
    rt_get_i64_array(op, "stride", st, RT_MAX_RANK);
    for (int d = 0; d < s.rank; d++) {
      LLVMValueRef x = st[d] == 1 ? c[d] : LLVMBuildMul(m->b, c[d], cg_i64(m, st[d]), "");
      ic[d] = a[d] == 0 ? x : LLVMBuildAdd(m->b, x, cg_i64(m, a[d]), "");
    }
    break;
  case RT_OP_RESHAPE: /* above */
  case RT_OP_CONCAT:
  case RT_OP_IOTA:
#define RT_STRUCT(...)
#define RT_OP(ID, ...) case RT_OP_##ID:
#include "rt_ops.def"
  case RT_OP_NONE: remat_fatal("'%s' is not a structural op of a kernel", rt_op_name(id));
  }
  return cg_value_at(k, in, cg_linearize(m, &s, ic));
}
