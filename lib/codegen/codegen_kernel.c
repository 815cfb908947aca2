/* codegen_kernel.c: one rt.kernel function -> one LLVM function: the checks of what a
 * kernel may hold, the signature (ABI in codegen.h), the element loop, and cg_value_at,
 * which dispatches an MLIR value at an index to the op files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "codegen_internal.h"
#include "rt.h"

/* Scalars a kernel can take by value. */
static bool is_abi_scalar(MlirType t) {
  if (mlirTypeIsAF32(t) || mlirTypeIsAF64(t))
    return true;
  if (!mlirTypeIsAInteger(t) || !mlirIntegerTypeIsSignless(t))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(t);
  return w == 1 || w == 32 || w == 64;
}

static bool is_abi_tensor(MlirType t) {
  return rt_type_is_static_tensor(t) && mlirShapedTypeGetRank(t) <= RT_MAX_RANK &&
         rt_element_type_is_supported(mlirShapedTypeGetElementType(t));
}

static LLVMTypeRef param_type(cg_module *m, MlirType t) {
  if (mlirTypeIsATensor(t))
    return m->ptr;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1)
    return m->i8;
  return cg_compute_type(m, t);
}

LLVMValueRef cg_value_at(cg_kernel *k, MlirValue v, LLVMValueRef idx) {
  MlirType t = mlirValueGetType(v);
  bool tensor = mlirTypeIsATensor(t);
  if (!tensor)
    idx = NULL;
  else if (mlirShapedTypeGetRank(t) == 0) /* in a row kernel of K = []: the row, 0 */
    idx = k->row && k->row->kshape.rank == 0 && k->row_idx ? k->row_idx : cg_i64(k->m, 0);
  for (int i = k->num_memo - 1; i >= 0; i--)
    if (k->memo[i].value == v.ptr && k->memo[i].index == idx)
      return k->memo[i].result;

  LLVMValueRef r = NULL;
  for (int i = 0; i < k->num_ext && !r; i++)
    if (mlirValueEqual(k->ext[i], v))
      r = cg_load(k->m, mlirShapedTypeGetElementType(t), k->ext_params[i], idx);
  if (r)
    ;
  else if (mlirValueIsABlockArgument(v)) {
    LLVMValueRef p = k->params[mlirBlockArgumentGetArgNumber(v)];
    if (tensor)
      r = cg_load(k->m, mlirShapedTypeGetElementType(t), p, idx);
    else if (LLVMTypeOf(p) == k->m->i8) /* i1 passed as a byte */
      r = LLVMBuildICmp(k->m->b, LLVMIntNE, p, LLVMConstInt(k->m->i8, 0, 0), "");
    else
      r = p;
  } else {
    MlirOperation op = mlirOpResultGetOwner(v);
    switch (rt_op_kind_of(rt_op_lookup(op))) {
    case RT_KIND_ELEMENTWISE:
    case RT_KIND_COMPARE: r = cg_elementwise(k, op, idx); break;
    case RT_KIND_STRUCTURAL: r = cg_structural(k, op, idx); break;
    case RT_KIND_RANDOM: r = cg_philox(k, op, idx); break;
    case RT_KIND_NONE: r = cg_arith(k, op); break;             /* checked by check_body */
    case RT_KIND_REDUCTION: return cg_reduction_at(k, v, idx); /* memoized per row */
    case RT_KIND_MATMUL:
    case RT_KIND_CONV:
    case RT_KIND_ATTENTION:
    case RT_KIND_INDEXING:
    case RT_KIND_EXTERN:
    case RT_KIND_COLLECTIVE: remat_fatal("check_body admits no '%s'", rt_op_name(rt_op_lookup(op)));
    }
  }
  XGROW(k->memo, k->num_memo, k->cap_memo, 64);
  k->memo[k->num_memo++] = (cg_memo){v.ptr, idx, r};
  return r;
}

/* Every op of a kernel body must be lowerable. Emits one diagnostic per bad op. */
static int check_body(MlirBlock body) {
  int errors = 0;
  char tb[128];
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    rt_op_id id = rt_op_lookup(op);
    rt_op_kind kind = rt_op_kind_of(id);
    if (rt_str_eq(name, "func.return"))
      continue;
    if (kind == RT_KIND_ELEMENTWISE || kind == RT_KIND_COMPARE || kind == RT_KIND_STRUCTURAL ||
        kind == RT_KIND_RANDOM || kind == RT_KIND_REDUCTION) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
      if (!is_abi_tensor(t)) {
        rt_emit_error(op, "cannot lower '%.*s' with result type '%s' in a kernel", (int)name.length,
                      name.data, rt_type_str(t, tb, sizeof tb));
        errors++;
      }
      continue;
    }
    if (cg_arith_supported(op))
      continue;
    if (kind != RT_KIND_NONE)
      rt_emit_error(op,
                    "'%.*s' cannot be lowered in a kernel: only elementwise, compare, "
                    "structural, random and reduction rt ops fuse (it belongs in a host "
                    "function)",
                    (int)name.length, name.data);
    else
      rt_emit_error(op, "'%.*s' cannot be lowered in a kernel", (int)name.length, name.data);
    errors++;
  }
  return errors;
}

/* The reductions of a kernel body (in order) and its row structure; they must share it.
 * Returns the number of reductions, -1 after a diagnostic. */
static int find_reductions(MlirBlock body, MlirOperation **out, cg_row *row) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    rt_op_id id = rt_op_lookup(op);
    if (id != RT_OP_SUM && id != RT_OP_AMAX)
      continue;
    cg_row r = cg_row_of(op);
    if (n == 0)
      *row = r;
    else if (!cg_row_eq(row, &r)) {
      rt_emit_error(op, "a kernel's reductions must all reduce the same dims of one shape "
                        "(one row structure per kernel)");
      free(*out);
      *out = NULL;
      return -1;
    }
    *out = xrealloc(*out, (size_t)n + 1, sizeof **out);
    (*out)[n++] = op;
  }
  return n;
}

static bool shape_is(MlirType t, const remat_shape *s) {
  remat_shape a = rt_shape_of(t);
  return a.rank == s->rank && !memcmp(a.d, s->d, sizeof(int64_t) * (size_t)a.rank);
}

/* A shape of the rows: K up to dims of size 1 (a keepdim [N, 1] for K = [N]). */
static bool shape_is_rows(MlirType t, const remat_shape *k) {
  remat_shape a = rt_shape_of(t);
  int i = 0, j = 0;
  for (;;) {
    while (i < a.rank && a.d[i] == 1)
      i++;
    while (j < k->rank && k->d[j] == 1)
      j++;
    if (i == a.rank || j == k->rank)
      return i == a.rank && j == k->rank;
    if (a.d[i++] != k->d[j++])
      return false;
  }
}

/* Arguments and results of a kernel: tensors and scalars of the ABI; the results of a
 * loop kernel have one shape, those of a row kernel the shape S or K of its rows. */
static int check_signature(MlirOperation func, MlirType fty, const cg_row *row) {
  char tb[128];
  intptr_t ni = mlirFunctionTypeGetNumInputs(fty), nr = mlirFunctionTypeGetNumResults(fty);
  MlirStringRef name = rt_func_name(func);
  for (intptr_t i = 0; i < ni; i++) {
    MlirType t = mlirFunctionTypeGetInput(fty, i);
    if (!is_abi_tensor(t) && !is_abi_scalar(t)) {
      rt_emit_error(func,
                    "kernel '%.*s' argument #%ld has type '%s': expected a static "
                    "tensor or a f32, f64, i64, i32 or i1 scalar",
                    (int)name.length, name.data, (long)i, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
  }
  if (nr == 0) {
    rt_emit_error(func, "kernel '%.*s' has no results", (int)name.length, name.data);
    return 1;
  }
  remat_shape s0 = rt_shape_of(mlirFunctionTypeGetResult(fty, 0));
  for (intptr_t i = 0; i < nr; i++) {
    MlirType t = mlirFunctionTypeGetResult(fty, i);
    if (row && is_abi_tensor(t) && (shape_is(t, &row->s) || shape_is_rows(t, &row->kshape)))
      continue;
    if (row) {
      rt_emit_error(func,
                    "kernel '%.*s' result #%ld has type '%s': every result of a kernel "
                    "with reductions must have the reductions' input or result shape",
                    (int)name.length, name.data, (long)i, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
    if (!is_abi_tensor(t) || !shape_is(t, &s0)) {
      rt_emit_error(func,
                    "kernel '%.*s' result #%ld has type '%s': every result must be a "
                    "tensor of the shape of result #0",
                    (int)name.length, name.data, (long)i, rt_type_str(t, tb, sizeof tb));
      return 1;
    }
  }
  return 0;
}

int cg_emit_kernel(cg_module *m, MlirOperation func, remat_cg_function *out) {
  MlirAttribute fattr =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type"));
  MlirType fty = mlirTypeAttrGetValue(fattr);
  MlirBlock body = rt_func_entry_block(func);
  if (mlirBlockIsNull(body)) {
    rt_emit_error(func, "a kernel needs a body");
    return -1;
  }
  if (check_body(body))
    return -1;
  MlirOperation *reds = NULL;
  cg_row row;
  int nred = find_reductions(body, &reds, &row);
  if (nred < 0 || check_signature(func, fty, nred > 0 ? &row : NULL)) {
    free(reds);
    return -1;
  }

  int ni = (int)mlirFunctionTypeGetNumInputs(fty), nr = (int)mlirFunctionTypeGetNumResults(fty);
  bool host = m->target == REMAT_TARGET_HOST;
  int np = ni + nr + (host ? 2 : 0);
  LLVMTypeRef *ptypes = xcalloc((size_t)(np), sizeof *ptypes);
  out->kind = REMAT_CG_KERNEL;
  out->source = func;
  out->num_params = ni + nr;
  out->params = xcalloc((size_t)(ni + nr), sizeof *out->params);
  for (int i = 0; i < ni + nr; i++) {
    MlirType t = i < ni ? mlirFunctionTypeGetInput(fty, i) : mlirFunctionTypeGetResult(fty, i - ni);
    out->params[i] = (remat_cg_param){t, i >= ni};
    ptypes[i] = param_type(m, t);
  }
  if (host)
    ptypes[np - 2] = ptypes[np - 1] = m->i64;
  MlirStringRef name = rt_func_name(func);
  out->name = xstrndup(name.data, name.length);
  remat_shape space = rt_shape_of(mlirFunctionTypeGetResult(fty, 0));
  out->numel = nred > 0 ? row.rows : remat_shape_numel(&space);
  out->row_len = nred > 0 ? row.len : 0;

  LLVMValueRef fn =
      LLVMAddFunction(m->mod, out->name, LLVMFunctionType(m->void_t, ptypes, (unsigned)np, 0));
  free(ptypes);
  if (!host)
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
  LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));

  cg_kernel k;
  memset(&k, 0, sizeof k);
  k.m = m;
  k.fn = fn;
  k.body = body;
  k.params = xcalloc((size_t)(ni > 0 ? ni : 1), sizeof *k.params);
  for (int i = 0; i < ni + nr; i++) {
    char pname[16];
    int len = snprintf(pname, sizeof pname, i < ni ? "in%d" : "out%d", i < ni ? i : i - ni);
    LLVMSetValueName2(LLVMGetParam(fn, (unsigned)i), pname, (size_t)len);
    if (i < ni)
      k.params[i] = LLVMGetParam(fn, (unsigned)i);
  }
  MlirOperation ret = mlirBlockGetTerminator(body);
  if (nred > 0) {
    /* Ops of the rows' shape (K, up to dims of size 1) are evaluated once per row. */
    MlirOperation *kops = NULL;
    int nk = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      rt_op_id id = rt_op_lookup(op);
      if (id == RT_OP_NONE || id == RT_OP_SUM || id == RT_OP_AMAX ||
          !shape_is_rows(mlirValueGetType(mlirOperationGetResult(op, 0)), &row.kshape) ||
          shape_is(mlirValueGetType(mlirOperationGetResult(op, 0)), &row.s))
        continue;
      kops = xrealloc(kops, (size_t)(nk + 1), sizeof *kops);
      kops[nk++] = op;
    }
    MlirValue *outs = xcalloc((size_t)(nr), sizeof *outs);
    LLVMValueRef *ops = xcalloc((size_t)(nr), sizeof *ops);
    for (int j = 0; j < nr; j++) {
      outs[j] = mlirOperationGetOperand(ret, j);
      ops[j] = LLVMGetParam(fn, (unsigned)(ni + j));
    }
    cg_emit_rows(&k, &row, reds, nred, kops, nk, outs, ops, nr);
    free(ops);
    free(outs);
    free(kops);
  } else {
    cg_loop loop;
    cg_loop_open(m, fn, out->numel, &loop);
    for (int j = 0; j < nr; j++) {
      MlirValue v = mlirOperationGetOperand(ret, j);
      LLVMValueRef x = cg_value_at(&k, v, loop.iv);
      cg_store(m, rt_element_type(mlirValueGetType(v)), LLVMGetParam(fn, (unsigned)(ni + j)),
               loop.iv, x);
    }
    cg_loop_close(m, &loop);
  }
  free(reds);
  LLVMBuildRetVoid(m->b);
  free(k.params);
  free(k.memo);
  if (k.failed)
    return -1;
  if (host)
    cg_emit_packed(m, fn, out);
  return 0;
}
