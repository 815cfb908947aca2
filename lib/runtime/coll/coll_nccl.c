/* coll_nccl.c: collectives across GPUs through NCCL (see coll_nccl.h, collective.h).
 *
 * The runtime's buffers are host memory today, so a collective stages them: the input is
 * copied to the device, NCCL moves bytes (ncclUint8) between the ranks on this backend's
 * stream, the N parts come back to the host, and at the wait the parts are completed in
 * rank order by rtr_coll_finish, exactly as the MPI backend does: the same bits on every
 * backend. As with MPI, NCCL's own reductions (whose order depends on rings and channels)
 * are not used: all_reduce is an ncclAllGather, reduce_scatter a grouped
 * ncclSend/ncclRecv all-to-all, each followed by the rank-order combination. A CUDA
 * executor that keeps buffers on the device drops the staging copies and replaces the
 * host combination by a device kernel with the same order.
 *
 * Every call is asynchronous on the stream; start records an event and wait synchronizes
 * on it, so collectives overlap with the host work between an op and its rt.wait. */
#include "coll_nccl.h"

#include <cuda_runtime.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nccl_impl {
  ncclComm_t comm;
  cudaStream_t stream;
  int device;
} nccl_impl;

typedef struct nccl_req {
  rtr_coll_op op;
  rtr_buffer *out;      /* borrowed: the collective's result */
  rtr_buffer part_type; /* shape and type of one part */
  void *dev_send, *dev_recv;
  unsigned char *recv; /* N parts on the host, rank order (pinned, so the copy back is
                          * asynchronous) */
  cudaEvent_t done;
} nccl_req;

static size_t bytes_of(const rtr_buffer *b) { return (size_t)b->numel * rtr_elem_size(b->elem); }

static void free_req(nccl_req *q) {
  if (q->done)
    cudaEventDestroy(q->done);
  cudaFree(q->dev_send);
  cudaFree(q->dev_recv);
  if (q->recv)
    cudaFreeHost(q->recv);
  free(q);
}

static bool cuda_ok(cudaError_t e, const char *what, char **err) {
  if (e == cudaSuccess)
    return true;
  remat_error_add(err, "%s: %s", what, cudaGetErrorString(e));
  return false;
}

static bool nccl_ok(ncclResult_t e, const char *what, char **err) {
  if (e == ncclSuccess)
    return true;
  remat_error_add(err, "%s: %s", what, ncclGetErrorString(e));
  return false;
}

static int nccl_start(rtr_coll *c, const rtr_coll_op *op, const rtr_buffer *in, rtr_buffer *out,
                      void **req, char **err) {
  nccl_impl *m = c->impl;
  int n = c->size;
  *req = NULL;
  c->stats.started[op->kind]++;
  if (op->group_size == 1) {
    memcpy(out->data, in->data, bytes_of(out));
    return 0;
  }
  nccl_req *q = xcalloc(1, sizeof *q);
  q->op = *op;
  q->out = out;
  q->part_type = rtr_coll_part_type(op, in, out);
  size_t part = bytes_of(&q->part_type), total = (size_t)n * part;
  uint64_t sent, received;
  rtr_coll_volume(op, bytes_of(in), bytes_of(out), n, &sent, &received);
  c->stats.bytes_sent += sent;
  c->stats.bytes_received += received;
  /* What this rank sends: its input, or for reduce_scatter its N slices in rank order. */
  size_t send_bytes = op->kind == RTR_COLL_REDUCE_SCATTER ? total : part;
  unsigned char *packed = NULL;
  const void *host_send = in->data;
  if (op->kind == RTR_COLL_REDUCE_SCATTER) {
    packed = xmalloc(total);
    rtr_coll_pack_slices(op, in, out, n, packed);
    host_send = packed;
  }
  bool ok = cuda_ok(cudaSetDevice(m->device), "cudaSetDevice", err) &&
            cuda_ok(cudaMallocHost((void **)&q->recv, total), "cudaMallocHost", err) &&
            cuda_ok(cudaMalloc(&q->dev_send, send_bytes), "cudaMalloc", err) &&
            cuda_ok(cudaMalloc(&q->dev_recv, total), "cudaMalloc", err) &&
            cuda_ok(cudaMemcpyAsync(q->dev_send, host_send, send_bytes, cudaMemcpyHostToDevice,
                                    m->stream),
                    "cudaMemcpyAsync", err);
  if (ok && op->kind == RTR_COLL_REDUCE_SCATTER) {
    ok = nccl_ok(ncclGroupStart(), "ncclGroupStart", err);
    for (int r = 0; ok && r < n; r++)
      ok = nccl_ok(ncclSend((const unsigned char *)q->dev_send + (size_t)r * part, part, ncclUint8,
                            r, m->comm, m->stream),
                   "ncclSend", err) &&
           nccl_ok(ncclRecv((unsigned char *)q->dev_recv + (size_t)r * part, part, ncclUint8, r,
                            m->comm, m->stream),
                   "ncclRecv", err);
    ok = nccl_ok(ncclGroupEnd(), "ncclGroupEnd", err) && ok;
  } else if (ok)
    ok = nccl_ok(ncclAllGather(q->dev_send, q->dev_recv, part, ncclUint8, m->comm, m->stream),
                 "ncclAllGather", err);
  ok =
      ok &&
      cuda_ok(cudaMemcpyAsync(q->recv, q->dev_recv, total, cudaMemcpyDeviceToHost, m->stream),
              "cudaMemcpyAsync", err) &&
      cuda_ok(cudaEventCreateWithFlags(&q->done, cudaEventDisableTiming), "cudaEventCreate", err) &&
      cuda_ok(cudaEventRecord(q->done, m->stream), "cudaEventRecord", err);
  /* A copy from pageable memory has read the host bytes when cudaMemcpyAsync returns
   * (CUDA stages them at once), so the packed slices can go now. */
  free(packed);
  if (!ok) {
    free_req(q);
    return -1;
  }
  *req = q;
  return 0;
}

static int nccl_wait(rtr_coll *c, void *req, char **err) {
  nccl_req *q = req;
  bool ok = cuda_ok(cudaEventSynchronize(q->done), "cudaEventSynchronize", err);
  if (ok)
    rtr_coll_finish(&q->op, q->out, &q->part_type, q->recv, c->size);
  free_req(q);
  return ok ? 0 : -1;
}

static int nccl_exchange(rtr_coll *c, const void *send, size_t n, void *recv) {
  nccl_impl *m = c->impl;
  void *ds = NULL, *dr = NULL;
  char *err = NULL; /* exchange returns only 0 or -1: the message is dropped */
  size_t total = n * (size_t)c->size;
  bool ok =
      cuda_ok(cudaMalloc(&ds, n ? n : 1), "cudaMalloc", &err) &&
      cuda_ok(cudaMalloc(&dr, total ? total : 1), "cudaMalloc", &err) &&
      cuda_ok(cudaMemcpy(ds, send, n, cudaMemcpyHostToDevice), "cudaMemcpy", &err) &&
      nccl_ok(ncclAllGather(ds, dr, n, ncclUint8, m->comm, m->stream), "ncclAllGather", &err) &&
      cuda_ok(cudaStreamSynchronize(m->stream), "cudaStreamSynchronize", &err) &&
      cuda_ok(cudaMemcpy(recv, dr, total, cudaMemcpyDeviceToHost), "cudaMemcpy", &err);
  free(err);
  cudaFree(ds);
  cudaFree(dr);
  return ok ? 0 : -1;
}

/* NCCL cannot end other processes: abort the communicator (so no rank waits in it) and
 * exit; the launcher ends the job when one rank exits with an error. */
static void nccl_abort(rtr_coll *c, int code) {
  nccl_impl *m = c->impl;
  fflush(stdout);
  fflush(stderr);
  ncclCommAbort(m->comm);
  exit(code);
}

static void nccl_destroy(rtr_coll *c) {
  nccl_impl *m = c->impl;
  ncclCommDestroy(m->comm);
  cudaStreamDestroy(m->stream);
  free(m);
  free(c);
}

int rtr_coll_nccl_unique_id(void *id) {
  ncclUniqueId u;
  if (ncclGetUniqueId(&u) != ncclSuccess)
    return -1;
  memcpy(id, &u, sizeof u);
  return 0;
}

rtr_coll *rtr_coll_nccl_create(int rank, int size, const void *id, int device, char **err) {
  _Static_assert(sizeof(ncclUniqueId) == RTR_NCCL_ID_BYTES, "NCCL unique id size");
  nccl_impl *m = xcalloc(1, sizeof *m);
  ncclUniqueId u;
  memcpy(&u, id, sizeof u);
  m->device = device;
  if (!cuda_ok(cudaSetDevice(device), "cudaSetDevice", err) ||
      !cuda_ok(cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking), "cudaStreamCreate",
               err)) {
    free(m);
    return NULL;
  }
  if (!nccl_ok(ncclCommInitRank(&m->comm, size, u, rank), "ncclCommInitRank", err)) {
    cudaStreamDestroy(m->stream);
    free(m);
    return NULL;
  }
  rtr_coll *c = xcalloc(1, sizeof *c);
  c->name = "nccl";
  c->rank = rank;
  c->size = size;
  c->start = nccl_start;
  c->wait = nccl_wait;
  c->exchange = nccl_exchange;
  c->abort = nccl_abort;
  c->destroy = nccl_destroy;
  c->impl = m;
  return c;
}
