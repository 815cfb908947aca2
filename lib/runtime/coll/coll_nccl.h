/* coll_nccl.h: the NCCL collective backend (runtime/collective.h), for ranks that each
 * own a GPU. Not part of libremat and not linked into any tool yet: CMake compiles
 * coll_nccl.c when it finds nccl.h and cuda_runtime.h, so the file keeps building until
 * the CUDA executor uses it.
 *
 * Setup, as NCCL wants it: rank 0 makes an id (rtr_coll_nccl_unique_id), every rank
 * receives it out of band (e.g. through the MPI backend's exchange), then every rank
 * creates its backend on its device. */
#ifndef REMAT_RUNTIME_COLL_NCCL_H
#define REMAT_RUNTIME_COLL_NCCL_H

#include "collective.h"

enum { RTR_NCCL_ID_BYTES = 128 }; /* NCCL_UNIQUE_ID_BYTES */

/* Writes a new NCCL unique id into ID (RTR_NCCL_ID_BYTES). 0 or -1. */
int rtr_coll_nccl_unique_id(void *id);

/* The backend of rank RANK of SIZE on CUDA device DEVICE, joining the communicator ID
 * names. NULL with a message added to *err. destroy releases the communicator and the
 * stream. */
rtr_coll *rtr_coll_nccl_create(int rank, int size, const void *id, int device, char **err);

#endif
