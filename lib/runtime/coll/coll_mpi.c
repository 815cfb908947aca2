/* coll_mpi.c: collectives across processes through MPI (see coll_mpi.h, collective.h).
 *
 * Every collective is one non-blocking MPI call started at the rt op and completed at its
 * rt.wait (MPI_Wait), moving bytes only (MPI_BYTE), so every element type of rt goes
 * through the same code. Reductions are not MPI's: MPI may sum in any order, so
 * all_reduce gathers every rank's buffer (MPI_Iallgather) and reduce_scatter sends each
 * rank its slice of every buffer (MPI_Ialltoall); at the wait the parts are combined in
 * rank order (rtr_coll_finish), the same arithmetic as the simulation. The result is the
 * same on every rank and in every run. The price is bandwidth: an all_reduce moves N-1
 * whole buffers to each rank instead of the 2(N-1)/N buffers of a ring.
 *
 * MPI counts are ints: a part above INT_MAX bytes is an error, not a silent truncation. */
#include "coll_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mpi_req {
  MPI_Request r;
  rtr_coll_op op;
  rtr_buffer *out;      /* the collective's result (the interpreter's; borrowed) */
  rtr_buffer part_type; /* shape and type of one part */
  unsigned char *send;  /* packed slices (reduce_scatter), or NULL */
  unsigned char *recv;  /* N parts in rank order, or NULL when received into out */
} mpi_req;

static size_t bytes_of(const rtr_buffer *b) { return (size_t)b->numel * rtr_elem_size(b->elem); }

static void free_req(mpi_req *q) {
  free(q->send);
  free(q->recv);
  free(q);
}

static int mpi_start(rtr_coll *c, const rtr_coll_op *op, const rtr_buffer *in, rtr_buffer *out,
                     void **req, char **err) {
  *req = NULL;
  c->stats.started[op->kind]++;
  if (op->group_size == 1) { /* a group of one: every collective is the identity */
    memcpy(out->data, in->data, bytes_of(out));
    return 0;
  }
  int n = c->size;
  mpi_req *q = xcalloc(1, sizeof *q);
  q->op = *op;
  q->out = out;
  q->part_type = rtr_coll_part_type(op, in, out);
  size_t part = bytes_of(&q->part_type);
  if (part > (size_t)INT_MAX) {
    remat_error_add(err, "'rt.%s' moves parts of %zu bytes, more than one MPI call can (%d)",
                    rtr_coll_kind_name(op->kind), part, INT_MAX);
    free(q);
    return -1;
  }
  uint64_t sent, received;
  rtr_coll_volume(op, bytes_of(in), bytes_of(out), n, &sent, &received);
  c->stats.bytes_sent += sent;
  c->stats.bytes_received += received;
  int count = (int)part, rc;
  if (op->kind == RTR_COLL_REDUCE_SCATTER) {
    q->send = xmalloc((size_t)n * part);
    rtr_coll_pack_slices(op, in, out, n, q->send);
    q->recv = xmalloc((size_t)n * part);
    rc = MPI_Ialltoall(q->send, count, MPI_BYTE, q->recv, count, MPI_BYTE, MPI_COMM_WORLD, &q->r);
  } else {
    /* An all_gather along dim 0 receives straight into its result: the rank-order
     * concatenation of row-major parts is the row-major result. */
    if (op->kind == RTR_COLL_ALL_REDUCE || op->dim != 0)
      q->recv = xmalloc((size_t)n * part);
    rc = MPI_Iallgather(in->data, count, MPI_BYTE, q->recv ? (void *)q->recv : out->data, count,
                        MPI_BYTE, MPI_COMM_WORLD, &q->r);
  }
  if (rc != MPI_SUCCESS) {
    remat_error_add(err, "MPI could not start 'rt.%s' (error %d)", rtr_coll_kind_name(op->kind),
                    rc);
    free_req(q);
    return -1;
  }
  *req = q;
  return 0;
}

static int mpi_wait(rtr_coll *c, void *req, char **err) {
  mpi_req *q = req;
  int rc = MPI_Wait(&q->r, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS)
    remat_error_add(err, "MPI could not complete 'rt.%s' (error %d)",
                    rtr_coll_kind_name(q->op.kind), rc);
  else if (q->recv)
    rtr_coll_finish(&q->op, q->out, &q->part_type, q->recv, c->size);
  free_req(q);
  return rc == MPI_SUCCESS ? 0 : -1;
}

static int mpi_exchange(rtr_coll *c, const void *send, size_t n, void *recv) {
  (void)c;
  if (n > (size_t)INT_MAX)
    return -1;
  return MPI_Allgather(send, (int)n, MPI_BYTE, recv, (int)n, MPI_BYTE, MPI_COMM_WORLD) ==
                 MPI_SUCCESS
             ? 0
             : -1;
}

static void mpi_abort(rtr_coll *c, int code) {
  (void)c;
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  exit(code); /* not reached: MPI_Abort ends the job */
}

static void mpi_destroy(rtr_coll *c) {
  MPI_Finalize();
  free(c);
}

rtr_coll *rtr_coll_mpi_create(int *argc, char ***argv, char **err) {
  int provided;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    remat_error_add(err, "MPI_Init_thread failed");
    return NULL;
  }
  rtr_coll *c = xcalloc(1, sizeof *c);
  MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c->size);
  c->name = "mpi";
  c->start = mpi_start;
  c->wait = mpi_wait;
  c->exchange = mpi_exchange;
  c->abort = mpi_abort;
  c->destroy = mpi_destroy;
  return c;
}
