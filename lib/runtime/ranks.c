/* ranks.c: shards, per-rank random inputs and file names (see ranks.h). */
#include "ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "collective.h"
#include "interp.h"
#include "io.h"

/* Whether the chain from V continues through USER: an rt op, not a collective, with one
 * result, whose operands are V plus any scalars and constants (results of zero-operand
 * ops): --remat-checkpoint's single-input ops (chain_operand in passes/checkpoint.c), so
 * `rt.mul(%p, %c2)` continues the chain of %p. */
static bool chain_through(MlirOperation user, MlirValue v) {
  rt_op_kind kind = rt_op_kind_of(rt_op_lookup(user));
  if (kind == RT_KIND_NONE || kind == RT_KIND_COLLECTIVE || mlirOperationGetNumResults(user) != 1)
    return false;
  int tensors = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(user); k++) {
    MlirValue o = mlirOperationGetOperand(user, k);
    if (rt_type_is_scalar(mlirValueGetType(o)) ||
        (mlirValueIsAOpResult(o) && mlirOperationGetNumOperands(mlirOpResultGetOwner(o)) == 0))
      continue;
    if (!mlirValueEqual(o, v))
      return false;
    tensors++;
  }
  return tensors == 1;
}

/* Walks the users of the argument through single-input ops until an all_gather of a
 * group larger than one. A worklist over uses, no recursion; SSA has no cycles, and the
 * walk is bounded so a huge fan-out cannot make it slow. */
bool rtr_arg_is_shard(MlirOperation func, int k) {
  if (!rt_func_arg_has_attr(func, k, "rt.param"))
    return false;
  enum { MAX_VISIT = 4096 };
  MlirValue *work = xcalloc(MAX_VISIT, sizeof *work);
  int n = 0, visited = 0;
  bool shard = false;
  work[n++] = mlirBlockGetArgument(rt_func_entry_block(func), k);
  while (n > 0 && !shard && visited < MAX_VISIT) {
    MlirValue v = work[--n];
    visited++;
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      int64_t group = 1;
      if (rt_op_lookup(user) == RT_OP_ALL_GATHER) {
        rt_get_i64(user, "group_size", &group);
        if (group > 1) {
          shard = true;
          break;
        }
      } else if (chain_through(user, v) && n < MAX_VISIT)
        work[n++] = mlirOperationGetResult(user, 0);
    }
  }
  free(work);
  return shard;
}

rtr_buffer **rtr_inputs_random_rank(MlirOperation func, uint64_t seed, rtr_values values, int rank,
                                    int *count, char **err) {
  rtr_buffer **bufs = rtr_inputs_random(func, seed, values, count, err);
  if (!bufs || rank == 0)
    return bufs;
  int n = 0;
  /* The same argument types as the call above: this one cannot fail. */
  rtr_buffer **mine =
      rtr_inputs_random(func, seed + (uint64_t)rank * 0x9E3779B97F4A7C15ull, values, &n, err);
  for (int k = 0; k < n; k++)
    if (rtr_arg_is_shard(func, k)) {
      rtr_buffer *t = bufs[k];
      bufs[k] = mine[k];
      mine[k] = t;
    }
  rtr_buffers_free(mine, n);
  return bufs;
}

char *rtr_rank_path(const char *pattern, int rank) {
  size_t len = strlen(pattern);
  char *out = xmalloc(len + 16 * (len / 2 + 1) + 1), *o = out;
  for (const char *p = pattern; *p; p++) {
    if (p[0] == '%' && p[1] == 'r') {
      o += sprintf(o, "%d", rank);
      p++;
    } else if (p[0] == '%' && p[1] == '%') {
      *o++ = '%';
      p++;
    } else
      *o++ = *p;
  }
  *o = 0;
  return out;
}

int rtr_check_groups(MlirOperation module, const rtr_coll *c) {
  int bad = 0;
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f))
    for (MlirOperation op = mlirBlockGetFirstOperation(rt_func_entry_block(f));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      rtr_coll_op cop;
      char *err = NULL;
      if (rtr_coll_op_of(op, &cop) && rtr_coll_check_group(c, &cop, &err)) {
        rt_emit_error(op, "%s", err);
        bad++;
      }
      free(err);
    }
  return bad;
}

int rtr_ranks_agree(rtr_coll *c, int mine, const char *what, char **err) {
  int n = c->size > 0 ? c->size : 1;
  int *all = xcalloc((size_t)n, sizeof *all);
  int rc = c->exchange(c, &mine, sizeof mine, all);
  char failed[256] = "";
  for (int r = 0; r < n && !rc; r++)
    if (all[r]) {
      size_t l = strlen(failed);
      snprintf(failed + l, sizeof failed - l, "%s%d", l ? "," : "", r);
    }
  free(all);
  if (rc) {
    remat_error_add(err, "rank %d: the ranks could not exchange their status", c->rank);
    return -1;
  }
  if (!failed[0])
    return 0;
  if (!mine)
    remat_error_add(err, "rank %d: %s: rank %s failed (see its message)", c->rank, what, failed);
  return -1;
}

bool rtr_launched_by_mpi(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}
