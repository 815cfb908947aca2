/* ranks.h: what differs between the ranks of a run: which arguments are shards, per-rank
 * random inputs and per-rank file names (see docs/design.md, "Real ranks").
 *
 * A shard is an rt.param argument from which an rt.all_gather with group_size > 1 is
 * reached through single-input ops (rt ops, not collectives, whose operands are one
 * tensor plus any scalars and constants: convert, reshape, unary elementwise, a multiply
 * by a constant...): the FSDP gather rule of --remat-checkpoint.
 * Every other argument (activations, tangents, parameters that are not gathered) is
 * replicated: every rank gets the same value. */
#ifndef REMAT_RUNTIME_RANKS_H
#define REMAT_RUNTIME_RANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "buffer.h"
#include "io.h"

/* True when argument K of FUNC is a shard. */
bool rtr_arg_is_shard(MlirOperation func, int k);

/* Random inputs of rank RANK: replicated arguments get rtr_inputs_random's values (the
 * same on every rank); shard arguments get those of seed + RANK * 0x9E3779B97F4A7C15
 * (wrapping), so rank 0 has a plain run's values and every other rank its own. NULL
 * with a message added to *err for an unsupported type (as rtr_inputs_random). */
rtr_buffer **rtr_inputs_random_rank(MlirOperation func, uint64_t seed, rtr_values values, int rank,
                                    int *count, char **err);

/* Emits a located error at every collective of MODULE's functions whose group_size does
 * not fit the ranks of C (rtr_coll_check_group): run before any rank communicates, so a
 * wrong group size stops every rank at once instead of hanging one. Returns the count. */
struct rtr_coll;
int rtr_check_groups(MlirOperation module, const struct rtr_coll *c);

/* Every rank tells every other whether it is ready (MINE = 0) before they communicate:
 * returns 0 when all are; otherwise -1 on every rank, and a rank that was ready adds
 * "rank R: WHAT: rank Q failed (see its message)" to *ERR (the failed rank has its own
 * error), so every rank reports and none waits in a collective. */
int rtr_ranks_agree(struct rtr_coll *c, int mine, const char *what, char **err);

/* True when this process was started by an MPI launcher (mpirun/mpiexec of OpenMPI,
 * MPICH or a PMIx launcher: OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK is set). A plain
 * run never initializes MPI. */
bool rtr_launched_by_mpi(void);

/* PATTERN with every "%r" replaced by RANK and "%%" by "%"; the caller frees. */
char *rtr_rank_path(const char *pattern, int rank);

#endif
