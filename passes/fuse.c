/* fuse.c: --remat-fuse, outlining of fused work into kernel functions.
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it, and
 * docs/design.md "Fusion" is generated from it).
 *
 * The kernel form (the contract with the codegen and the runtime):
 *   func.func private @<fn>_k<N>(args...) -> (results...) attributes {rt.kernel}
 * called from the host as `func.call @<fn>_k<N>(args...)`. N counts from 0 per host
 * function in the order of the groups' first ops; the kernels follow their host function.
 *
 * The model (grouping=index, the default; docs/design.md "Fusion"):
 * - Views cost nothing. rt.reshape, rt.transpose, rt.broadcast and rt.slice are index maps
 *   inside every kernel that reads them (cloned there, never a kernel of their own). A view
 *   a host op reads stays in the host: a reshape is an alias in the runtime, a transpose of
 *   the last two dims feeding rt.matmul folds into the matmul, other views are read by the
 *   matmul through their index map. Only a view a non-matmul host op (return, collective,
 *   call) needs dense is materialized by a kernel.
 * - Loop fusion by index. A kernel's iteration space is its output; a producer of another
 *   shape is computed inside it at the composed index. A producer is *inlined* (recomputed
 *   in every kernel that reads it, never materialized) when one fused op consumes it, or
 *   when it is cheap and recomputing moves fewer bytes (inline_rule below). Every other
 *   fused op is a *member* of exactly one kernel.
 * - Reductions are kernels. rt.sum / rt.amax are members of row groups: all reductions of
 *   a group reduce the same dims of one shape S; the group may also hold ops of shape S
 *   (the epilogue, e.g. the normalization of softmax or layernorm) and of the kept shape K
 *   (per-row values such as rsqrt(var + eps)), as long as every read of a value that
 *   depends on the group's reductions stays in its row (aligned_read).
 * - Grouping is greedy in program order (group_block, proof there): a member joins the
 *   open groups it reads that are compatible with it (merging them), or the open group of
 *   its own shape or row structure, or opens one; a group is sealed when an op outside it
 *   reads one of its values.
 *
 * grouping=shape keeps the previous model for comparison: one group per result shape,
 * views fused as consumers (copies), reductions left in the host; the report measures the
 * fused block against it.
 *
 * The files, one job each (fuse_internal.h is what they share): this one the pass, its
 * options and the order of the steps per block; fuse_fold.c the views and the transposes
 * folded into matmuls before grouping; fuse_group.c the op classes, the block's arrays,
 * inlining and the grouping; fuse_outline.c the kernels and their outlining; fuse_stats.c
 * the report's numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse_internal.h"
#include "kernel_dedup.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"
#include "passes.h"
#include "report.h"

/* What the pass requires, keeps and breaks. */
static const char contract[] =
    "requires: verified rt IR (static shapes); runs on every func.func with a body that is "
    "not a kernel (no rt.kernel): joint functions, the @f_fwd and @f_bwd of --remat-mincut, "
    "plain functions. keeps: the meaning of every function, bit for bit; the order of the "
    "ops left in the host function; rt.policy and rt.ac_region tags and locations of fused "
    "ops. breaks: fused ops leave the host function for kernels, func.func private "
    "@<fn>_k<N> {rt.kernel} called with func.call (loop fusion by index, reductions as row "
    "kernels with their producers and epilogues, views as index maps, cheap producers "
    "recomputed per consumer); scalar arith.constants used only by fused ops are cloned "
    "into the kernels and erased from the host; a transpose feeding rt.matmul becomes the "
    "matmul's transpose_a or transpose_b";

/* ---- the pass ---- */

static bool shape_grouping(const fuse_options *o) { return !strcmp(o->grouping, "shape"); }

/* Groups one block of host function fn (after folding matmul transposes when grouping by
 * index) and outlines it; with a report, the same block's numbers for every op its own
 * kernel and for the previous grouping are added to the report's totals first. */
static int fuse_block(MlirSymbolTable symbols, MlirOperation fn, MlirBlock block,
                      const fuse_options *o, MlirOperation *after, int *counter,
                      stats *report /* [3] or NULL */) {
  bool shape_mode = shape_grouping(o);
  if (report) {
    fuse_unfused_stats(block, &report[0]);
    blk prev;
    fuse_blk_init(&prev, block, true);
    fuse_group_block_shape(&prev, o);
    kernel *pk;
    int npk = fuse_collect_kernels(&prev, &pk);
    fuse_kernel_stats(&prev, pk, npk, &report[1]);
    fuse_host_stats(&prev, &report[1]);
    fuse_kernels_free(pk, npk);
    fuse_blk_free(&prev);
  }
  if (!shape_mode)
    fuse_simplify_views(block);
  blk b;
  fuse_blk_init(&b, block, shape_mode);
  if (shape_mode)
    fuse_group_block_shape(&b, o);
  else {
    fuse_mark_host_uses(&b);
    fuse_mark_inlined(&b, o);
    fuse_group_block(&b, o);
  }
  kernel *ks;
  int nk = fuse_collect_kernels(&b, &ks);
  if (report) {
    fuse_kernel_stats(&b, ks, nk, &report[2]);
    fuse_host_stats(&b, &report[2]);
  }
  int rc = fuse_outline(&b, ks, nk, symbols, fn, after, counter);
  fuse_kernels_free(ks, nk);
  fuse_blk_free(&b);
  return rc;
}

/* A host function to fuse: not a kernel (rt.kernel). */
static bool is_host_function(MlirOperation func) { return !rt_func_is_kernel(func); }

static void fuse_run(MlirOperation module, MlirExternalPass pass, void *ud) {
  const fuse_options *o = ud;
  int failed = 0;
  FILE *rep = remat_report_open(o->report, &failed);
  if (failed) {
    rt_emit_error(module, "--remat-fuse: cannot open the report file '%s'", o->report);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  int nfn = 0, cap = 0;
  MlirOperation *fns = NULL;
  for (MlirOperation op = rt_func_first(module); !mlirOperationIsNull(op); op = rt_func_next(op))
    if (is_host_function(op)) {
      XGROW(fns, nfn, cap, 8);
      fns[nfn++] = op;
    }
  int rc = 0;
  stats total[3];
  memset(total, 0, sizeof total);
  MlirSymbolTable symbols = mlirSymbolTableCreate(module);
  for (int f = 0; f < nfn && rc == 0; f++) {
    MlirOperation after = fns[f];
    int counter = 0;
    stats st[3];
    memset(st, 0, sizeof st);
    MlirRegion body = mlirOperationGetRegion(fns[f], 0);
    for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk) && rc == 0;
         blk = mlirBlockGetNextInRegion(blk))
      rc = fuse_block(symbols, fns[f], blk, o, &after, &counter, rep ? st : NULL);
    if (rep && rc == 0) {
      char title[512];
      MlirStringRef name = rt_func_name(fns[f]);
      snprintf(title, sizeof title, "remat-fuse: @%.*s (grouping=%s)", (int)name.length, name.data,
               o->grouping);
      fuse_stats_print_block(rep, title, &st[0], &st[1], &st[2]);
      for (int s = 0; s < 3; s++)
        fuse_stats_merge(&total[s], &st[s]);
    }
    for (int s = 0; s < 3; s++)
      fuse_stats_free(&st[s]);
  }
  if (rep && rc == 0 && nfn > 1)
    fuse_stats_print_block(rep, "remat-fuse: all functions", &total[0], &total[1], &total[2]);
  for (int s = 0; s < 3; s++)
    fuse_stats_free(&total[s]);
  mlirSymbolTableDestroy(symbols);
  /* The last step, on the whole module: one definition per distinct kernel. */
  if (rc == 0 && o->dedup) {
    remat_dedup_stats d;
    remat_dedup_kernels(module, &d);
    if (rep)
      fprintf(rep,
              "remat-fuse: dedup: %d kernel launches, %d distinct kernels (%d "
              "definitions before)\n",
              d.launches, d.kernels_after, d.kernels_before);
  }
  remat_report_close(rep);
  free(fns);
  if (rc)
    mlirExternalPassSignalFailure(pass);
}

static int fuse_check_options(const void *opts, char *error, size_t cap) {
  const fuse_options *o = opts;
  if (o->max_ops < 0) {
    snprintf(error, cap, "max-ops must be 0 (unlimited) or positive");
    return -1;
  }
  if (strcmp(o->grouping, "index") && strcmp(o->grouping, "shape")) {
    snprintf(error, cap, "grouping must be 'index' or 'shape', not '%s'", o->grouping);
    return -1;
  }
  return 0;
}

static MlirPass fuse_create(const void *opts) {
  return remat_pass_create(&remat_fuse_pass, "RematFuse", fuse_run, opts, sizeof(fuse_options));
}

REMAT_PASS_INFO(fuse, Fuse, REMAT_FUSE_OPTIONS,
                "outline fused work (elementwise, views, reductions) into rt.kernel functions",
                contract, fuse_check_options, fuse_create)
