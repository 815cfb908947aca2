/* collective.h: the collective backend of the runtime: how rt.all_gather,
 * rt.reduce_scatter and rt.all_reduce reach other ranks. It is independent of how the
 * other ops execute (reference interpreter, compiled host code or, later, a GPU
 * executor): the interpreter hands a backend a collective's input and result buffers at
 * the collective and completes it at its rt.wait.
 *
 * Backends, one file each:
 *   coll_local.c      the single-process simulation (every rank holds the same data);
 *                     the default, in libremat (with the helpers below);
 *   coll/coll_mpi.c   real ranks through MPI (non-blocking calls); compiled into
 *                     remat-run only, when mpi.h is found: libremat.so has no MPI;
 *   coll/coll_nccl.c  the same through NCCL on GPUs (compiled, linked into nothing yet).
 *
 * Every backend reduces deterministically: the parts of all ranks are gathered and
 * combined in rank order by rtr_combine_parts (runtime/ops.h), so the bits of a sum do
 * not depend on the library's reduction tree. Every group is the whole world: a
 * collective's group_size must be 1 (the identity) or the number of ranks.
 *
 * Ownership: a backend is created by its constructor and released with destroy; a
 * request returned by start belongs to the backend until wait releases it. */
#ifndef REMAT_RUNTIME_COLLECTIVE_H
#define REMAT_RUNTIME_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "buffer.h"
#include "ops.h"

typedef enum rtr_coll_kind {
  RTR_COLL_ALL_GATHER,
  RTR_COLL_REDUCE_SCATTER,
  RTR_COLL_ALL_REDUCE,
  RTR_COLL_KINDS
} rtr_coll_kind;

/* One collective as the op describes it. */
typedef struct rtr_coll_op {
  rtr_coll_kind kind;
  int64_t group_size;
  int dim;                /* all_gather, reduce_scatter */
  rtr_reduce_kind reduce; /* reduce_scatter, all_reduce */
} rtr_coll_op;

/* What a backend executed: collectives started by kind, and the bytes this rank sent to
 * and received from other ranks as the collective is defined (each rank's part goes to
 * every rank that needs it; the library's routing through rings or trees is not seen). */
typedef struct rtr_coll_stats {
  long started[RTR_COLL_KINDS];
  uint64_t bytes_sent, bytes_received;
} rtr_coll_stats;

typedef struct rtr_coll rtr_coll;
struct rtr_coll {
  const char *name; /* "local", "mpi", "nccl" */
  int rank;
  int size; /* the number of ranks; 0 for the simulation, which plays any group size */
  rtr_coll_stats stats;
  /* Starts OP on IN (read before wait returns) into OUT (written by the time wait
   * returns; both have the op's operand and result types and stay alive until then).
   * *req is NULL when the collective completed at once. Returns 0, or -1 with a message
   * added to *err (remat_error_add). */
  int (*start)(rtr_coll *c, const rtr_coll_op *op, const rtr_buffer *in, rtr_buffer *out,
               void **req, char **err);
  /* Completes and releases a request. Returns 0, or -1 with a message added to *err. */
  int (*wait)(rtr_coll *c, void *req, char **err);
  /* Blocking exchange of N bytes from every rank: RECV (size * N bytes, rank order) on
   * every rank. For the tools (status agreement, gathering results for a check); not
   * counted in stats. Returns 0 or -1. */
  int (*exchange)(rtr_coll *c, const void *send, size_t n, void *recv);
  /* Ends every rank of the job at once (a rank-local error in the middle of a run, where
   * other ranks may wait in a collective forever). Does not return. */
  void (*abort)(rtr_coll *c, int code);
  void (*destroy)(rtr_coll *c);
  void *impl;
};

/* The simulation, as a backend on the stack or the heap: rank 0 of size 0. */
void rtr_coll_local_init(rtr_coll *c);

/* -1 with "rank R of N: 'rt.all_gather' has group_size = 4; ..." added to *err when OP's
 * group size does not fit C; 0 when it does. */
int rtr_coll_check_group(const rtr_coll *c, const rtr_coll_op *op, char **err);

/* The collective an rt op describes (from its attributes); false for another op. */
bool rtr_coll_op_of(MlirOperation op, rtr_coll_op *out);

/* "all_gather", "reduce_scatter", "all_reduce". */
const char *rtr_coll_kind_name(rtr_coll_kind k);

/* Bytes one rank sends and receives for OP with an input of IN_BYTES and a result of
 * OUT_BYTES on N ranks (the definition used by every backend's stats). */
void rtr_coll_volume(const rtr_coll_op *op, uint64_t in_bytes, uint64_t out_bytes, int n,
                     uint64_t *sent, uint64_t *received);

/* Helpers every backend that moves bytes shares, so they all produce the same bits.
 * A collective on N ranks moves N parts of PART_TYPE's shape (the input for all_gather
 * and all_reduce, the result for reduce_scatter), part r from or to rank r. */
rtr_buffer rtr_coll_part_type(const rtr_coll_op *op, const rtr_buffer *in, const rtr_buffer *out);
/* reduce_scatter: the N slices of IN along op->dim, each of OUT's shape, packed in rank
 * order into SEND (N * bytes of OUT); along dim 0 they are IN's bytes as they are. */
void rtr_coll_pack_slices(const rtr_coll_op *op, const rtr_buffer *in, const rtr_buffer *out, int n,
                          unsigned char *send);
/* Completes OUT from the N parts received in rank order in RECV: all_gather concatenates
 * them along op->dim, reduce_scatter and all_reduce combine them in rank order
 * (rtr_combine_parts). */
void rtr_coll_finish(const rtr_coll_op *op, rtr_buffer *out, const rtr_buffer *part_type,
                     const unsigned char *recv, int n);

#endif
