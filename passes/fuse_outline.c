/* fuse_outline.c: what each group of --remat-fuse becomes (its kernel's body, arguments,
 * results and constants), and the outlining of the kernels into functions called from
 * the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- what each group becomes ---- */

static bool value_in(const MlirValue *vs, int n, MlirValue v, int *at) {
  for (int i = 0; i < n; i++)
    if (mlirValueEqual(vs[i], v)) {
      if (at)
        *at = i;
      return true;
    }
  return false;
}

static int const_index(const kernel *k, MlirOperation c) {
  for (int i = 0; i < k->nconsts; i++)
    if (mlirOperationEqual(k->consts[i], c))
      return i;
  return -1;
}

static bool is_scalar_constant(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  return rt_op_named(d, "arith.constant") &&
         rt_type_is_scalar(mlirValueGetType(mlirOperationGetResult(d, 0)));
}

/* Marks, with stamp, the inlined ops member/inlined op i needs. */
static void mark_cone(blk *b, int i, int stamp) {
  MlirOperation op = b->ops[i];
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++) {
    int j = fuse_def_pos(b, mlirOperationGetOperand(op, a));
    if (j >= 0 && b->dup[j] && b->grp[j] < 0 && b->stamp[j] != stamp) {
      b->stamp[j] = stamp;
      mark_cone(b, j, stamp);
    }
  }
}

/* Bodies, arguments, constants and results of every group, in order of the groups' first
 * ops. Returns the number of kernels; *out gets them. */
int fuse_collect_kernels(blk *b, kernel **out) {
  int *order = xcalloc((size_t)b->ngroups + 1, sizeof *order), nk = 0;
  int *kidx = xcalloc((size_t)b->ngroups + 1, sizeof *kidx);
  for (int g = 0; g < b->ngroups; g++)
    kidx[g] = -1;
  for (int i = 0; i < b->n; i++)
    if (b->grp[i] >= 0 && kidx[b->grp[i]] < 0) {
      kidx[b->grp[i]] = nk;
      order[nk++] = b->grp[i];
    }
  kernel *ks = xcalloc((size_t)nk + 1, sizeof *ks);
  for (int k = 0; k < nk; k++) {
    kernel *kr = &ks[k];
    kr->g = order[k];
    kr->rows = b->groups[order[k]].row;
    int stamp = new_stamp(b);
    for (int i = 0; i < b->n; i++)
      if (b->grp[i] == kr->g) {
        b->stamp[i] = stamp;
        mark_cone(b, i, stamp);
      }
    int cap = 0;
    for (int i = 0; i < b->n; i++)
      if (b->stamp[i] == stamp) {
        XGROW(kr->body, kr->nbody, cap, 8);
        kr->body[kr->nbody++] = i;
      }
    int acap = 0, ccap = 0;
    for (int bi = 0; bi < kr->nbody; bi++) {
      MlirOperation op = b->ops[kr->body[bi]];
      for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++) {
        MlirValue v = mlirOperationGetOperand(op, a);
        int j = fuse_def_pos(b, v);
        if (j >= 0 && b->stamp[j] == stamp)
          continue;
        if (is_scalar_constant(v)) {
          MlirOperation c = mlirOpResultGetOwner(v);
          if (const_index(kr, c) < 0) {
            XGROW(kr->consts, kr->nconsts, ccap, 4);
            kr->consts[kr->nconsts++] = c;
          }
          continue;
        }
        if (value_in(kr->args, kr->nargs, v, NULL))
          continue;
        XGROW(kr->args, kr->nargs, acap, 4);
        kr->args[kr->nargs++] = v;
      }
    }
  }
  /* Kernels are numbered in the order of their first ops (inlined ones included). */
  for (int k = 1; k < nk; k++)
    for (int j = k; j > 0 && ks[j - 1].body[0] > ks[j].body[0]; j--) {
      kernel t = ks[j];
      ks[j] = ks[j - 1];
      ks[j - 1] = t;
    }
  /* Results: members read by a host op, a host view, code outside the block, or another
   * kernel (one of its arguments). */
  bool *exported = xcalloc((size_t)b->n + 1, sizeof(bool));
  for (int i = 0; i < b->n; i++)
    exported[i] = b->grp[i] >= 0 && b->hostuse[i];
  for (int k = 0; k < nk; k++)
    for (int a = 0; a < ks[k].nargs; a++) {
      int j = fuse_def_pos(b, ks[k].args[a]);
      if (j >= 0 && b->grp[j] >= 0)
        exported[j] = true;
    }
  /* shape mode: any use outside the group (its members read each other directly) */
  if (b->shape_mode)
    for (int i = 0; i < b->n; i++)
      for (int u = fuse_use_begin(b, i); u < fuse_use_end(b, i) && b->grp[i] >= 0; u++) {
        int j = b->view.use[u];
        if (j < 0 || b->grp[j] != b->grp[i])
          exported[i] = true;
      }
  for (int k = 0; k < nk; k++) {
    kernel *kr = &ks[k];
    int cap = 0, last = -1;
    for (int i = 0; i < b->n; i++) {
      if (b->grp[i] != kr->g)
        continue;
      last = i;
      if (!exported[i])
        continue;
      XGROW(kr->results, kr->nresults, cap, 4);
      kr->results[kr->nresults++] = mlirOperationGetResult(b->ops[i], 0);
    }
    if (kr->nresults == 0) { /* dead code: still a kernel, returning its last value */
      kr->results = xcalloc(1, sizeof *kr->results);
      kr->results[kr->nresults++] = mlirOperationGetResult(b->ops[last], 0);
    }
  }
  free(exported);
  free(kidx);
  free(order);
  *out = ks;
  return nk;
}

void fuse_kernels_free(kernel *ks, int nk) {
  for (int k = 0; k < nk; k++) {
    free(ks[k].body);
    free(ks[k].args);
    free(ks[k].results);
    free(ks[k].consts);
    free(ks[k].const_clones);
  }
  free(ks);
}

/* ---- outlining ---- */

/* The kernel value that stands for host value v inside kernel k. clones: per position. */
static MlirValue kernel_value(const blk *b, const kernel *k, MlirBlock body,
                              const MlirOperation *clones, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation owner = mlirOpResultGetOwner(v);
    int j = rt_graph_op_index(&b->view, owner), c = const_index(k, owner);
    if (j >= 0 && !mlirOperationIsNull(clones[j]))
      return mlirOperationGetResult(clones[j], mlirOpResultGetResultNumber(v));
    if (c >= 0)
      return mlirOperationGetResult(k->const_clones[c], mlirOpResultGetResultNumber(v));
  }
  int at;
  if (!value_in(k->args, k->nargs, v, &at))
    remat_fatal("kernel operand neither inside nor an argument");
  return mlirBlockGetArgument(body, at);
}

/* Builds the kernel function of k and its call, placed before the group's last member. */
static MlirOperation build_kernel(const blk *b, kernel *k, const char *name,
                                  MlirOperation *clones) {
  const group *gr = &b->groups[k->g];
  MlirOperation first = b->ops[gr->first];
  for (int bi = 0; bi < k->nbody; bi++)
    if (b->grp[k->body[bi]] == k->g) {
      first = b->ops[k->body[bi]];
      break;
    }
  int last = -1;
  for (int bi = 0; bi < k->nbody; bi++)
    if (b->grp[k->body[bi]] == k->g)
      last = k->body[bi];
  MlirContext ctx = mlirOperationGetContext(first);
  MlirLocation loc = mlirOperationGetLocation(first);
  MlirType *in = xcalloc((size_t)k->nargs, sizeof *in);
  MlirType *out = xcalloc((size_t)k->nresults, sizeof *out);
  MlirLocation *locs = xcalloc((size_t)k->nargs, sizeof *locs);
  for (int a = 0; a < k->nargs; a++) {
    in[a] = mlirValueGetType(k->args[a]);
    locs[a] = loc;
  }
  for (int r = 0; r < k->nresults; r++)
    out[r] = mlirValueGetType(k->results[r]);

  MlirBlock body = mlirBlockCreate(k->nargs, in, locs);
  k->const_clones = xcalloc((size_t)k->nconsts, sizeof *k->const_clones);
  for (int c = 0; c < k->nconsts; c++) {
    k->const_clones[c] = mlirOperationClone(k->consts[c]);
    mlirBlockAppendOwnedOperation(body, k->const_clones[c]);
  }
  for (int bi = 0; bi < k->nbody; bi++) {
    int i = k->body[bi];
    MlirOperation op = b->ops[i], copy = mlirOperationClone(op);
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
      mlirOperationSetOperand(copy, a,
                              kernel_value(b, k, body, clones, mlirOperationGetOperand(op, a)));
    clones[i] = copy;
    mlirBlockAppendOwnedOperation(body, copy);
  }
  MlirValue *rets = xcalloc((size_t)k->nresults, sizeof *rets);
  for (int r = 0; r < k->nresults; r++)
    rets[r] = kernel_value(b, k, body, clones, k->results[r]);
  for (int bi = 0; bi < k->nbody; bi++) /* the clones map is per kernel */
    clones[k->body[bi]] = (MlirOperation){NULL};
  MlirOperation func = rt_kernel_func(ctx, loc, name, body, k->nresults, rets);

  MlirNamedAttribute callee =
      rt_named_attr(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, rt_str(name)));
  MlirOperationState cs = mlirOperationStateGet(mlirStringRefCreateFromCString("func.call"), loc);
  mlirOperationStateAddOperands(&cs, k->nargs, k->args);
  mlirOperationStateAddResults(&cs, k->nresults, out);
  mlirOperationStateAddAttributes(&cs, 1, &callee);
  k->call = mlirOperationCreate(&cs);
  mlirBlockInsertOwnedOperationBefore(b->block, b->ops[last], k->call);

  free(rets);
  free(locs);
  free(out);
  free(in);
  return func;
}

/* Rewrites block b: kernels inserted into the module after *after (updated), calls in
 * the host, fused and inlined ops erased. Returns 0, or -1 after a diagnostic (a kernel
 * name already taken; nothing is changed then). */
int fuse_outline(blk *b, kernel *ks, int nk, MlirSymbolTable symbols, MlirOperation fn,
                 MlirOperation *after, int *counter) {
  MlirStringRef fname = rt_func_name(fn);
  size_t name_cap = fname.length + 16;
  char *names = xcalloc((size_t)nk + 1, name_cap);
  int rc = 0;
  for (int k = 0; k < nk && rc == 0; k++) {
    char *name = names + (size_t)k * name_cap;
    snprintf(name, name_cap, "%.*s_k%d", (int)fname.length, fname.data, (*counter)++);
    if (!mlirOperationIsNull(
            mlirSymbolTableLookup(symbols, mlirStringRefCreateFromCString(name)))) {
      rt_emit_error(fn, "cannot outline a kernel of '%.*s': the symbol '%s' already exists",
                    (int)fname.length, fname.data, name);
      rc = -1;
    }
  }
  if (rc) {
    free(names);
    return rc;
  }
  MlirOperation *clones = xcalloc((size_t)b->n + 1, sizeof *clones);
  for (int k = 0; k < nk; k++) {
    MlirOperation kfn = build_kernel(b, &ks[k], names + (size_t)k * name_cap, clones);
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(*after), *after, kfn);
    mlirSymbolTableInsert(symbols, kfn); /* the name is free: nothing is renamed */
    *after = kfn;
  }
  for (int k = 0; k < nk; k++)
    for (int r = 0; r < ks[k].nresults; r++)
      mlirValueReplaceAllUsesOfWith(ks[k].results[r], mlirOperationGetResult(ks[k].call, r));
  /* Users before producers: what is left of a fused op's uses is later fused ops. */
  for (int j = b->n - 1; j >= 0; j--)
    if (b->grp[j] >= 0 || (b->dup[j] && !b->hview[j]))
      mlirOperationDestroy(b->ops[j]);
  /* Scalar constants that only fused ops used are now dead in the host (each looked at
   * once: several kernels may clone the same one). */
  int total = 0;
  for (int k = 0; k < nk; k++)
    total += ks[k].nconsts;
  ptr_map seen;
  ptr_map_init(&seen, (size_t)total);
  for (int k = 0; k < nk; k++)
    for (int c = 0; c < ks[k].nconsts; c++) {
      MlirOperation op = ks[k].consts[c];
      if (ptr_map_get(&seen, op.ptr) >= 0)
        continue;
      ptr_map_put(&seen, op.ptr, 1);
      if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
        mlirOperationDestroy(op);
    }
  ptr_map_free(&seen);
  free(clones);
  free(names);
  return 0;
}
