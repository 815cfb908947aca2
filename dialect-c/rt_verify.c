/* rt_verify.c: remat's semantic verifier, for what IRDL cannot express: operand and
 * result shapes of every rt op, attribute ranges, static shapes only, and the
 * joint-function conventions (rt.num_outputs, rt.tangent, rt.policy).
 * Requires: a module that passed MLIR's own verifier (IRDL constraints hold). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "remat-c/Remat.h"
#include "rt.h"

/* Each operand and result of an rt op is a static tensor of a supported element type or
 * a scalar; of an rt.extern (ANY_NUMBER), of any element type remat can size, or a
 * number. Returns the number of errors. */
static int check_types(MlirOperation op, const char *name, bool any_number) {
  char tb[128];
  intptr_t no = mlirOperationGetNumOperands(op), nr = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < no + nr; i++) {
    MlirType t = mlirValueGetType(i < no ? mlirOperationGetOperand(op, i)
                                         : mlirOperationGetResult(op, i - no));
    const char *what = i < no ? "operand" : "result";
    intptr_t idx = i < no ? i : i - no;
    if (any_number ? rt_type_is_number(t) : rt_type_is_scalar(t))
      continue;
    if (!mlirTypeIsATensor(t)) {
      rt_emit_error(op, "'%s' %s #%ld must be a tensor or a scalar, got '%s'", name, what,
                    (long)idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    if (!mlirTypeIsARankedTensor(t)) {
      rt_emit_error(op,
                    "'%s' %s #%ld is an unranked tensor '%s': only ranked tensors of a "
                    "static shape are supported",
                    name, what, (long)idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    if (!rt_type_is_static_tensor(t)) {
      rt_emit_error(op,
                    "'%s' %s #%ld has a dynamic shape '%s': only static shapes are "
                    "supported",
                    name, what, (long)idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    if (mlirShapedTypeGetRank(t) > RT_MAX_RANK) {
      rt_emit_error(op, "'%s' %s #%ld has rank %ld, above the supported %d", name, what, (long)idx,
                    (long)mlirShapedTypeGetRank(t), RT_MAX_RANK);
      return 1;
    }
    if (any_number && !rt_type_is_number(mlirShapedTypeGetElementType(t))) {
      rt_emit_error(op,
                    "'%s' %s #%ld has element type in '%s' that remat cannot size "
                    "(expected an integer or float type)",
                    name, what, (long)idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    if (!any_number && !rt_element_type_is_supported(mlirShapedTypeGetElementType(t))) {
      rt_emit_error(op,
                    "'%s' %s #%ld has unsupported element type in '%s' (expected f32, "
                    "f16, bf16, f64, i1, i8, i32 or i64)",
                    name, what, (long)idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    uint64_t bytes;
    if (rt_type_bytes(t, &bytes)) {
      rt_emit_error(op, "'%s' %s #%ld: size of '%s' overflows 64 bits", name, what, (long)idx,
                    rt_type_str(t, tb, sizeof tb));
      return 1;
    }
  }
  return 0;
}

static MlirType operand_type(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

static MlirType result_type(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

static bool is_float(MlirType elem) { return mlirTypeIsAFloat(elem); }
static bool is_i1(MlirType elem) {
  return mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1;
}

/* Rules SAME, I1_RESULT, SELECT (binary, compare and select ops): tensor operands agree
 * in shape (scalars broadcast); the result has that shape. */
static int check_elementwise(MlirOperation op, rt_type_rule rule, const char *name) {
  char a[128], b[128];
  intptr_t n = mlirOperationGetNumOperands(op);
  int first = -1;
  remat_shape s0 = {0, {0}};
  MlirType elem0 = {NULL};
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = operand_type(op, i);
    if (!mlirTypeIsATensor(t))
      continue;
    remat_shape s = rt_shape_of(t);
    bool is_cond = rule == RT_RULE_SELECT && i == 0;
    if (first < 0) {
      first = (int)i;
      s0 = s;
    } else if (!remat_shape_eq(&s, &s0)) {
      remat_shape_str(&s0, a, sizeof a);
      remat_shape_str(&s, b, sizeof b);
      rt_emit_error(op, "'%s' operand shapes differ: operand #%d is %s, operand #%ld is %s", name,
                    first, a, (long)i, b);
      return 1;
    }
    if (is_cond)
      continue;
    MlirType e = mlirShapedTypeGetElementType(t);
    if (mlirTypeIsNull(elem0))
      elem0 = e;
    else if (!mlirTypeEqual(e, elem0)) {
      rt_emit_error(op, "'%s' tensor operands have different element types '%s' and '%s'", name,
                    rt_type_str(elem0, a, sizeof a), rt_type_str(e, b, sizeof b));
      return 1;
    }
  }
  if (first < 0) {
    rt_emit_error(op, "'%s' needs at least one tensor operand (use arith ops on scalars)", name);
    return 1;
  }
  MlirType rt = result_type(op);
  remat_shape rs = rt_shape_of(rt);
  if (!remat_shape_eq(&rs, &s0)) {
    remat_shape_str(&s0, a, sizeof a);
    remat_shape_str(&rs, b, sizeof b);
    rt_emit_error(op, "'%s' result shape %s differs from the operand shape %s", name, b, a);
    return 1;
  }
  MlirType relem = mlirShapedTypeGetElementType(rt);
  if (rule == RT_RULE_SELECT) {
    if (!is_i1(rt_element_type(operand_type(op, 0)))) {
      rt_emit_error(op, "'%s' condition must have element type i1", name);
      return 1;
    }
  } else if (rule == RT_RULE_I1_RESULT) {
    if (!is_i1(relem)) {
      rt_emit_error(op, "'%s' result must have element type i1, got '%s'", name,
                    rt_type_str(relem, a, sizeof a));
      return 1;
    }
    return 0;
  }
  if (!mlirTypeIsNull(elem0) && !mlirTypeEqual(relem, elem0)) {
    rt_emit_error(op, "'%s' result element type '%s' differs from the operands' '%s'", name,
                  rt_type_str(relem, a, sizeof a), rt_type_str(elem0, b, sizeof b));
    return 1;
  }
  return 0;
}

/* Reads an i64 array attribute that must have exactly `want` entries (-1: any). */
static int get_dims(MlirOperation op, const char *name, const char *attr, int64_t *out, int want) {
  int n = rt_get_i64_array(op, attr, out, RT_MAX_RANK);
  if (n < 0) {
    rt_emit_error(op, "'%s' attribute '%s' must be array<i64: ...>", name, attr);
    return -1;
  }
  if (n > RT_MAX_RANK || (want >= 0 && n != want)) {
    rt_emit_error(op, "'%s' attribute '%s' has %d entries, expected %d", name, attr, n, want);
    return -1;
  }
  return n;
}

static int check_broadcast(MlirOperation op) {
  remat_shape in = rt_shape_of(operand_type(op, 0)), out = rt_shape_of(result_type(op));
  int64_t dims[RT_MAX_RANK];
  if (get_dims(op, "rt.broadcast", "dims", dims, in.rank) < 0)
    return 1;
  for (int k = 0; k < in.rank; k++) {
    if (dims[k] < 0 || dims[k] >= out.rank || (k > 0 && dims[k] <= dims[k - 1])) {
      rt_emit_error(op,
                    "'rt.broadcast' dims[%d] = %lld must be increasing and within the "
                    "result rank %d",
                    k, (long long)dims[k], out.rank);
      return 1;
    }
    if (in.d[k] != 1 && in.d[k] != out.d[dims[k]]) {
      rt_emit_error(op,
                    "'rt.broadcast' operand dimension %d has size %lld; result "
                    "dimension %lld has size %lld (expected equal or 1)",
                    k, (long long)in.d[k], (long long)dims[k], (long long)out.d[dims[k]]);
      return 1;
    }
  }
  return 0;
}

static int check_same_element(MlirOperation op, const char *name) {
  char a[64], b[64];
  MlirType ei = rt_element_type(operand_type(op, 0)), eo = rt_element_type(result_type(op));
  if (mlirTypeEqual(ei, eo))
    return 0;
  rt_emit_error(op, "'%s' result element type '%s' differs from the operand's '%s'", name,
                rt_type_str(eo, a, sizeof a), rt_type_str(ei, b, sizeof b));
  return 1;
}

static int check_reshape(MlirOperation op) {
  int64_t a, b;
  rt_type_numel(operand_type(op, 0), &a);
  rt_type_numel(result_type(op), &b);
  if (a != b) {
    rt_emit_error(op, "'rt.reshape' changes the element count from %lld to %lld", (long long)a,
                  (long long)b);
    return 1;
  }
  return 0;
}

static int check_transpose(MlirOperation op) {
  remat_shape in = rt_shape_of(operand_type(op, 0)), out = rt_shape_of(result_type(op));
  int64_t perm[RT_MAX_RANK];
  bool seen[RT_MAX_RANK] = {false};
  if (get_dims(op, "rt.transpose", "perm", perm, in.rank) < 0)
    return 1;
  for (int k = 0; k < in.rank; k++) {
    if (perm[k] < 0 || perm[k] >= in.rank || seen[perm[k]]) {
      rt_emit_error(op, "'rt.transpose' perm is not a permutation of 0..%d", in.rank - 1);
      return 1;
    }
    seen[perm[k]] = true;
  }
  for (int k = 0; k < out.rank && out.rank == in.rank; k++)
    if (out.d[k] != in.d[perm[k]]) {
      rt_emit_error(op, "'rt.transpose' result dimension %d is %lld, expected %lld", k,
                    (long long)out.d[k], (long long)in.d[perm[k]]);
      return 1;
    }
  if (out.rank != in.rank) {
    rt_emit_error(op, "'rt.transpose' changes the rank");
    return 1;
  }
  return 0;
}

static int check_slice(MlirOperation op) {
  remat_shape in = rt_shape_of(operand_type(op, 0)), out = rt_shape_of(result_type(op));
  int64_t start[RT_MAX_RANK], limit[RT_MAX_RANK], stride[RT_MAX_RANK];
  if (get_dims(op, "rt.slice", "start", start, in.rank) < 0 ||
      get_dims(op, "rt.slice", "limit", limit, in.rank) < 0 ||
      get_dims(op, "rt.slice", "stride", stride, in.rank) < 0)
    return 1;
  if (out.rank != in.rank) {
    rt_emit_error(op, "'rt.slice' changes the rank");
    return 1;
  }
  for (int k = 0; k < in.rank; k++) {
    if (start[k] < 0 || start[k] > limit[k] || limit[k] > in.d[k] || stride[k] < 1) {
      rt_emit_error(op,
                    "'rt.slice' bounds of dimension %d are invalid: need 0 <= start "
                    "(%lld) <= limit (%lld) <= %lld and stride (%lld) >= 1",
                    k, (long long)start[k], (long long)limit[k], (long long)in.d[k],
                    (long long)stride[k]);
      return 1;
    }
    int64_t want = (limit[k] - start[k] + stride[k] - 1) / stride[k];
    if (out.d[k] != want) {
      rt_emit_error(op, "'rt.slice' result dimension %d is %lld, expected %lld", k,
                    (long long)out.d[k], (long long)want);
      return 1;
    }
  }
  return 0;
}

static int check_concat(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  remat_shape out = rt_shape_of(result_type(op));
  int64_t dim, total = 0;
  if (n < 1) {
    rt_emit_error(op, "'rt.concat' needs at least one operand");
    return 1;
  }
  if (!rt_get_i64(op, "dim", &dim) || dim < 0 || dim >= out.rank) {
    rt_emit_error(op, "'rt.concat' dim must be an integer within the rank %d", out.rank);
    return 1;
  }
  for (intptr_t i = 0; i < n; i++) {
    remat_shape s = rt_shape_of(operand_type(op, i));
    bool ok = s.rank == out.rank;
    for (int k = 0; ok && k < s.rank; k++)
      ok = k == dim || s.d[k] == out.d[k];
    if (!ok) {
      rt_emit_error(op,
                    "'rt.concat' operand #%ld does not match the result outside "
                    "dimension %lld",
                    (long)i, (long long)dim);
      return 1;
    }
    if (!mlirTypeEqual(rt_element_type(operand_type(op, i)), rt_element_type(result_type(op)))) {
      rt_emit_error(op, "'rt.concat' operand #%ld has a different element type", (long)i);
      return 1;
    }
    total += s.d[dim];
  }
  if (total != out.d[dim]) {
    rt_emit_error(op, "'rt.concat' result dimension %lld is %lld, expected %lld", (long long)dim,
                  (long long)out.d[dim], (long long)total);
    return 1;
  }
  return 0;
}

static int check_iota(MlirOperation op) {
  remat_shape out = rt_shape_of(result_type(op));
  int64_t dim;
  if (!rt_get_i64(op, "dim", &dim) || dim < 0 || dim >= out.rank) {
    rt_emit_error(op, "'rt.iota' dim must be within the result rank %d", out.rank);
    return 1;
  }
  return 0;
}

static int check_reduction(MlirOperation op, const char *name) {
  remat_shape in = rt_shape_of(operand_type(op, 0)), out = rt_shape_of(result_type(op));
  int64_t dims[RT_MAX_RANK];
  bool reduced[RT_MAX_RANK] = {false};
  int n = get_dims(op, name, "dims", dims, -1);
  if (n < 0)
    return 1;
  for (int k = 0; k < n; k++) {
    if (dims[k] < 0 || dims[k] >= in.rank || reduced[dims[k]]) {
      rt_emit_error(op, "'%s' dims[%d] = %lld is out of range or repeated (operand rank %d)", name,
                    k, (long long)dims[k], in.rank);
      return 1;
    }
    reduced[dims[k]] = true;
  }
  remat_shape want = {0, {0}};
  for (int k = 0; k < in.rank; k++)
    if (!reduced[k])
      want.d[want.rank++] = in.d[k];
  if (!remat_shape_eq(&want, &out)) {
    char a[128], b[128];
    remat_shape_str(&want, a, sizeof a);
    remat_shape_str(&out, b, sizeof b);
    rt_emit_error(op, "'%s' result shape %s, expected %s (the reduced dims are dropped)", name, b,
                  a);
    return 1;
  }
  return check_same_element(op, name);
}

/* transpose_a / transpose_b: an optional unit attribute; the operand is read with its
 * last two dims swapped (cuBLAS transa/transb). -1 when present but not a unit attr. */
static int matmul_transposed(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a))
    return 0;
  return mlirAttributeIsAUnit(a) ? 1 : -1;
}

static int check_matmul(MlirOperation op) {
  remat_shape a = rt_shape_of(operand_type(op, 0)), b = rt_shape_of(operand_type(op, 1)),
              c = rt_shape_of(result_type(op));
  char sa[64], sb[64], sc[64];
  remat_shape_str(&a, sa, sizeof sa);
  remat_shape_str(&b, sb, sizeof sb);
  remat_shape_str(&c, sc, sizeof sc);
  int ta = matmul_transposed(op, "transpose_a"), tb = matmul_transposed(op, "transpose_b");
  if (ta < 0 || tb < 0) {
    rt_emit_error(op, "'rt.matmul' transpose_a and transpose_b must be unit attributes");
    return 1;
  }
  bool ok = (a.rank == 2 || a.rank == 3) && b.rank == a.rank && c.rank == a.rank;
  int o = a.rank - 2;
  if (ok) { /* the operands as the product reads them */
    int64_t t;
    if (ta)
      t = a.d[o], a.d[o] = a.d[o + 1], a.d[o + 1] = t;
    if (tb)
      t = b.d[o], b.d[o] = b.d[o + 1], b.d[o + 1] = t;
    ok = a.d[o + 1] == b.d[o] && c.d[o] == a.d[o] && c.d[o + 1] == b.d[o + 1] &&
         (a.rank == 2 || (a.d[0] == b.d[0] && c.d[0] == a.d[0]));
  }
  if (!ok) {
    rt_emit_error(op,
                  "'rt.matmul' shapes do not agree: %s%s x %s%s -> %s (expected [M,K]x[K,N]"
                  "->[M,N] or [B,M,K]x[B,K,N]->[B,M,N], read after transpose_a/b)",
                  sa, ta ? "^T" : "", sb, tb ? "^T" : "", sc);
    return 1;
  }
  MlirType e = rt_element_type(result_type(op));
  if (!mlirTypeEqual(rt_element_type(operand_type(op, 0)), e) ||
      !mlirTypeEqual(rt_element_type(operand_type(op, 1)), e)) {
    rt_emit_error(op, "'rt.matmul' operands and result must have one element type");
    return 1;
  }
  return 0;
}

static int check_philox(MlirOperation op) {
  MlirType e = rt_element_type(result_type(op));
  double lo, hi;
  if (!(mlirTypeIsAF32(e) || mlirTypeIsAF16(e) || mlirTypeIsABF16(e))) {
    rt_emit_error(op, "'rt.uniform_philox' result must be f32, f16 or bf16 (f64 is not "
                      "supported: the uniform is computed in f32)");
    return 1;
  }
  if (!rt_get_f64(op, "lo", &lo) || !rt_get_f64(op, "hi", &hi) || !(lo <= hi)) {
    rt_emit_error(op, "'rt.uniform_philox' needs float attributes lo <= hi");
    return 1;
  }
  return 0;
}

static int check_collective(MlirOperation op, rt_op_id id, const char *name) {
  int64_t size, dim = 0;
  remat_shape in = rt_shape_of(operand_type(op, 0)), out = rt_shape_of(result_type(op));
  if (id == RT_OP_WAIT)
    return 0;
  if (!rt_get_i64(op, "group_size", &size) || size < 1) {
    rt_emit_error(op, "'%s' group_size must be an integer >= 1", name);
    return 1;
  }
  if (id != RT_OP_ALL_REDUCE && (!rt_get_i64(op, "dim", &dim) || dim < 0 || dim >= in.rank)) {
    rt_emit_error(op, "'%s' dim must be within the operand rank %d", name, in.rank);
    return 1;
  }
  if (id != RT_OP_ALL_GATHER) {
    MlirAttribute r = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("reduce"));
    MlirStringRef v = mlirStringAttrGetValue(r);
    if (!rt_str_eq(v, "sum") && !rt_str_eq(v, "max") && !rt_str_eq(v, "min")) {
      rt_emit_error(op, "'%s' reduce must be \"sum\", \"max\" or \"min\"", name);
      return 1;
    }
  }
  remat_shape want = in;
  if (id == RT_OP_ALL_GATHER && __builtin_mul_overflow(in.d[dim], size, &want.d[dim])) {
    rt_emit_error(op, "'%s' gathered size overflows", name);
    return 1;
  }
  if (id == RT_OP_REDUCE_SCATTER) {
    if (in.d[dim] % size) {
      rt_emit_error(op, "'%s' dimension %lld (%lld) is not divisible by group_size %lld", name,
                    (long long)dim, (long long)in.d[dim], (long long)size);
      return 1;
    }
    want.d[dim] = in.d[dim] / size;
  }
  if (!remat_shape_eq(&want, &out)) {
    char a[128], b[128];
    remat_shape_str(&want, a, sizeof a);
    remat_shape_str(&out, b, sizeof b);
    rt_emit_error(op, "'%s' result shape %s, expected %s", name, b, a);
    return 1;
  }
  return check_same_element(op, name);
}

/* ---- indexing ops (docs/design.md, "Indexing ops") ---- */

static bool is_index_elem(MlirType elem) {
  return mlirTypeIsAInteger(elem) &&
         (mlirIntegerTypeGetWidth(elem) == 32 || mlirIntegerTypeGetWidth(elem) == 64);
}

/* The integer attribute dim within [0, rank); -1 after a diagnostic. */
static int64_t index_dim(MlirOperation op, const char *name, int rank) {
  int64_t dim;
  if (!rt_get_i64(op, "dim", &dim) || dim < 0 || dim >= rank) {
    rt_emit_error(op, "'%s' dim must be an integer within the operand rank %d", name, rank);
    return -1;
  }
  return dim;
}

/* IDX (operand #k) is an i32/i64 tensor of BASE's rank matching it outside dimension dim. */
static int check_indices(MlirOperation op, const char *name, intptr_t k, remat_shape base,
                         const char *base_name, int64_t dim) {
  char a[128], b[128];
  MlirType t = operand_type(op, k);
  if (!mlirTypeIsATensor(t) || !is_index_elem(rt_element_type(t))) {
    rt_emit_error(op, "'%s' indices (operand #%ld) must be a tensor of i32 or i64, got '%s'", name,
                  (long)k, rt_type_str(t, a, sizeof a));
    return 1;
  }
  remat_shape s = rt_shape_of(t);
  if (s.rank != base.rank) {
    rt_emit_error(op, "'%s' indices have rank %d, the %s rank %d (expected equal)", name, s.rank,
                  base_name, base.rank);
    return 1;
  }
  for (int d = 0; d < s.rank; d++)
    if (d != dim && s.d[d] != base.d[d]) {
      remat_shape_str(&s, a, sizeof a);
      remat_shape_str(&base, b, sizeof b);
      rt_emit_error(op,
                    "'%s' indices shape %s and %s shape %s differ in dimension %d "
                    "(only dim %lld may differ)",
                    name, a, base_name, b, d, (long long)dim);
      return 1;
    }
  return 0;
}

/* Operand 1 (the indices) of a gather or scatter_add has the shape S of its WHAT (the
 * result, the updates). 0, or 1 after a diagnostic. */
static int check_indices_shape(MlirOperation op, const char *name, const char *what,
                               remat_shape s) {
  remat_shape is = rt_shape_of(operand_type(op, 1));
  if (remat_shape_eq(&is, &s))
    return 0;
  char a[128], b[128];
  remat_shape_str(&s, a, sizeof a);
  remat_shape_str(&is, b, sizeof b);
  rt_emit_error(op, "'%s' %s shape %s differs from the indices shape %s", name, what, a, b);
  return 1;
}

static int check_gather(MlirOperation op) {
  const char *name = "rt.gather";
  MlirType st = operand_type(op, 0), rt = result_type(op);
  if (!mlirTypeIsATensor(st) || !mlirTypeIsATensor(rt)) {
    rt_emit_error(op, "'%s' source and result must be tensors", name);
    return 1;
  }
  remat_shape src = rt_shape_of(st), out = rt_shape_of(rt);
  int64_t dim = index_dim(op, name, src.rank);
  if (dim < 0 || check_indices(op, name, 1, src, "source", dim))
    return 1;
  if (check_indices_shape(op, name, "result", out))
    return 1;
  return check_same_element(op, name);
}

static int check_scatter_add(MlirOperation op) {
  const char *name = "rt.scatter_add";
  char a[128], b[128];
  MlirType bt = operand_type(op, 0), ut = operand_type(op, 2), rt = result_type(op);
  if (!mlirTypeIsATensor(bt) || !mlirTypeIsATensor(ut) || !mlirTypeIsATensor(rt)) {
    rt_emit_error(op, "'%s' base, updates and result must be tensors", name);
    return 1;
  }
  remat_shape base = rt_shape_of(bt);
  int64_t dim = index_dim(op, name, base.rank);
  if (dim < 0 || check_indices(op, name, 1, base, "base", dim))
    return 1;
  if (check_indices_shape(op, name, "updates", rt_shape_of(ut)))
    return 1;
  if (!mlirTypeEqual(rt_element_type(ut), rt_element_type(bt))) {
    rt_emit_error(op, "'%s' updates element type '%s' differs from the base's '%s'", name,
                  rt_type_str(rt_element_type(ut), a, sizeof a),
                  rt_type_str(rt_element_type(bt), b, sizeof b));
    return 1;
  }
  if (!mlirTypeEqual(rt, bt)) {
    rt_emit_error(op, "'%s' result type '%s' differs from the base type '%s'", name,
                  rt_type_str(rt, a, sizeof a), rt_type_str(bt, b, sizeof b));
    return 1;
  }
  return 0;
}

static int check_argmax(MlirOperation op) {
  const char *name = "rt.argmax";
  char a[128], b[128];
  MlirType it = operand_type(op, 0), rt = result_type(op);
  if (!mlirTypeIsATensor(it) || !mlirTypeIsATensor(rt)) {
    rt_emit_error(op, "'%s' operand and result must be tensors", name);
    return 1;
  }
  remat_shape in = rt_shape_of(it), out = rt_shape_of(rt);
  int64_t dim = index_dim(op, name, in.rank);
  if (dim < 0)
    return 1;
  if (in.d[dim] == 0) {
    rt_emit_error(op, "'%s' dimension %lld has size 0: no maximum", name, (long long)dim);
    return 1;
  }
  remat_shape want = {0, {0}};
  for (int k = 0; k < in.rank; k++)
    if (k != dim)
      want.d[want.rank++] = in.d[k];
  if (!remat_shape_eq(&want, &out)) {
    remat_shape_str(&want, a, sizeof a);
    remat_shape_str(&out, b, sizeof b);
    rt_emit_error(op, "'%s' result shape %s, expected %s (dim %lld is dropped)", name, b, a,
                  (long long)dim);
    return 1;
  }
  MlirType e = rt_element_type(rt);
  if (!mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) != 64) {
    rt_emit_error(op, "'%s' result must have element type i64, got '%s'", name,
                  rt_type_str(e, a, sizeof a));
    return 1;
  }
  return 0;
}

/* ---- rt.extern (docs/design.md, "Ops remat does not model") ---- */

static int check_extern(MlirOperation op) {
  const char *name = "rt.extern";
  if (mlirOperationGetNumResults(op) == 0) {
    rt_emit_error(op, "'%s' needs at least one result", name);
    return 1;
  }
  MlirAttribute n = mlirOperationGetAttributeByName(op, rt_str("name"));
  if (mlirAttributeIsNull(n) || !mlirAttributeIsAString(n) ||
      mlirStringAttrGetValue(n).length == 0) {
    rt_emit_error(op,
                  "'%s' needs a non-empty string attribute 'name' (the operation's name, "
                  "e.g. \"aten.convolution.default\")",
                  name);
    return 1;
  }
  if (rt_extern_recompute_of(op) == RT_EXTERN_INVALID) {
    rt_emit_error(op, "'%s' (%.*s) recompute must be \"once\", \"pure\" or \"forward\"", name,
                  (int)mlirStringAttrGetValue(n).length, mlirStringAttrGetValue(n).data);
    return 1;
  }
  MlirAttribute f = mlirOperationGetAttributeByName(op, rt_str("flops"));
  if (!mlirAttributeIsNull(f) &&
      (!mlirAttributeIsAInteger(f) || mlirIntegerAttrGetValueInt(f) < 0)) {
    rt_emit_error(op, "'%s' (%.*s) flops must be an integer >= 0", name,
                  (int)mlirStringAttrGetValue(n).length, mlirStringAttrGetValue(n).data);
    return 1;
  }
  return 0;
}

/* rt.conv and its gradients. Every size is checked before it is used, so that the
 * output size formula cannot overflow (each term is below 2^62 once checked). */
static int check_conv(MlirOperation op, rt_op_id id, const char *name) {
  static const char *role[3][3] = {{"input", "weight", "result"},
                                   {"output gradient", "weight", "result (input gradient)"},
                                   {"input", "output gradient", "result (weight gradient)"}};
  int r = id == RT_OP_CONV ? 0 : id == RT_OP_CONV_GRAD_INPUT ? 1 : 2;
  MlirType t[3] = {operand_type(op, 0), operand_type(op, 1), result_type(op)};
  char a[128], b[128];
  for (int i = 0; i < 3; i++)
    if (!mlirTypeIsATensor(t[i])) {
      rt_emit_error(op, "'%s' %s must be a tensor", name, role[r][i]);
      return 1;
    }
  MlirType e = rt_element_type(t[2]);
  if (!mlirTypeIsAF32(e) && !mlirTypeIsAF64(e) && !mlirTypeIsAF16(e) && !mlirTypeIsABF16(e)) {
    rt_emit_error(op, "'%s' element type must be f32, f64, f16 or bf16, got '%s'", name,
                  rt_type_str(e, a, sizeof a));
    return 1;
  }
  if (!mlirTypeEqual(rt_element_type(t[0]), e) || !mlirTypeEqual(rt_element_type(t[1]), e)) {
    rt_emit_error(op, "'%s' operands and result must have one element type", name);
    return 1;
  }
  int rank = (int)mlirShapedTypeGetRank(t[0]);
  if (rank < 3 || rank > 5 || mlirShapedTypeGetRank(t[1]) != rank ||
      mlirShapedTypeGetRank(t[2]) != rank) {
    rt_emit_error(op,
                  "'%s' operands and result must all have rank 3, 4 or 5 (1, 2 or 3 "
                  "spatial dims after batch and channels)",
                  name);
    return 1;
  }
  int n = rank - 2;
  int64_t v[3][RT_MAX_RANK], groups;
  static const char *attrs[3] = {"stride", "padding", "dilation"};
  for (int i = 0; i < 3; i++) {
    if (get_dims(op, name, attrs[i], v[i], n) < 0)
      return 1;
    for (int k = 0; k < n; k++)
      if (v[i][k] < (i == 1 ? 0 : 1) || v[i][k] > ((int64_t)1 << 40)) {
        rt_emit_error(op, "'%s' %s %lld out of range [%d, 2^40]", name, attrs[i],
                      (long long)v[i][k], i == 1 ? 0 : 1);
        return 1;
      }
  }
  if (!rt_get_i64(op, "groups", &groups) || groups < 1) {
    rt_emit_error(op, "'%s' needs an integer attribute groups >= 1", name);
    return 1;
  }
  rt_conv_geom g;
  if (!rt_conv_geom_of(op, &g))
    remat_fatal("conv geometry of a checked op");
  remat_shape x = rt_shape_of(t[r == 1 ? 2 : 0]), w = rt_shape_of(t[r == 2 ? 2 : 1]),
              y = rt_shape_of(t[r == 0   ? 2
                                : r == 1 ? 0
                                         : 1]);
  bool ok = g.in_ch % groups == 0 && g.out_ch % groups == 0 && w.d[1] * groups == g.in_ch &&
            y.d[0] == g.batch && y.d[1] == g.out_ch;
  remat_shape want = {x.rank, {g.batch, g.out_ch}};
  for (int k = 0; k < n && ok; k++) {
    /* sizes are below 2^63 and the attributes below 2^40: no term overflows */
    int64_t span = g.dil[k] * (g.k[k] - 1) + 1;
    ok = g.k[k] >= 1 && g.in[k] <= ((int64_t)1 << 61) && g.k[k] <= ((int64_t)1 << 20) &&
         g.in[k] + 2 * g.pad[k] >= span;
    if (ok)
      want.d[k + 2] = (g.in[k] + 2 * g.pad[k] - span) / g.stride[k] + 1;
  }
  if (!ok || !remat_shape_eq(&want, &y)) {
    remat_shape_str(&x, a, sizeof a);
    remat_shape_str(&w, b, sizeof b);
    char c[128], d[128] = "none";
    remat_shape_str(&y, c, sizeof c);
    if (ok)
      remat_shape_str(&want, d, sizeof d);
    rt_emit_error(op,
                  "'%s' shapes do not agree: input %s, weight %s, output %s with groups "
                  "%lld (expected output %s: [batch, out_ch, (in + 2 padding - dilation "
                  "(k - 1) - 1) / stride + 1], weight [out_ch, in_ch / groups, k...], k >= 1)",
                  name, a, b, c, (long long)groups, d);
    return 1;
  }
  return 0;
}

/* Whether T is a tensor of shape DIMS (RANK of them) and element type E. */
static bool tensor_is(MlirType t, int rank, const int64_t *dims, MlirType e) {
  if (!mlirTypeIsATensor(t) || mlirShapedTypeGetRank(t) != rank ||
      !mlirTypeEqual(rt_element_type(t), e))
    return false;
  for (int i = 0; i < rank; i++)
    if (mlirShapedTypeGetDimSize(t, i) != dims[i])
      return false;
  return true;
}

/* rt.attention and rt.attention_grad (docs/design.md, "Attention"): the attributes say
 * which operands follow v (do); then every operand and result type follows from q, k
 * and v. */
static int check_attention(MlirOperation op, rt_op_id id, const char *name) {
  bool grad = id == RT_OP_ATTENTION_GRAD;
  char a[128], b[128];
  double scale, keep;
  int64_t diagonal;
  MlirAttribute m = mlirOperationGetAttributeByName(op, rt_str("mask"));
  MlirAttribute c = mlirOperationGetAttributeByName(op, rt_str("causal"));
  MlirAttribute kp = mlirOperationGetAttributeByName(op, rt_str("keep"));
  if (!rt_get_f64(op, "scale", &scale) || !isfinite(scale)) {
    rt_emit_error(op, "'%s' needs a finite float attribute scale (the scores' factor)", name);
    return 1;
  }
  if (!mlirAttributeIsNull(c) &&
      (!rt_get_i64(op, "causal", &diagonal) || diagonal < -((int64_t)1 << 62) ||
       diagonal > ((int64_t)1 << 62))) {
    rt_emit_error(op, "'%s' causal must be an integer in [-2^62, 2^62] (the kept diagonal)", name);
    return 1;
  }
  if (rt_attention_mask_of(op) < 0) {
    rt_emit_error(op, "'%s' mask must be \"keep\", \"drop\" or \"add\"", name);
    return 1;
  }
  if (!mlirAttributeIsNull(kp) && (!rt_get_f64(op, "keep", &keep) || !(keep > 0 && keep <= 1))) {
    rt_emit_error(op, "'%s' keep must be a float in (0, 1] (the probability of keeping a score)",
                  name);
    return 1;
  }
  bool has_mask = !mlirAttributeIsNull(m), dropout = !mlirAttributeIsNull(kp);
  intptr_t want = rt_attention_arity(grad, has_mask, dropout), no = mlirOperationGetNumOperands(op);
  if (no != want) {
    rt_emit_error(op,
                  "'%s' has %ld operands, expected %ld: %s%s%s (a mask operand iff the mask "
                  "attribute, seed and offset iff the keep attribute)",
                  name, (long)no, (long)want, grad ? "q, k, v, o, lse, do" : "q, k, v",
                  has_mask ? ", mask" : "", dropout ? ", seed, offset" : "");
    return 1;
  }
  intptr_t nr = mlirOperationGetNumResults(op);
  if (nr != (grad ? 3 : 2)) {
    rt_emit_error(op, "'%s' has %ld results, expected %s", name, (long)nr,
                  grad ? "3 (dq, dk, dv)" : "2 (the output and the logsumexp)");
    return 1;
  }
  static const char *const qkv[] = {"q", "k", "v"};
  MlirType t[3];
  for (int i = 0; i < 3; i++) {
    t[i] = operand_type(op, i);
    if (!mlirTypeIsATensor(t[i]) || mlirShapedTypeGetRank(t[i]) != 3) {
      rt_emit_error(op, "'%s' %s must be a tensor of rank 3 [batch*heads, seq, dim], got '%s'",
                    name, qkv[i], rt_type_str(t[i], a, sizeof a));
      return 1;
    }
  }
  MlirType e = rt_element_type(t[0]);
  if (!mlirTypeIsAF32(e) && !mlirTypeIsAF64(e)) {
    rt_emit_error(op, "'%s' element type must be f32 or f64, got '%s'", name,
                  rt_type_str(e, a, sizeof a));
    return 1;
  }
  if (!mlirTypeEqual(rt_element_type(t[1]), e) || !mlirTypeEqual(rt_element_type(t[2]), e)) {
    rt_emit_error(op, "'%s' q, k and v must have one element type", name);
    return 1;
  }
  rt_attention at;
  if (!rt_attention_of(op, &at))
    remat_fatal("attention operands of a checked op");
  remat_shape q = rt_shape_of(t[0]), k = rt_shape_of(t[1]), v = rt_shape_of(t[2]);
  if (k.d[0] != at.n || v.d[0] != at.n || k.d[2] != at.d || v.d[1] != at.sk) {
    remat_shape_str(&q, a, sizeof a);
    remat_shape_str(&k, b, sizeof b);
    char c3[128];
    remat_shape_str(&v, c3, sizeof c3);
    rt_emit_error(op,
                  "'%s' shapes do not agree: q %s, k %s, v %s (expected q [N, Sq, D], k "
                  "[N, Sk, D], v [N, Sk, Dv])",
                  name, a, b, c3);
    return 1;
  }
  int64_t od[3] = {at.n, at.sq, at.dv};
  /* the other operands and the results: (index, is a result, what, its shape) */
  struct {
    int at;
    bool result;
    const char *what;
    int rank;
    const int64_t *dims;
  } want_t[] = {{3, false, "o", 3, od},  {4, false, "lse", 2, od}, {5, false, "do", 3, od},
                {0, true, "dq", 3, q.d}, {1, true, "dk", 3, k.d},  {2, true, "dv", 3, v.d},
                {0, true, "o", 3, od},   {1, true, "lse", 2, od}};
  for (size_t w = grad ? 0 : 6; w < (grad ? 6 : 8); w++) {
    MlirValue val = want_t[w].result ? mlirOperationGetResult(op, want_t[w].at)
                                     : mlirOperationGetOperand(op, want_t[w].at);
    MlirType vt = mlirValueGetType(val);
    if (!tensor_is(vt, want_t[w].rank, want_t[w].dims, e)) {
      remat_shape ws = {want_t[w].rank, {0}};
      for (int i = 0; i < ws.rank; i++)
        ws.d[i] = want_t[w].dims[i];
      remat_shape_str(&ws, b, sizeof b);
      rt_emit_error(op, "'%s' %s must be a tensor %s of q's element type, got '%s'", name,
                    want_t[w].what, b, rt_type_str(vt, a, sizeof a));
      return 1;
    }
  }
  if (at.mask_at >= 0) {
    MlirType mt = operand_type(op, at.mask_at);
    MlirType me = rt_element_type(mt);
    int64_t md[3] = {at.n, at.sq, at.sk};
    bool add = at.mask == RT_ATTENTION_MASK_ADD;
    if (!mlirTypeIsATensor(mt) ||
        !(add ? mlirTypeEqual(me, e) : mlirTypeIsAInteger(me) && is_i1(me)) ||
        !(tensor_is(mt, 2, md + 1, me) || tensor_is(mt, 3, md, me))) {
      rt_emit_error(op,
                    "'%s' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of %s (mask = \"%s\"), "
                    "got '%s'",
                    name, add ? "q's element type" : "i1",
                    add                                 ? "add"
                    : at.mask == RT_ATTENTION_MASK_KEEP ? "keep"
                                                        : "drop",
                    rt_type_str(mt, a, sizeof a));
      return 1;
    }
  }
  if (at.seed_at >= 0) {
    for (int i = 0; i < 2; i++) {
      MlirType st = operand_type(op, at.seed_at + i);
      if (!mlirTypeIsAInteger(st) || mlirIntegerTypeGetWidth(st) != 64) {
        rt_emit_error(op, "'%s' %s must be an i64 scalar, got '%s'", name, i ? "offset" : "seed",
                      rt_type_str(st, a, sizeof a));
        return 1;
      }
    }
    int64_t count;
    if (__builtin_mul_overflow(at.n, at.sq, &count) ||
        __builtin_mul_overflow(count, at.sk, &count)) {
      rt_emit_error(op, "'%s' dropout's N x Sq x Sk elements overflow 64 bits", name);
      return 1;
    }
  }
  return 0;
}

static int check_rt_op(MlirOperation op, rt_op_id id) {
  const char *name = rt_op_name(id);
  if (check_types(op, name, id == RT_OP_EXTERN))
    return 1;
  rt_type_rule rule = rt_op_rule(id);
  switch (rule) {
  case RT_RULE_ANY: return 0;
  case RT_RULE_FLOAT:
    if (!is_float(rt_element_type(result_type(op)))) {
      rt_emit_error(op, "'%s' requires a floating-point element type", name);
      return 1;
    }
    return 0;
  case RT_RULE_SAME:
  case RT_RULE_I1_RESULT:
  case RT_RULE_SELECT: return check_elementwise(op, rule, name);
  case RT_RULE_CONVERT: {
    remat_shape a = rt_shape_of(operand_type(op, 0)), b = rt_shape_of(result_type(op));
    if (!remat_shape_eq(&a, &b)) {
      rt_emit_error(op, "'%s' changes the shape; it may only change the element type", name);
      return 1;
    }
    return 0;
  }
  case RT_RULE_BROADCAST: return check_broadcast(op) || check_same_element(op, name);
  case RT_RULE_RESHAPE: return check_reshape(op) || check_same_element(op, name);
  case RT_RULE_TRANSPOSE: return check_transpose(op) || check_same_element(op, name);
  case RT_RULE_SLICE: return check_slice(op) || check_same_element(op, name);
  case RT_RULE_CONCAT: return check_concat(op);
  case RT_RULE_IOTA: return check_iota(op);
  case RT_RULE_REDUCE: return check_reduction(op, name);
  case RT_RULE_MATMUL: return check_matmul(op);
  case RT_RULE_PHILOX: return check_philox(op);
  case RT_RULE_COLLECTIVE: return check_collective(op, id, name);
  case RT_RULE_GATHER: return check_gather(op);
  case RT_RULE_SCATTER_ADD: return check_scatter_add(op);
  case RT_RULE_ARGMAX: return check_argmax(op);
  case RT_RULE_EXTERN: return check_extern(op);
  case RT_RULE_CONV: return check_conv(op, id, name);
  case RT_RULE_ATTENTION: return check_attention(op, id, name);
  }
  remat_fatal("rule %d of '%s'", (int)rule, name);
}

/* Tags any op may carry. */
static int check_tags(MlirOperation op) {
  if (rt_policy_get(op) == RT_POLICY_INVALID) {
    rt_emit_error(op, "'rt.policy' must be one of \"must_save\", \"prefer_save\", "
                      "\"must_recompute\", \"prefer_recompute\"");
    return 1;
  }
  MlirAttribute r = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString("rt.ac_region"));
  if (!mlirAttributeIsNull(r) && !mlirAttributeIsAInteger(r)) {
    rt_emit_error(op, "'rt.ac_region' must be an integer");
    return 1;
  }
  return 0;
}

/* rt.range on argument I (docs/design.md, "Integer ranges"): array<i64: LO, HI> with
 * LO < HI, on an integer argument (i1 aside) whose element type holds LO and HI - 1. */
static int check_arg_range(MlirOperation func, intptr_t i, MlirType t) {
  MlirAttribute r = rt_func_arg_attr(func, i, "rt.range");
  if (mlirAttributeIsNull(r))
    return 0;
  MlirStringRef fname = rt_func_name(func);
  char tb[128];
  if (!mlirAttributeIsADenseI64Array(r) || mlirDenseArrayGetNumElements(r) != 2) {
    rt_emit_error(func, "'rt.range' of argument #%ld of '@%.*s' must be array<i64: LO, HI>",
                  (long)i, (int)fname.length, fname.data);
    return 1;
  }
  int64_t lo = mlirDenseI64ArrayGetElement(r, 0), hi = mlirDenseI64ArrayGetElement(r, 1);
  MlirType e = mlirTypeIsATensor(t) ? mlirShapedTypeGetElementType(t) : t;
  unsigned w = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e) : 0;
  if (w < 2 || w > 64) {
    rt_emit_error(func,
                  "'rt.range' of argument #%ld of '@%.*s': '%s' is not an integer type "
                  "(i1 aside)",
                  (long)i, (int)fname.length, fname.data, rt_type_str(t, tb, sizeof tb));
    return 1;
  }
  if (lo >= hi) {
    rt_emit_error(func, "'rt.range' [%lld, %lld) of argument #%ld of '@%.*s' is empty",
                  (long long)lo, (long long)hi, (long)i, (int)fname.length, fname.data);
    return 1;
  }
  int64_t min = w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1));
  int64_t max = w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
  if (lo < min || hi - 1 > max) {
    rt_emit_error(func,
                  "'rt.range' [%lld, %lld) of argument #%ld of '@%.*s' exceeds the values of "
                  "i%u",
                  (long long)lo, (long long)hi, (long)i, (int)fname.length, fname.data, w);
    return 1;
  }
  return 0;
}

/* A function's signature: static tensors and scalars only. A joint function (one with
 * rt.num_outputs) has 0 <= N <= #results; rt.tangent arguments only in joint functions
 * and in backward functions (rt.forward = @f_fwd, made by --remat-mincut). */
static int check_func(MlirOperation func) {
  char tb[128];
  MlirAttribute ta =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type"));
  MlirType fty = mlirTypeAttrGetValue(ta);
  intptr_t ni = mlirFunctionTypeGetNumInputs(fty), nr = mlirFunctionTypeGetNumResults(fty);
  MlirStringRef fname = rt_func_name(func);
  MlirAttribute na =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("rt.num_outputs"));
  for (intptr_t i = 0; i < ni + nr; i++) {
    MlirType t = i < ni ? mlirFunctionTypeGetInput(fty, i) : mlirFunctionTypeGetResult(fty, i - ni);
    const char *what = i < ni ? "argument" : "result";
    long idx = (long)(i < ni ? i : i - ni);
    if (mlirTypeIsATensor(t) && !rt_type_is_static_tensor(t)) {
      rt_emit_error(func,
                    "function '@%.*s' %s #%ld has a dynamic shape '%s': only static "
                    "shapes are supported",
                    (int)fname.length, fname.data, what, idx, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    /* The passes weigh a joint function's values by their bytes: its arguments and results
     * are tensors or numbers that have a size. */
    uint64_t bytes;
    bool tensor = mlirTypeIsATensor(t);
    if (!mlirAttributeIsNull(na) && rt_type_bytes(t, &bytes)) {
      bool number = tensor && rt_type_is_number(mlirShapedTypeGetElementType(t));
      rt_emit_error(func, "function '@%.*s' %s #%ld: the %s of '%s' %s", (int)fname.length,
                    fname.data, what, idx, number ? "size" : "type", rt_type_str(t, tb, sizeof tb),
                    number ? "overflows 64 bits"
                           : "is not one remat can size (a tensor of integers or floats, or a "
                             "number)");
      return 1;
    }
    if (i < ni && check_arg_range(func, i, t))
      return 1;
  }
  int64_t n;
  if (!mlirAttributeIsNull(na)) {
    if (!rt_func_num_outputs(func, &n)) {
      rt_emit_error(func, "'rt.num_outputs' of '@%.*s' must be an integer", (int)fname.length,
                    fname.data);
      return 1;
    }
    if (n < 0 || n > nr) {
      rt_emit_error(func,
                    "'rt.num_outputs' = %lld of '@%.*s' is out of range: the function "
                    "has %ld results",
                    (long long)n, (int)fname.length, fname.data, (long)nr);
      return 1;
    }
    return 0;
  }
  /* A backward function made by --remat-mincut (rt.forward = @f_fwd) keeps the
   * rt.tangent arguments of the joint function it came from. */
  MlirAttribute fwd =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("rt.forward"));
  if (!mlirAttributeIsNull(fwd)) {
    if (!mlirAttributeIsAFlatSymbolRef(fwd)) {
      rt_emit_error(func, "'rt.forward' of '@%.*s' must be a symbol reference (@f_fwd)",
                    (int)fname.length, fname.data);
      return 1;
    }
    return 0;
  }
  for (intptr_t i = 0; i < ni; i++)
    if (rt_func_arg_has_attr(func, i, "rt.tangent")) {
      rt_emit_error(func,
                    "argument #%ld of '@%.*s' is marked 'rt.tangent' but the function "
                    "has no 'rt.num_outputs'",
                    (long)i, (int)fname.length, fname.data);
      return 1;
    }
  return 0;
}

static MlirWalkResult verify_op(MlirOperation op, void *ud) {
  int *errors = ud;
  rt_op_id id = rt_op_lookup(op);
  if (id != RT_OP_NONE)
    *errors += check_rt_op(op, id);
  else if (rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") &&
           !mlirAttributeIsNull(mlirOperationGetAttributeByName(
               op, mlirStringRefCreateFromCString("function_type"))))
    *errors += check_func(op);
  *errors += check_tags(op);
  return MlirWalkResultAdvance;
}

int rt_verify(MlirOperation module) {
  int errors = 0;
  mlirOperationWalk(module, verify_op, &errors, MlirWalkPreOrder);
  return errors;
}

MlirLogicalResult rematVerify(MlirOperation module) {
  return rt_verify(module) ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
