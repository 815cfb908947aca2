/* rt_graph.h: the flat view of one function of rt and arith ops, which the passes read
 * instead of walking MLIR's linked lists: its values, ops, operands, types and bytes in
 * arrays indexed by small integers.
 *
 * Values are numbered the one way every pass numbers them: the entry block's arguments
 * 0..nargs-1, then the op results in op order. Ops are the block's ops in order, without
 * its func.return (ret). The view holds MLIR handles: it is valid while the function is
 * unchanged, and it owns only its arrays (rt_graph_free).
 *
 * rt_graph_load makes the one check that a pass over such a function needs, with the one
 * diagnostic: the function is one block of rt ops and arith ops (without regions), ending
 * in func.return. Passes that read any IR (checkpoint tags what it understands, fuse
 * leaves other ops on the host) load with RT_GRAPH_ANY_OPS instead, which checks nothing,
 * or view any one block with rt_graph_load_block.
 *
 * Use lists (RT_GRAPH_USES) are built only on request: the min-cut reads operands only,
 * and at 10^6 ops they would cost it a walk of every use list. */
#ifndef REMAT_RT_GRAPH_H
#define REMAT_RT_GRAPH_H

#include <stdint.h>

#include "mlir-c/IR.h"
#include "rt.h"

_Static_assert(RT_OP_COUNT <= 256, "op ids are stored in bytes");

/* A type of the function's values; types are uniqued, so each is sized once. */
typedef struct rt_graph_type {
  MlirType type;
  uint64_t bytes; /* 0 when not sized (the verifier rejects such values) */
} rt_graph_type;

/* The fields of the view, as a macro so that a pass's own struct can hold them under
 * their own names (RT_GRAPH_MEMBERS) and still hand the whole to rt_graph_load. */
#define RT_GRAPH_FIELDS                                                                      \
  MlirOperation func, ret; /* ret: the block's terminator (func.return) */                   \
  MlirBlock entry;                                                                           \
  int nargs, nops, nvals, nret;                                                              \
  MlirOperation *ops;      /* [nops+1]; ops[nops] == ret, as use lists number it */          \
  unsigned char *opid;     /* [nops] rt_op_id of each op (RT_OP_NONE: an arith op) */        \
  unsigned char *constant; /* [nops] rt.full, rt.iota or arith.constant without operands */  \
  int *op_res;             /* [nops+1] first result value of each op; [nops] == nvals */     \
  int *opnd_start;         /* [nops+1] operands of op i: opnd[opnd_start[i] .. [i+1]) */     \
  int *opnd;               /* value indices */                                               \
  MlirValue *vals;         /* [nvals] */                                                     \
  int *val_op;             /* [nvals] defining op, -1 for an argument */                     \
  int *vtype;              /* [nvals] index into types */                                    \
  int *ret_val;            /* [nret] operands of func.return */                              \
  rt_graph_type *types;                                                                      \
  int ntypes, cap_types;                                                                     \
  void *mem; /* holds the arrays above but types */                                          \
  /* RT_GRAPH_USES only (else NULL): users of value v: use[use_start[v] .. [v+1]), one     \
   * entry per MLIR use, in MLIR's use-list order; each the op of the block that holds     \
   * the user (the user itself, or its ancestor when the use is in a nested region), nops  \
   * for ret, -1 when no op of the block holds it (another block's) */ \
  int *use_start, *use;                                                                      \
  ptr_map op_index; /* RT_GRAPH_USES: op -> index (ret: nops), rt_graph_op_index */

typedef struct rt_graph {
  RT_GRAPH_FIELDS
} rt_graph;

/* In a pass's struct: the view as G (for rt_graph_load and rt_graph_free) whose fields
 * are also the struct's own (j->ops is j->g.ops): an anonymous union of the view and an
 * anonymous struct of the same fields, which C11 lets either name read. */
#define RT_GRAPH_MEMBERS(g) \
  union {                   \
    rt_graph g;             \
    struct {                \
      RT_GRAPH_FIELDS       \
    };                      \
  }

/* Flags of rt_graph_load. */
enum {
  /* Any op, and any number of blocks: the view is the entry block, which may hold ops of
   * any dialect, with regions or not, and end in any terminator (ret: its last op, NULL
   * when it has none; ops: the others). An operand or returned value that is not of the
   * block (a value of a region above it) is -1. The one check left is "has a body". */
  RT_GRAPH_ANY_OPS = 1 << 0,
  /* Also the use lists (use_start, use) and the op index (rt_graph_op_index). */
  RT_GRAPH_USES = 1 << 1,
};

/* Reads the body of FUNC. 0, or -1 after a located diagnostic naming PASS
 * ("--remat-mincut") and what the function is to it (ROLE: "joint function"), when it has
 * no body or, without RT_GRAPH_ANY_OPS, more than one block or an op other than an rt op
 * or an arith op without regions. FLAGS: RT_GRAPH_ANY_OPS, RT_GRAPH_USES. On -1 nothing
 * is left to free. */
int rt_graph_load(rt_graph *g, MlirOperation func, unsigned flags, const char *pass,
                  const char *role);
/* The view of BLOCK, any block of any region, as RT_GRAPH_ANY_OPS loads an entry block
 * (func: NULL); FLAGS: RT_GRAPH_USES or 0. */
void rt_graph_load_block(rt_graph *g, MlirBlock block, unsigned flags);
void rt_graph_free(rt_graph *g);

/* RT_GRAPH_USES: the index of OP among ops (nops: ret), -1 when it is not an op of the
 * block. */
static inline int rt_graph_op_index(const rt_graph *g, MlirOperation op) {
  return ptr_map_get(&g->op_index, op.ptr);
}

/* The operands of op I of G, each as the value index V; and its results, each as R. G is
 * an rt_graph or a struct that holds its fields (RT_GRAPH_MEMBERS). */
#define FOR_OPERANDS(g, i, v)                                                                     \
  for (int _k = (g)->opnd_start[i], v; _k < (g)->opnd_start[(i) + 1] && ((v) = (g)->opnd[_k], 1); \
       _k++)
#define FOR_RESULTS(g, i, r) for (int r = (g)->op_res[i]; r < (g)->op_res[(i) + 1]; r++)

/* Bytes of value V (0: not sized). */
static inline uint64_t rt_graph_bytes(const rt_graph *g, int v) {
  return g->types[g->vtype[v]].bytes;
}

#endif
