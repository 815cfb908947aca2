/* kernel_dedup.c: merges structurally equal rt.kernel functions (see kernel_dedup.h).
 *
 * Each kernel is written out as a canonical sequence of 64-bit words: counts, value
 * numbers (block arguments and op results numbered in definition order) and the addresses
 * of uniqued MLIR objects (op names, types, attributes: MLIR uniques them per context, so
 * equal ones have one address). Every list is preceded by its length, so the encoding is
 * injective: two kernels are structurally equal exactly when their sequences are equal.
 * The hash of a sequence picks the candidates; comparing the whole sequences decides. The
 * addresses make hashes differ from run to run, but not the result: the kept kernel is
 * always the first equal one in module order. */
#include "kernel_dedup.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "rt.h"
#include "support.h"

/* ---- the canonical sequence ---- */

typedef struct seq {
  uint64_t *w;
  size_t n, cap;
} seq;

static void put(seq *s, uint64_t v) {
  XGROW(s->w, s->n, s->cap, 64);
  s->w[s->n++] = v;
}

static void put_ptr(seq *s, const void *p) { put(s, (uint64_t)(uintptr_t)p); }

typedef struct numbering {
  ptr_map values, blocks;
  int next_value, next_block;
} numbering;

/* Attributes that do not take part in the comparison: checkpoint tags (see the header). */
static bool ignored_attr(MlirStringRef name) {
  return rt_str_eq(name, "rt.policy") || rt_str_eq(name, "rt.ac_region") ||
         rt_str_eq(name, "rt.ac_reason");
}

/* The attributes of op in the dictionary's (sorted) order, without the ignored ones and
 * without `skip` (the function's own name). */
static void put_attrs(seq *s, MlirOperation op, const char *skip) {
  intptr_t n = mlirOperationGetNumAttributes(op);
  size_t count_at = s->n;
  put(s, 0);
  uint64_t count = 0;
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (ignored_attr(name) || (skip && rt_str_eq(name, skip)))
      continue;
    put_ptr(s, a.name.ptr);
    put_ptr(s, a.attribute.ptr);
    count++;
  }
  s->w[count_at] = count;
}

static void put_value(seq *s, numbering *nb, MlirValue v) {
  int k = ptr_map_get(&nb->values, v.ptr);
  if (k >= 0) {
    put(s, 0);
    put(s, (uint64_t)k);
  } else { /* defined outside the kernel (not in an isolated func.func; kept exact) */
    put(s, 1);
    put_ptr(s, v.ptr);
  }
}

static void define(numbering *nb, MlirValue v) {
  ptr_map_put(&nb->values, v.ptr, nb->next_value++);
}

static void put_region(seq *s, numbering *nb, MlirRegion r);

/* A value defined here (an op result, a block argument): its type; it takes the next
 * number. */
static void put_def(seq *s, numbering *nb, MlirValue v) {
  put_ptr(s, mlirValueGetType(v).ptr);
  define(nb, v);
}

static void put_op(seq *s, numbering *nb, MlirOperation op) {
  put_ptr(s, mlirOperationGetName(op).ptr);
  intptr_t nops = mlirOperationGetNumOperands(op);
  put(s, (uint64_t)nops);
  for (intptr_t i = 0; i < nops; i++)
    put_value(s, nb, mlirOperationGetOperand(op, i));
  put_attrs(s, op, NULL);
  intptr_t nsucc = mlirOperationGetNumSuccessors(op);
  put(s, (uint64_t)nsucc);
  for (intptr_t i = 0; i < nsucc; i++)
    put(s, (uint64_t)ptr_map_get(&nb->blocks, mlirOperationGetSuccessor(op, i).ptr));
  intptr_t nreg = mlirOperationGetNumRegions(op);
  put(s, (uint64_t)nreg);
  for (intptr_t i = 0; i < nreg; i++)
    put_region(s, nb, mlirOperationGetRegion(op, i));
  /* Results after the regions: values of a region never name the op's own results. */
  intptr_t nres = mlirOperationGetNumResults(op);
  put(s, (uint64_t)nres);
  for (intptr_t i = 0; i < nres; i++)
    put_def(s, nb, mlirOperationGetResult(op, i));
}

static void put_region(seq *s, numbering *nb, MlirRegion r) {
  /* Blocks are numbered before any op is written, so a branch may name a later block. */
  uint64_t nblocks = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    ptr_map_put(&nb->blocks, b.ptr, nb->next_block++);
    nblocks++;
  }
  put(s, nblocks);
  for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    intptr_t nargs = mlirBlockGetNumArguments(b);
    put(s, (uint64_t)nargs);
    for (intptr_t i = 0; i < nargs; i++)
      put_def(s, nb, mlirBlockGetArgument(b, i));
    size_t count_at = s->n;
    put(s, 0);
    uint64_t nops = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op), nops++)
      put_op(s, nb, op);
    s->w[count_at] = nops;
  }
}

/* The whole kernel: its attributes but its name (function type, visibility, rt.kernel,
 * argument and result attributes), then its body. */
static void encode_kernel(seq *s, MlirOperation fn) {
  numbering nb;
  ptr_map_init(&nb.values, 64);
  ptr_map_init(&nb.blocks, 4);
  nb.next_value = nb.next_block = 0;
  put_attrs(s, fn, "sym_name");
  put(s, (uint64_t)mlirOperationGetNumRegions(fn));
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(fn); i++)
    put_region(s, &nb, mlirOperationGetRegion(fn, i));
  ptr_map_free(&nb.values);
  ptr_map_free(&nb.blocks);
}

static uint64_t seq_hash(const seq *s) {
  uint64_t h = 0xcbf29ce484222325ull ^ s->n;
  for (size_t i = 0; i < s->n; i++) {
    uint64_t x = s->w[i] + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    h = (h ^ x ^ (x >> 31)) * 0x100000001b3ull;
  }
  return h;
}

static bool seq_eq(const seq *a, const seq *b) {
  return a->n == b->n && !memcmp(a->w, b->w, a->n * sizeof *a->w);
}

/* ---- the module ---- */

static bool is_func(MlirOperation op) {
  return rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func");
}

static bool is_kernel(MlirOperation op) { return is_func(op) && rt_func_is_kernel(op); }

static bool is_private(MlirOperation fn) {
  MlirAttribute v =
      mlirOperationGetAttributeByName(fn, mlirStringRefCreateFromCString("sym_visibility"));
  return !mlirAttributeIsNull(v) && mlirAttributeIsAString(v) &&
         rt_str_eq(mlirStringAttrGetValue(v), "private");
}

typedef struct calls {
  const ptr_map *callee_of; /* FlatSymbolRefAttr of a kernel -> kernel index */
  const int *keep;          /* kernel index -> index of the kernel kept for it */
  MlirAttribute *refs;      /* kernel index -> its FlatSymbolRefAttr */
  int launches;
} calls;

static MlirWalkResult rewrite_call(MlirOperation op, void *ud) {
  calls *c = ud;
  if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.call"))
    return MlirWalkResultAdvance;
  MlirStringRef callee = mlirStringRefCreateFromCString("callee");
  MlirAttribute ref = mlirOperationGetAttributeByName(op, callee);
  int k = mlirAttributeIsNull(ref) ? -1 : ptr_map_get(c->callee_of, ref.ptr);
  if (k < 0)
    return MlirWalkResultAdvance;
  c->launches++;
  if (c->keep[k] != k)
    mlirOperationSetAttributeByName(op, callee, c->refs[c->keep[k]]);
  return MlirWalkResultAdvance;
}

void remat_dedup_kernels(MlirOperation module, remat_dedup_stats *stats) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int n = 0, cap = 0;
  MlirOperation *ks = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_kernel(op)) {
      XGROW(ks, n, cap, 16);
      ks[n++] = op;
    }
  seq *seqs = xcalloc((size_t)n + 1, sizeof *seqs);
  int *keep = xcalloc((size_t)n + 1, sizeof *keep);
  /* Buckets: a chained hash table of the kept kernels (heads by hash, next by kernel). */
  size_t nb = 16;
  while (nb < 2 * (size_t)n)
    nb *= 2;
  int *head = xmalloc(nb * sizeof *head), *next = xcalloc((size_t)n + 1, sizeof *next);
  uint64_t *hash = xcalloc((size_t)n + 1, sizeof *hash);
  for (size_t i = 0; i < nb; i++)
    head[i] = -1;
  int distinct = 0;
  for (int k = 0; k < n; k++) {
    encode_kernel(&seqs[k], ks[k]);
    hash[k] = seq_hash(&seqs[k]);
    keep[k] = k;
    size_t b = hash[k] & (nb - 1);
    if (is_private(ks[k]))
      for (int c = head[b]; c >= 0; c = next[c])
        if (hash[c] == hash[k] && seq_eq(&seqs[c], &seqs[k])) {
          keep[k] = c;
          break;
        }
    if (keep[k] == k) {
      next[k] = head[b];
      head[b] = k;
      distinct++;
    }
  }
  /* Calls: one walk of the module. */
  ptr_map callee_of;
  ptr_map_init(&callee_of, (size_t)n);
  MlirAttribute *refs = xcalloc((size_t)n + 1, sizeof *refs);
  for (int k = 0; k < n; k++) {
    refs[k] = mlirFlatSymbolRefAttrGet(ctx, rt_func_name(ks[k]));
    ptr_map_put(&callee_of, refs[k].ptr, k);
  }
  calls c = {&callee_of, keep, refs, 0};
  mlirOperationWalk(module, rewrite_call, &c, MlirWalkPreOrder);
  /* Locations: each kept kernel's becomes the fusion of its own and its copies'. */
  int *nlocs = xcalloc((size_t)n + 1, sizeof *nlocs);
  for (int k = 0; k < n; k++)
    nlocs[keep[k]]++;
  MlirLocation *locs = xcalloc((size_t)n + 1, sizeof *locs);
  for (int k = 0; k < n; k++) {
    if (keep[k] != k || nlocs[k] < 2)
      continue;
    int m = 0;
    for (int j = k; j < n; j++)
      if (keep[j] == k)
        locs[m++] = mlirOperationGetLocation(ks[j]);
    mlirOperationSetLocation(ks[k], mlirLocationFusedGet(ctx, m, locs, mlirAttributeGetNull()));
  }
  for (int k = 0; k < n; k++)
    if (keep[k] != k)
      mlirOperationDestroy(ks[k]);
  if (stats)
    *stats = (remat_dedup_stats){n, distinct, c.launches};
  for (int k = 0; k < n; k++)
    free(seqs[k].w);
  free(locs);
  free(nlocs);
  free(refs);
  ptr_map_free(&callee_of);
  free(hash);
  free(next);
  free(head);
  free(keep);
  free(seqs);
  free(ks);
}
