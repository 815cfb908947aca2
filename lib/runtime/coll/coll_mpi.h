/* coll_mpi.h: the MPI collective backend (runtime/collective.h). Not part of libremat:
 * CMake compiles coll_mpi.c into remat-run when it finds mpi.h (REMAT_HAVE_MPI), so the
 * library has no MPI dependency and the build without MPI keeps working. */
#ifndef REMAT_RUNTIME_COLL_MPI_H
#define REMAT_RUNTIME_COLL_MPI_H

#include "collective.h"

/* Initializes MPI (MPI_Init_thread, funneled) and returns a backend over
 * MPI_COMM_WORLD; destroy finalizes MPI. NULL with a message added to *err on failure. */
rtr_coll *rtr_coll_mpi_create(int *argc, char ***argv, char **err);

#endif
