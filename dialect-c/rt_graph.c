/* rt_graph.c: rt_graph_load, the one loader of a function's body into arrays (rt_graph.h),
 * and its use lists on request.
 *
 * At 10^6 ops (the min-cut's chain) every touch of an op or of a map slot is a cache
 * miss, so: facts about op names and types are looked up once per distinct name or type
 * (both are uniqued by the context), and the value -> index map is filled and read in
 * batches with prefetching. */
#include "rt_graph.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* What the loader needs of an op's name, looked up once per distinct name: names are
 * uniqued identifiers, so a map on their pointers replaces string comparisons per op. */
typedef struct name_info {
  rt_op_id id;
  bool arith;     /* an arith op: supported when it has no regions */
  bool constant;  /* rt.full, rt.iota, arith.constant: a constant when without operands */
  bool is_return; /* func.return */
} name_info;

typedef struct name_cache {
  ptr_map map;
  name_info *items;
  int n, cap, last;
  const void *last_name;
} name_cache;

static void name_cache_init(name_cache *c) {
  ptr_map_init(&c->map, 16);
  c->cap = 16;
  c->n = 0;
  c->items = xmalloc((size_t)c->cap * sizeof *c->items);
  c->last = -1;
  c->last_name = NULL;
}

static void name_cache_free(name_cache *c) {
  ptr_map_free(&c->map);
  free(c->items);
}

/* OP's name facts; also whether OP is supported (rt ops, and arith ops without regions). */
static const name_info *name_cache_get(name_cache *c, MlirOperation op, bool *supported) {
  MlirIdentifier name = mlirOperationGetName(op);
  int i = name.ptr == c->last_name ? c->last : ptr_map_get(&c->map, name.ptr);
  if (i < 0) {
    XGROW(c->items, c->n, c->cap, 16);
    MlirStringRef s = mlirIdentifierStr(name);
    name_info *ni = &c->items[i = c->n++];
    ni->id = rt_op_lookup(op);
    ni->arith = s.length > 6 && !memcmp(s.data, "arith.", 6);
    ni->constant = ni->id == RT_OP_FULL || ni->id == RT_OP_IOTA || rt_str_eq(s, "arith.constant");
    ni->is_return = rt_str_eq(s, "func.return");
    ptr_map_put(&c->map, name.ptr, i);
  }
  c->last = i;
  c->last_name = name.ptr;
  const name_info *ni = &c->items[i];
  *supported = ni->id != RT_OP_NONE || (ni->arith && mlirOperationGetNumRegions(op) == 0);
  return ni;
}

/* The index in g->types of TYPE, added when new; LAST: the previous answer (a run of
 * values of one type costs no map lookup). */
static int type_index(rt_graph *g, ptr_map *tmap, int *last, MlirType t) {
  int ti = *last >= 0 && g->types[*last].type.ptr == t.ptr ? *last : ptr_map_get(tmap, t.ptr);
  if (ti < 0) {
    XGROW(g->types, g->ntypes, g->cap_types, 16);
    rt_graph_type *info = &g->types[ti = g->ntypes++];
    info->type = t;
    rt_type_bytes(t, &info->bytes); /* 0 when it fails */
    ptr_map_put(tmap, t.ptr, ti);
  }
  return *last = ti;
}

/* The top-level op of G's block that holds OWNER (OWNER itself or an ancestor): its index,
 * or -1. */
static int holding_op(const rt_graph *g, MlirOperation owner) {
  for (MlirOperation o = owner; !mlirOperationIsNull(o); o = mlirOperationGetParentOperation(o)) {
    int j = rt_graph_op_index(g, o);
    if (j >= 0)
      return j;
  }
  return -1;
}

/* RT_GRAPH_USES: the op index and the use lists, from MLIR's use lists (they see the uses
 * in nested regions and in other blocks, which the operand arrays do not). */
static void build_uses(rt_graph *g) {
  ptr_map_init(&g->op_index, (size_t)g->nops + 1);
  for (int i = 0; i < g->nops; i++)
    ptr_map_put(&g->op_index, g->ops[i].ptr, i);
  if (!mlirOperationIsNull(g->ret))
    ptr_map_put(&g->op_index, g->ret.ptr, g->nops);
  g->use_start = xmalloc(((size_t)g->nvals + 1) * sizeof *g->use_start);
  size_t n = 0;
  for (int v = 0; v < g->nvals; v++) {
    g->use_start[v] = (int)n;
    for (MlirOpOperand u = mlirValueGetFirstUse(g->vals[v]); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      n++;
  }
  if (n >= INT_MAX)
    remat_fatal("a function of 2^31 uses");
  g->use_start[g->nvals] = (int)n;
  g->use = xmalloc((n + 1) * sizeof *g->use);
  for (int v = 0, k = 0; v < g->nvals; v++)
    for (MlirOpOperand u = mlirValueGetFirstUse(g->vals[v]); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      g->use[k++] = holding_op(g, mlirOpOperandGetOwner(u));
}

static int load_block(rt_graph *g, MlirBlock entry, unsigned flags, const char *pass,
                      const char *role);

int rt_graph_load(rt_graph *g, MlirOperation f, unsigned flags, const char *pass,
                  const char *role) {
  memset(g, 0, sizeof *g);
  g->func = f;
  MlirStringRef fname = rt_func_name(f);
  MlirRegion body = mlirOperationGetRegion(f, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry)) {
    rt_emit_error(f, "%s: '@%.*s' has no body", pass, (int)fname.length, fname.data);
    return -1;
  }
  if (!(flags & RT_GRAPH_ANY_OPS) && !mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    rt_emit_error(f,
                  "%s: '@%.*s' has more than one block: a %s must be one block of rt and "
                  "arith ops",
                  pass, (int)fname.length, fname.data, role);
    return -1;
  }
  return load_block(g, entry, flags, pass, role);
}

void rt_graph_load_block(rt_graph *g, MlirBlock block, unsigned flags) {
  memset(g, 0, sizeof *g);
  load_block(g, block, flags | RT_GRAPH_ANY_OPS, NULL, NULL);
}

/* The body of rt_graph_load and rt_graph_load_block; G's func is set (or NULL). */
static int load_block(rt_graph *g, MlirBlock entry, unsigned flags, const char *pass,
                      const char *role) {
  bool any = flags & RT_GRAPH_ANY_OPS;
  g->entry = entry;
  int nargs = g->nargs = (int)mlirBlockGetNumArguments(entry);
  /* First walk: check and count (arrays sized exactly: growing them by realloc in a heap
   * that parsing left fragmented cost more than this walk, perf). */
  name_cache names;
  name_cache_init(&names);
  size_t nops = 0, nvals = (size_t)nargs, nopnds = 0;
  MlirOperation op = mlirBlockGetFirstOperation(entry);
  for (MlirOperation next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    bool supported;
    const name_info *ni = name_cache_get(&names, op, &supported);
    if (mlirOperationIsNull(next) && (ni->is_return || any))
      break;
    if (!supported && !any) {
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
      rt_emit_error(op, "'%.*s' is not supported by %s: a %s may hold only rt and arith ops",
                    (int)n.length, n.data, pass, role);
      name_cache_free(&names);
      return -1;
    }
    nops++;
    nvals += (size_t)mlirOperationGetNumResults(op);
    nopnds += (size_t)mlirOperationGetNumOperands(op);
  }
  if (mlirOperationIsNull(op) && !any)
    remat_fatal("verified func.func without a func.return terminator");
  if (nops >= INT_MAX || nvals >= INT_MAX || nopnds >= INT_MAX)
    remat_fatal("a function of 2^31 ops, values or operands");
  g->ret = op;
  /* One block for the arrays: after parsing 10^6 ops each large malloc costs ~5 ms (glibc
   * sorts up to 10^4 of the chunks the parser freed per call; perf), however small the
   * array. */
  g->nret = mlirOperationIsNull(g->ret) ? 0 : (int)mlirOperationGetNumOperands(g->ret);
  size_t nret = (size_t)g->nret, bytes = 0;
// X-macro rows laid out by hand: clang-format 14 does not settle on them.
// clang-format off
#define ARRAYS(X)                                                                           \
  X(ops, nops + 1) X(opid, nops) X(constant, nops) X(op_res, nops + 1)                      \
  X(opnd_start, nops + 1) X(vals, nvals) X(val_op, nvals) X(vtype, nvals) X(opnd, nopnds)   \
  X(ret_val, nret)
// clang-format on
#define SIZE(name, n) bytes += ((n) * sizeof *g->name + 7) & ~(size_t)7;
  ARRAYS(SIZE)
  char *at = g->mem = xmalloc(bytes);
#define CARVE(name, n)  \
  g->name = (void *)at; \
  at += ((n) * sizeof *g->name + 7) & ~(size_t)7;
  ARRAYS(CARVE)
#undef ARRAYS
#undef SIZE
#undef CARVE
  /* the temporaries last, above the arrays that stay: what the pass allocates next reuses
   * their memory (mincut's peak RSS at 10^6 ops: 918 -> 893 MB) */
  const void **opnd_ptr = xmalloc(nopnds * sizeof *opnd_ptr);
  ptr_map tmap; /* type -> index in g->types */
  ptr_map_init(&tmap, 16);
  int last_type = -1;
  /* Second walk: the arrays. */
  int v = nargs, k = 0, i = 0;
  for (int a = 0; a < nargs; a++) {
    g->vals[a] = mlirBlockGetArgument(entry, a);
    g->val_op[a] = -1;
    g->vtype[a] = type_index(g, &tmap, &last_type, mlirValueGetType(g->vals[a]));
  }
  for (op = mlirBlockGetFirstOperation(entry); (size_t)i < nops;
       op = mlirOperationGetNextInBlock(op), i++) {
    bool supported;
    const name_info *ni = name_cache_get(&names, op, &supported);
    g->ops[i] = op;
    g->opid[i] = (unsigned char)ni->id;
    g->op_res[i] = v;
    g->opnd_start[i] = k;
    intptr_t no = mlirOperationGetNumOperands(op), nr = mlirOperationGetNumResults(op);
    g->constant[i] = no == 0 && ni->constant;
    for (intptr_t o = 0; o < no; o++)
      opnd_ptr[k++] = mlirOperationGetOperand(op, o).ptr;
    for (intptr_t r = 0; r < nr; r++, v++) {
      g->vals[v] = mlirOperationGetResult(op, r);
      g->val_op[v] = i;
      g->vtype[v] = type_index(g, &tmap, &last_type, mlirValueGetType(g->vals[v]));
    }
  }
  ptr_map_free(&tmap);
  name_cache_free(&names);
  g->nops = (int)nops;
  g->nvals = (int)nvals;
  g->op_res[nops] = (int)nvals;
  g->ops[nops] = g->ret;
  g->opnd_start[nops] = (int)nopnds;

  /* value -> index, then operands -> indices: each slot is a cache miss, so the loops
   * prefetch PREFETCH keys ahead */
  enum { PREFETCH = 16 };
  ptr_map map;
  ptr_map_init(&map, nvals);
  for (int v = 0; v < g->nvals; v++) {
    if (v + PREFETCH < g->nvals)
      ptr_map_prefetch(&map, g->vals[v + PREFETCH].ptr);
    ptr_map_put(&map, g->vals[v].ptr, v);
  }
  for (int k = 0; k < (int)nopnds; k++) {
    if (k + PREFETCH < (int)nopnds)
      ptr_map_prefetch(&map, opnd_ptr[k + PREFETCH]);
    if ((g->opnd[k] = ptr_map_get(&map, opnd_ptr[k])) < 0 && !any)
      remat_fatal("operand defined outside the function's block");
  }
  for (int r = 0; r < g->nret; r++)
    if ((g->ret_val[r] = ptr_map_get(&map, mlirOperationGetOperand(g->ret, r).ptr)) < 0 && !any)
      remat_fatal("returned value defined outside the function's block");
  ptr_map_free(&map);
  free(opnd_ptr);
  if (flags & RT_GRAPH_USES)
    build_uses(g);
  return 0;
}

void rt_graph_free(rt_graph *g) {
  free(g->mem);
  free(g->types);
  if (g->use_start)
    ptr_map_free(&g->op_index);
  free(g->use_start);
  free(g->use);
  g->mem = NULL;
  g->types = NULL;
  g->use_start = g->use = NULL;
}
