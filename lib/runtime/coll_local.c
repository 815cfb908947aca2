/* coll_local.c: the single-process collective backend (see collective.h). The process
 * plays every rank of a group and every rank holds the same data, so each collective
 * completes at once from its one input (runtime/ops.h, docs/design.md "Collectives").
 * Also the shared helpers of every backend: op attributes, group checks, volumes. */
#include "collective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "rt.h"

const char *rtr_coll_kind_name(rtr_coll_kind k) {
  switch (k) {
  case RTR_COLL_ALL_GATHER: return "all_gather";
  case RTR_COLL_REDUCE_SCATTER: return "reduce_scatter";
  case RTR_COLL_ALL_REDUCE: return "all_reduce";
  case RTR_COLL_KINDS: break;
  }
  return "?";
}

bool rtr_coll_op_of(MlirOperation op, rtr_coll_op *out) {
  rt_op_id id = rt_op_lookup(op);
  if (id == RT_OP_ALL_GATHER)
    out->kind = RTR_COLL_ALL_GATHER;
  else if (id == RT_OP_REDUCE_SCATTER)
    out->kind = RTR_COLL_REDUCE_SCATTER;
  else if (id == RT_OP_ALL_REDUCE)
    out->kind = RTR_COLL_ALL_REDUCE;
  else
    return false;
  int64_t group = 1, dim = 0;
  rt_get_i64(op, "group_size", &group);
  rt_get_i64(op, "dim", &dim);
  out->group_size = group;
  out->dim = (int)dim;
  out->reduce = RTR_REDUCE_SUM;
  MlirAttribute r = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("reduce"));
  if (!mlirAttributeIsNull(r) && mlirAttributeIsAString(r)) {
    MlirStringRef s = mlirStringAttrGetValue(r);
    out->reduce = rt_str_eq(s, "max")   ? RTR_REDUCE_MAX
                  : rt_str_eq(s, "min") ? RTR_REDUCE_MIN
                                        : RTR_REDUCE_SUM;
  }
  return true;
}

int rtr_coll_check_group(const rtr_coll *c, const rtr_coll_op *op, char **err) {
  if (c->size == 0 || op->group_size == 1 || op->group_size == c->size)
    return 0;
  remat_error_add(err,
                  "rank %d of %d: 'rt.%s' has group_size = %lld; every group is "
                  "all %d ranks (use group_size = %d, or 1)",
                  c->rank, c->size, rtr_coll_kind_name(op->kind), (long long)op->group_size,
                  c->size, c->size);
  return -1;
}

void rtr_coll_volume(const rtr_coll_op *op, uint64_t in_bytes, uint64_t out_bytes, int n,
                     uint64_t *sent, uint64_t *received) {
  uint64_t others = n > 1 ? (uint64_t)(n - 1) : 0;
  /* all_gather: my shard to every other rank, theirs to me. reduce_scatter: the slice of
   * rank s to rank s, theirs of my slice to me. all_reduce (gathered, then summed in rank
   * order): my whole buffer to every other rank, theirs to me. */
  uint64_t part = op->kind == RTR_COLL_REDUCE_SCATTER ? out_bytes : in_bytes;
  *sent = *received = others * part;
}

rtr_buffer rtr_coll_part_type(const rtr_coll_op *op, const rtr_buffer *in, const rtr_buffer *out) {
  rtr_buffer t = op->kind == RTR_COLL_REDUCE_SCATTER ? *out : *in;
  t.data = NULL;
  return t;
}

void rtr_coll_pack_slices(const rtr_coll_op *op, const rtr_buffer *in, const rtr_buffer *out, int n,
                          unsigned char *send) {
  size_t part = (size_t)out->numel * rtr_elem_size(out->elem);
  if (op->dim == 0) { /* row-major: slice s is the s-th block of IN */
    memcpy(send, in->data, (size_t)n * part);
    return;
  }
  int64_t start[RT_MAX_RANK] = {0}, stride[RT_MAX_RANK];
  for (int k = 0; k < in->rank; k++)
    stride[k] = 1;
  for (int s = 0; s < n; s++) {
    rtr_buffer v = *out;
    v.data = send + (size_t)s * part;
    start[op->dim] = (int64_t)s * out->dims[op->dim];
    rtr_slice(&v, in, start, stride);
  }
}

void rtr_coll_finish(const rtr_coll_op *op, rtr_buffer *out, const rtr_buffer *part_type,
                     const unsigned char *recv, int n) {
  size_t part = (size_t)part_type->numel * rtr_elem_size(part_type->elem);
  rtr_buffer *views = xcalloc((size_t)n, sizeof *views);
  const rtr_buffer **parts = xcalloc((size_t)n, sizeof *parts);
  for (int r = 0; r < n; r++) {
    views[r] = *part_type;
    views[r].data = (void *)(recv + (size_t)r * part);
    parts[r] = &views[r];
  }
  if (op->kind == RTR_COLL_ALL_GATHER)
    rtr_concat(out, parts, n, op->dim);
  else
    rtr_combine_parts(out, parts, n, op->reduce);
  free(parts);
  free(views);
}

/* ---- the simulation ------------------------------------------------------------------ */

static int local_start(rtr_coll *c, const rtr_coll_op *op, const rtr_buffer *in, rtr_buffer *out,
                       void **req, char **err) {
  (void)err;
  *req = NULL;
  c->stats.started[op->kind]++;
  switch (op->kind) {
  case RTR_COLL_ALL_GATHER: rtr_all_gather(out, in, op->group_size, op->dim); break;
  case RTR_COLL_REDUCE_SCATTER:
    rtr_reduce_scatter(out, in, op->group_size, op->dim, op->reduce);
    break;
  case RTR_COLL_ALL_REDUCE: rtr_all_reduce(out, in, op->group_size, op->reduce); break;
  case RTR_COLL_KINDS: break;
  }
  return 0;
}

static int local_wait(rtr_coll *c, void *req, char **err) {
  (void)c;
  (void)req;
  (void)err;
  return 0;
}

static int local_exchange(rtr_coll *c, const void *send, size_t n, void *recv) {
  (void)c;
  memcpy(recv, send, n);
  return 0;
}

static void local_abort(rtr_coll *c, int code) {
  (void)c;
  exit(code);
}

static void local_destroy(rtr_coll *c) { (void)c; }

void rtr_coll_local_init(rtr_coll *c) {
  *c = (rtr_coll){.name = "local",
                  .rank = 0,
                  .size = 0,
                  .start = local_start,
                  .wait = local_wait,
                  .exchange = local_exchange,
                  .abort = local_abort,
                  .destroy = local_destroy};
}
