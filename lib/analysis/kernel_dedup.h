/* kernel_dedup.h: one definition per distinct kernel (the last step of --remat-fuse).
 *
 * A model of L identical layers is fused into L copies of each layer's kernels, which
 * differ only in their names. remat_dedup_kernels keeps the first of every set of
 * structurally equal rt.kernel functions, points the calls of the others at it and
 * erases them, so that code generation works per distinct kernel, not per layer (XLA
 * deduplicates its fusions in the same way).
 *
 * Structurally equal (docs/design.md, "Kernel deduplication"): the same function type,
 * the same function attributes except the name, and bodies that are equal op by op: the
 * same op names, operands (numbered in definition order), result types, attributes, and
 * nested regions. The checkpoint tags rt.policy, rt.ac_region and rt.ac_reason are not
 * compared: they told --remat-mincut what to save and mean nothing to a kernel. Locations
 * are not compared either. Candidates are found by a structural hash and then compared
 * exactly; a hash match alone merges nothing.
 *
 * What is kept: the first kernel in module order, with its own ops, tags and locations;
 * its function location becomes a fused location of the locations of every kernel merged
 * into it (first its own). Every call keeps its own location, so each launch still points
 * at its layer. Only private kernels are erased (a public one may be used from outside
 * the module); the only uses of a kernel are `func.call` ops (the kernel contract of
 * passes/fuse.c), which are rewritten. */
#ifndef REMAT_KERNEL_DEDUP_H
#define REMAT_KERNEL_DEDUP_H

#include "mlir-c/IR.h"

typedef struct remat_dedup_stats {
  int kernels_before; /* rt.kernel functions before */
  int kernels_after;  /* after: the distinct kernels */
  int launches;       /* func.call ops of rt.kernel functions (static launch sites) */
} remat_dedup_stats;

/* Merges the structurally equal kernels of module (a builtin.module). stats may be NULL. */
void remat_dedup_kernels(MlirOperation module, remat_dedup_stats *stats);

#endif
