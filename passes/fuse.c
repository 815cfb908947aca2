/* fuse.c: --remat-fuse, outlining of fusible groups into kernel functions.
 *
 * Requires: rt IR that passed rematVerify (static shapes). Runs on every func.func of the
 *   module that is not a kernel (no rt.kernel attribute) and has a body: joint functions,
 *   the @f_fwd / @f_bwd of --remat-mincut, plain functions.
 * Keeps: the meaning of every function; the order of the ops left in the host function;
 *   rt.policy / rt.ac_region tags and locations of fused ops (now inside the kernels).
 * Breaks: every fusible op leaves the host function; scalar arith.constants used only by
 *   fused ops are cloned into the kernels and erased from the host.
 *
 * The kernel form (the contract with the codegen and the runtime):
 *   func.func private @<fn>_k<N>(args...) -> (results...) attributes {rt.kernel}
 * called from the host as `func.call @<fn>_k<N>(args...)`. N counts from 0 per host
 * function in the order of the groups' first ops; the kernels follow their host function
 * in the module. All results of a kernel have one shape, its iteration space; arguments
 * may have any shape (broadcast, reshape, transpose, slice and concat sources are read
 * through index arithmetic) or be scalars (seed, offset).
 *
 * Grouping, in program order over each block (see group_block for the proof that no
 * cycle can arise and why the call can stand at the place of the group's last op):
 * - fusible ops are the elementwise, compare, structural and random rt ops; the iteration
 *   space of an op is its result shape; an op joins the open group of its shape, or opens
 *   one;
 * - a group is sealed (takes no more ops) as soon as an op outside it (a matmul, a
 *   reduction, a func.call, the op of another group, any other op) uses one of its
 *   values, or when it holds max-ops ops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "remat-c/Passes.h"
#include "rt.h"

/* RematFuseOptions (remat-c/Passes.h): max_ops, ops per kernel, constants not counted;
 * 0: unlimited. */
typedef RematFuseOptions fuse_options;

/* ---- classification ---- */

static bool op_is_named(MlirOperation op, const char *name) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

/* An rt op that computes each element of its one result independently from its index:
 * elementwise, compare, structural (broadcast, reshape, transpose, slice, concat, iota)
 * and rt.uniform_philox. */
static bool is_fusible(MlirOperation op, remat_shape *s) {
  switch (rt_op_kind_of(rt_op_lookup(op))) {
  case RT_KIND_ELEMENTWISE:
  case RT_KIND_COMPARE:
  case RT_KIND_STRUCTURAL:
  case RT_KIND_RANDOM:
    break;
  case RT_KIND_NONE:
  case RT_KIND_REDUCTION:
  case RT_KIND_MATMUL:
  case RT_KIND_COLLECTIVE:
    return false;
  }
  if (mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!rt_type_is_static_tensor(t))
    return false;
  if (mlirShapedTypeGetRank(t) > RT_MAX_RANK) /* unverified IR (mlir-opt): not fused */
    return false;
  *s = rt_shape_of(t);
  return true;
}

/* A scalar arith.constant: cloned into each kernel that uses it instead of passed. */
static bool is_scalar_constant(MlirOperation op) {
  return op_is_named(op, "arith.constant") && mlirOperationGetNumResults(op) == 1 &&
         rt_type_is_scalar(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* ---- grouping ---- */

typedef struct group {
  remat_shape s;
  bool sealed;
  int size;        /* members */
  int first, last; /* positions of the first and last member */
} group;

/* One block of a host function, with its ops in program order. */
typedef struct block_ops {
  MlirBlock block;
  int n;
  MlirOperation *ops;
  int *grp;     /* group of each op, -1: stays in the host */
  int *next;    /* next member of the same group, -1 at the end */
  ptr_map index;
  group *groups;
  int ngroups;
} block_ops;

typedef struct seal_ctx {
  block_ops *b;
  int user_group; /* group of the op whose operands are looked at, or -1 */
} seal_ctx;

/* Seals the groups that define operands of op (nested ops included): they are used by
 * an op outside them from now on. */
static MlirWalkResult seal_operands(MlirOperation op, void *ud) {
  seal_ctx *c = ud;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
    MlirValue v = mlirOperationGetOperand(op, k);
    if (!mlirValueIsAOpResult(v))
      continue;
    int j = ptr_map_get(&c->b->index, mlirOpResultGetOwner(v).ptr);
    if (j >= 0 && c->b->grp[j] >= 0 && c->b->grp[j] != c->user_group)
      c->b->groups[c->b->grp[j]].sealed = true;
  }
  return MlirWalkResultAdvance;
}

/* Assigns the fusible ops of the block to groups, in program order.
 *
 * Rule: an op of shape S joins the unsealed group of shape S (there is at most one: a
 * new group of S is opened only when the previous one is sealed), else it opens a new
 * group. When any op X is processed, every group other than X's own that defines one of
 * X's operands is sealed.
 *
 * Claim: with each group's call placed at the position of its last member and every
 * other op left in place, every value is defined before it is used; hence the kernels
 * and the host ops never form a cycle and the host keeps its program order.
 * Proof. Write p(G) for the position of G's last member.
 * (1) Arguments. Let member u of G use a value from outside G. If a host op d defines it,
 *     d precedes u in the block, so d precedes p(G) >= pos(u). If a member of another
 *     group H defines it, processing u sealed H, so every member of H precedes u:
 *     p(H) < pos(u) <= p(G), and H's call comes first.
 * (2) Results. Let op X outside G use a value of G. Processing X sealed G, so no member
 *     of G comes after X: pos(X) > p(G). If X stays in the host it follows G's call; if X
 *     is a member of group H, then p(H) >= pos(X) > p(G).
 * Uses inside nested regions count as uses by the top-level op that holds them. */
static void group_block(block_ops *b, const fuse_options *o) {
  int cap = 0, nopen = 0;
  int *tail = NULL; /* last member of each group, to chain the next one */
  int *open = NULL; /* groups not sealed yet (at most one per shape), cap entries */
  for (int i = 0; i < b->n; i++) {
    remat_shape s;
    b->grp[i] = -1;
    b->next[i] = -1;
    if (is_fusible(b->ops[i], &s)) {
      int g = -1, kept = 0;
      for (int h = 0; h < nopen; h++) /* drops the groups sealed since the last look */
        if (!b->groups[open[h]].sealed) {
          open[kept++] = open[h];
          if (remat_shape_eq(&b->groups[open[h]].s, &s))
            g = open[h];
        }
      nopen = kept;
      if (g < 0) {
        if (b->ngroups == cap) {
          cap = cap ? 2 * cap : 8;
          b->groups = xrealloc(b->groups, (size_t)cap, sizeof *b->groups);
          tail = xrealloc(tail, (size_t)cap, sizeof *tail);
          open = xrealloc(open, (size_t)cap, sizeof *open);
        }
        g = b->ngroups++;
        b->groups[g] = (group){s, false, 0, i, i};
        open[nopen++] = g;
      } else {
        b->next[tail[g]] = i;
      }
      tail[g] = i;
      b->grp[i] = g;
      b->groups[g].size++;
      b->groups[g].last = i;
      if (o->max_ops > 0 && b->groups[g].size >= o->max_ops)
        b->groups[g].sealed = true;
    }
    seal_ctx c = {b, b->grp[i]};
    mlirOperationWalk(b->ops[i], seal_operands, &c, MlirWalkPreOrder);
  }
  free(open);
  free(tail);
}

/* ---- outlining ---- */

/* What one group becomes. */
typedef struct kernel {
  MlirValue *args; /* host values, in order of first use */
  int nargs;
  MlirValue *results; /* member values used outside the group, in program order */
  int nresults;
  MlirOperation *consts; /* scalar constants to clone (any block), in order of first use */
  MlirOperation *const_clones; /* their clones in the kernel */
  int nconsts;
  MlirOperation call;
} kernel;

static bool value_in(const MlirValue *vs, int n, MlirValue v, int *at) {
  for (int i = 0; i < n; i++)
    if (mlirValueEqual(vs[i], v)) {
      if (at)
        *at = i;
      return true;
    }
  return false;
}

/* True if some op outside group g uses v (an op of another block or a nested op counts
 * as outside: it is not a top-level op of this block). */
static bool used_outside(const block_ops *b, int g, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    int j = ptr_map_get(&b->index, mlirOpOperandGetOwner(u).ptr);
    if (j < 0 || b->grp[j] != g)
      return true;
  }
  return false;
}

/* Position of constant c in k's constants, -1 if absent. */
static int const_index(const kernel *k, MlirOperation c) {
  for (int i = 0; i < k->nconsts; i++)
    if (mlirOperationEqual(k->consts[i], c))
      return i;
  return -1;
}

/* Results of group g: its values used outside it, in program order. A group none of
 * whose values is used (dead code) still returns its last value, so that every kernel
 * has an iteration space and no user op disappears. */
static void collect_results(const block_ops *b, int g, kernel *k) {
  int cap = 0;
  for (int i = b->groups[g].first; i >= 0; i = b->next[i])
    for (intptr_t r = 0; r < mlirOperationGetNumResults(b->ops[i]); r++) {
      MlirValue v = mlirOperationGetResult(b->ops[i], r);
      if (!used_outside(b, g, v) && !(i == b->groups[g].last && k->nresults == 0 &&
                                       r == mlirOperationGetNumResults(b->ops[i]) - 1))
        continue;
      if (k->nresults == cap) {
        cap = cap ? 2 * cap : 4;
        k->results = xrealloc(k->results, (size_t)cap, sizeof *k->results);
      }
      k->results[k->nresults++] = v;
    }
}

/* Arguments and cloned constants of group g: operands of its members defined outside
 * it, in order of first use; scalar constants (from any block) are cloned instead. */
static void collect_args(const block_ops *b, int g, kernel *k) {
  int acap = 0, ccap = 0;
  for (int i = b->groups[g].first; i >= 0; i = b->next[i])
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(b->ops[i]); a++) {
      MlirValue v = mlirOperationGetOperand(b->ops[i], a);
      int j = mlirValueIsAOpResult(v) ? ptr_map_get(&b->index, mlirOpResultGetOwner(v).ptr) : -1;
      if (j >= 0 && b->grp[j] == g)
        continue;
      if (mlirValueIsAOpResult(v) && is_scalar_constant(mlirOpResultGetOwner(v))) {
        MlirOperation c = mlirOpResultGetOwner(v);
        if (const_index(k, c) < 0) {
          if (k->nconsts == ccap) {
            ccap = ccap ? 2 * ccap : 4;
            k->consts = xrealloc(k->consts, (size_t)ccap, sizeof *k->consts);
          }
          k->consts[k->nconsts++] = c;
        }
        continue;
      }
      if (value_in(k->args, k->nargs, v, NULL))
        continue;
      if (k->nargs == acap) {
        acap = acap ? 2 * acap : 4;
        k->args = xrealloc(k->args, (size_t)acap, sizeof *k->args);
      }
      k->args[k->nargs++] = v;
    }
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* The kernel value that stands for host value v inside group g's kernel. */
static MlirValue kernel_value(const block_ops *b, int g, const kernel *k, MlirBlock body,
                              const MlirOperation *clones, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation owner = mlirOpResultGetOwner(v);
    int j = ptr_map_get(&b->index, owner.ptr), c = const_index(k, owner);
    if (j >= 0 && b->grp[j] == g)
      return mlirOperationGetResult(clones[j], mlirOpResultGetResultNumber(v));
    if (c >= 0)
      return mlirOperationGetResult(k->const_clones[c], mlirOpResultGetResultNumber(v));
  }
  int at;
  if (!value_in(k->args, k->nargs, v, &at))
    remat_fatal("kernel operand neither inside nor an argument");
  return mlirBlockGetArgument(body, at);
}

/* Builds the kernel function of group g and its call, placed before the group's last
 * op. clones: scratch array of one op per block position. */
static MlirOperation build_kernel(const block_ops *b, int g, kernel *k, const char *name,
                                  MlirOperation *clones) {
  MlirOperation first = b->ops[b->groups[g].first];
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

  /* Body: cloned constants, cloned members with remapped operands, func.return. */
  MlirBlock body = mlirBlockCreate(k->nargs, in, locs);
  k->const_clones = xcalloc((size_t)k->nconsts, sizeof *k->const_clones);
  for (int c = 0; c < k->nconsts; c++) {
    k->const_clones[c] = mlirOperationClone(k->consts[c]);
    mlirBlockAppendOwnedOperation(body, k->const_clones[c]);
  }
  for (int i = b->groups[g].first; i >= 0; i = b->next[i]) {
    MlirOperation op = b->ops[i], copy = mlirOperationClone(op);
    for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
      mlirOperationSetOperand(
          copy, a, kernel_value(b, g, k, body, clones, mlirOperationGetOperand(op, a)));
    clones[i] = copy;
    mlirBlockAppendOwnedOperation(body, copy);
  }
  MlirValue *rets = xcalloc((size_t)k->nresults, sizeof *rets);
  for (int r = 0; r < k->nresults; r++)
    rets[r] = kernel_value(b, g, k, body, clones, k->results[r]);
  MlirOperationState rs =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), loc);
  mlirOperationStateAddOperands(&rs, k->nresults, rets);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&rs));

  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirStringRef sym = mlirStringRefCreateFromCString(name);
  MlirNamedAttribute fattrs[] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, sym)),
      named(ctx, "function_type",
            mlirTypeAttrGet(mlirFunctionTypeGet(ctx, k->nargs, in, k->nresults, out))),
      named(ctx, "sym_visibility",
            mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private"))),
      named(ctx, "rt.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirOperationState fs = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&fs, 4, fattrs);
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  MlirOperation func = mlirOperationCreate(&fs);

  MlirNamedAttribute callee = named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, sym));
  MlirOperationState cs = mlirOperationStateGet(mlirStringRefCreateFromCString("func.call"), loc);
  mlirOperationStateAddOperands(&cs, k->nargs, k->args);
  mlirOperationStateAddResults(&cs, k->nresults, out);
  mlirOperationStateAddAttributes(&cs, 1, &callee);
  k->call = mlirOperationCreate(&cs);
  mlirBlockInsertOwnedOperationBefore(b->block, b->ops[b->groups[g].last], k->call);

  free(rets);
  free(locs);
  free(out);
  free(in);
  return func;
}

/* Outlines the groups of one block of host function fn. Kernels are inserted into the
 * module after *after (updated); *counter numbers them. Returns 0, or -1 after a
 * diagnostic. */
static int fuse_block(MlirSymbolTable symbols, MlirOperation fn, MlirBlock block,
                      const fuse_options *o, MlirOperation *after, int *counter) {
  block_ops b = {0};
  b.block = block;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    b.n++;
  b.ops = xcalloc((size_t)b.n, sizeof *b.ops);
  b.grp = xcalloc((size_t)b.n, sizeof *b.grp);
  b.next = xcalloc((size_t)b.n, sizeof *b.next);
  ptr_map_init(&b.index, (size_t)b.n);
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    b.ops[i] = op;
    ptr_map_put(&b.index, op.ptr, i);
  }
  group_block(&b, o);

  /* All analysis first, on the untouched block. */
  kernel *ks = xcalloc((size_t)b.ngroups, sizeof *ks);
  for (int g = 0; g < b.ngroups; g++) {
    collect_results(&b, g, &ks[g]);
    collect_args(&b, g, &ks[g]);
  }

  /* Names first: a taken name fails the pass before anything changes. */
  int rc = 0;
  MlirStringRef fname = rt_func_name(fn);
  size_t name_cap = fname.length + 16;
  char *names = xcalloc((size_t)b.ngroups, name_cap);
  for (int g = 0; g < b.ngroups && rc == 0; g++) {
    char *name = names + (size_t)g * name_cap;
    snprintf(name, name_cap, "%.*s_k%d", (int)fname.length, fname.data, (*counter)++);
    MlirStringRef ref = mlirStringRefCreateFromCString(name);
    if (!mlirOperationIsNull(mlirSymbolTableLookup(symbols, ref))) {
      rt_emit_error(fn, "cannot outline a kernel of '%.*s': the symbol '%s' already exists",
                    (int)fname.length, fname.data, name);
      rc = -1;
    }
  }

  /* Kernels and calls. The calls use the members' host values until the replacement
   * below, so the order of building does not matter. */
  MlirOperation *clones = xcalloc((size_t)b.n, sizeof *clones);
  for (int g = 0; g < b.ngroups && rc == 0; g++) {
    MlirOperation kfn = build_kernel(&b, g, &ks[g], names + (size_t)g * name_cap, clones);
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(*after), *after, kfn);
    mlirSymbolTableInsert(symbols, kfn); /* the name is free: nothing is renamed */
    *after = kfn;
  }

  if (rc == 0) {
    for (int g = 0; g < b.ngroups; g++)
      for (int r = 0; r < ks[g].nresults; r++)
        mlirValueReplaceAllUsesOfWith(ks[g].results[r], mlirOperationGetResult(ks[g].call, r));
    /* Users before producers: what is left of a member's uses is later members. */
    for (int j = b.n - 1; j >= 0; j--)
      if (b.grp[j] >= 0)
        mlirOperationDestroy(b.ops[j]);
    /* Scalar constants that only fused ops used are now dead in the host (each is
     * looked at once: several kernels may clone the same one). */
    int total = 0;
    for (int g = 0; g < b.ngroups; g++)
      total += ks[g].nconsts;
    ptr_map seen;
    ptr_map_init(&seen, (size_t)total);
    for (int g = 0; g < b.ngroups; g++)
      for (int c = 0; c < ks[g].nconsts; c++) {
        MlirOperation k = ks[g].consts[c];
        if (ptr_map_get(&seen, k.ptr) >= 0)
          continue;
        ptr_map_put(&seen, k.ptr, 1);
        if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(k, 0))))
          mlirOperationDestroy(k);
      }
    ptr_map_free(&seen);
  }

  for (int g = 0; g < b.ngroups; g++) {
    free(ks[g].args);
    free(ks[g].results);
    free(ks[g].consts);
    free(ks[g].const_clones);
  }
  free(ks);
  free(names);
  free(clones);
  ptr_map_free(&b.index);
  free(b.groups);
  free(b.next);
  free(b.grp);
  free(b.ops);
  return rc;
}

static bool is_host_function(MlirOperation op) {
  return op_is_named(op, "func.func") &&
         mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             op, mlirStringRefCreateFromCString("rt.kernel"))) &&
         !mlirBlockIsNull(rt_func_entry_block(op));
}

static void fuse_run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const fuse_options *o = ud;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int nfn = 0, cap = 0;
  MlirOperation *fns = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_host_function(op)) {
      if (nfn == cap) {
        cap = cap ? 2 * cap : 8;
        fns = xrealloc(fns, (size_t)cap, sizeof *fns);
      }
      fns[nfn++] = op;
    }
  int rc = 0;
  MlirSymbolTable symbols = mlirSymbolTableCreate(module);
  for (int f = 0; f < nfn && rc == 0; f++) {
    MlirOperation after = fns[f];
    int counter = 0;
    MlirRegion body = mlirOperationGetRegion(fns[f], 0);
    for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk) && rc == 0;
         blk = mlirBlockGetNextInRegion(blk))
      rc = fuse_block(symbols, fns[f], blk, o, &after, &counter);
  }
  mlirSymbolTableDestroy(symbols);
  free(fns);
  if (rc)
    mlirExternalPassSignalFailure(pass);
}

/* ---- the pass ---- */

static void fuse_construct(void *ud) { (void)ud; }

static void fuse_destruct(void *ud) { free(ud); }

static void *fuse_clone(void *ud) {
  fuse_options *copy = xcalloc(1, sizeof *copy);
  *copy = *(const fuse_options *)ud;
  return copy;
}

static void fuse_init_options(void *opts) {
  *(fuse_options *)opts = (fuse_options){.max_ops = 0};
}

static int fuse_check_options(const void *opts, char *error, size_t cap) {
  if (((const fuse_options *)opts)->max_ops < 0) {
    snprintf(error, cap, "max-ops must be 0 (unlimited) or positive");
    return -1;
  }
  return 0;
}

static const char fuse_contract[] =
    "requires verified rt IR; outlines each group of fusible ops sharing one result "
    "shape into a func.func private @<fn>_k<N> {rt.kernel} called with func.call; keeps "
    "host op order, tags and locations";

static uint64_t fuse_type_id; /* its address identifies the pass (8-byte aligned) */

static MlirPass fuse_create(const void *opts) {
  MlirExternalPassCallbacks cb = {fuse_construct, fuse_destruct, NULL, fuse_clone, fuse_run};
  return mlirCreateExternalPass(
      mlirTypeIDCreate(&fuse_type_id), mlirStringRefCreateFromCString("RematFuse"),
      mlirStringRefCreateFromCString("remat-fuse"),
      mlirStringRefCreateFromCString(fuse_contract),
      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, cb, fuse_clone((void *)opts));
}

static const RematOptionInfo fuse_option_table[] = {
    {"max-ops", REMAT_OPTION_INT, offsetof(fuse_options, max_ops),
     "most ops in one kernel, constants not counted (0: unlimited, default)"},
};

const RematPassInfo remat_fuse_pass = {
    "remat-fuse",
    "outline groups of fusible ops sharing one iteration space into rt.kernel functions",
    fuse_contract,
    fuse_option_table,
    1,
    sizeof(fuse_options),
    fuse_init_options,
    fuse_check_options,
    fuse_create,
};
