/* fuse_stats.c: the numbers of --remat-fuse's report: kernels, host ops and bytes moved,
 * for the block unfused, grouped by the previous model (grouping=shape) and as fused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- statistics for the report ---- */

static void stats_count(stats *s, const char *name) {
  for (int i = 0; i < s->nnames; i++)
    if (!strcmp(s->names[i], name)) {
      s->counts[i]++;
      return;
    }
  s->names = xrealloc(s->names, (size_t)s->nnames + 1, sizeof *s->names);
  s->counts = xrealloc(s->counts, (size_t)s->nnames + 1, sizeof *s->counts);
  snprintf(s->names[s->nnames], sizeof s->names[0], "%s", name);
  s->counts[s->nnames++] = 1;
}

/* Counts host op OP by the name it is shown by (an rt.extern by its own). */
static void stats_count_op(stats *s, MlirOperation op) {
  MlirStringRef name = rt_op_label(op);
  char buf[64];
  snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
  stats_count(s, buf);
}

void fuse_stats_free(stats *s) {
  free(s->names);
  free(s->counts);
}

void fuse_stats_merge(stats *into, const stats *s) {
  into->kernels += s->kernels;
  into->row_kernels += s->row_kernels;
  into->single_kernels += s->single_kernels;
  into->view_kernels += s->view_kernels;
  into->host_reductions += s->host_reductions;
  into->inlined_clones += s->inlined_clones;
  into->kernel_bytes += s->kernel_bytes;
  into->host_bytes += s->host_bytes;
  for (int i = 0; i < s->nnames; i++)
    for (int c = 0; c < s->counts[i]; c++)
      stats_count(into, s->names[i]);
}

static uint64_t op_traffic(MlirOperation op) {
  uint64_t t = 0;
  for (intptr_t a = 0; a < mlirOperationGetNumOperands(op); a++)
    t += fuse_value_bytes(mlirOperationGetOperand(op, a));
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    t += fuse_value_bytes(mlirOperationGetResult(op, r));
  return t;
}

/* Host ops: by name; traffic: operands and results once, views free (reshape an alias,
 * the others read through by their host consumer), constants and return free. */
void fuse_host_stats(blk *b, stats *s) {
  for (int i = 0; i < b->n; i++) {
    MlirOperation op = b->ops[i];
    bool host = b->cls[i] == C_HOST || b->hview[i];
    if (!host || rt_op_named(op, "func.return") || rt_op_named(op, "arith.constant"))
      continue;
    rt_op_id id = rt_op_lookup(op);
    if (id == RT_OP_SUM || id == RT_OP_AMAX)
      s->host_reductions++;
    stats_count_op(s, op);
    if (!rt_op_is_view(id))
      s->host_bytes += op_traffic(op);
  }
}

void fuse_kernel_stats(blk *b, kernel *ks, int nk, stats *s) {
  for (int k = 0; k < nk; k++) {
    s->kernels++;
    s->row_kernels += ks[k].rows;
    int computing = 0;
    for (int bi = 0; bi < ks[k].nbody; bi++) {
      int i = ks[k].body[bi];
      computing += !rt_op_is_view(rt_op_lookup(b->ops[i]));
      s->inlined_clones += b->grp[i] < 0;
    }
    s->view_kernels += computing == 0;
    s->single_kernels += computing == 1 || (computing == 0 && ks[k].nbody == 1);
    for (int a = 0; a < ks[k].nargs; a++)
      s->kernel_bytes += fuse_value_bytes(ks[k].args[a]);
    for (int r = 0; r < ks[k].nresults; r++)
      s->kernel_bytes += fuse_value_bytes(ks[k].results[r]);
  }
}

/* Every op its own kernel: every rt op that computes (views: reshape free, the others a
 * copy), each reading its operands and writing its result. */
void fuse_unfused_stats(MlirBlock block, stats *s) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    op_class c = fuse_classify(op, false);
    rt_op_id id = rt_op_lookup(op);
    if (c == C_HOST) {
      if (rt_op_named(op, "func.return"))
        continue;
      stats_count_op(s, op);
      s->host_bytes += op_traffic(op);
    } else if (c != C_CONST && id != RT_OP_RESHAPE) {
      s->kernels++;
      s->single_kernels++;
      s->row_kernels += c == C_RED;
      s->view_kernels += c == C_VIEW;
      s->kernel_bytes += op_traffic(op);
    }
  }
}

static void stats_print(FILE *f, const char *label, const stats *s) {
  fprintf(f, "  %-22s %7d %7d %7d %7d %11d %16llu %16llu\n", label, s->kernels, s->row_kernels,
          s->single_kernels, s->view_kernels, s->host_reductions,
          (unsigned long long)s->kernel_bytes,
          (unsigned long long)(s->kernel_bytes + s->host_bytes));
}

void fuse_stats_print_block(FILE *f, const char *title, const stats *base, const stats *prev,
                            const stats *now) {
  fprintf(f, "%s\n", title);
  fprintf(f, "  %-22s %7s %7s %7s %7s %11s %16s %16s\n", "grouping", "kernels", "row", "single",
          "views", "host-reduce", "kernel-bytes", "total-bytes");
  stats_print(f, "unfused (op/kernel)", base);
  stats_print(f, "previous (shape)", prev);
  stats_print(f, "this", now);
  double l0 = prev->kernels + prev->host_reductions, l1 = now->kernels + now->host_reductions;
  double t0 = (double)(prev->kernel_bytes + prev->host_bytes);
  double t1 = (double)(now->kernel_bytes + now->host_bytes);
  fprintf(f, "  launches + host reductions: %.0f -> %.0f (%.1f%% of previous)\n", l0, l1,
          l0 > 0 ? 100.0 * l1 / l0 : 0.0);
  fprintf(f, "  modelled traffic: %.0f -> %.0f bytes (%.1f%% of previous; kernels %.1f%%)\n", t0,
          t1, t0 > 0 ? 100.0 * t1 / t0 : 0.0,
          prev->kernel_bytes ? 100.0 * (double)now->kernel_bytes / (double)prev->kernel_bytes
                             : 0.0);
  fprintf(f, "  host ops:");
  for (int i = 0; i < now->nnames; i++)
    fprintf(f, " %s %d%s", now->names[i], now->counts[i], i + 1 < now->nnames ? "," : "");
  fprintf(f, "%s\n", now->nnames ? "" : " none");
  fprintf(f, "  inlined op clones: %d, kernels of view ops only: %d\n", now->inlined_clones,
          now->view_kernels);
  if (base->kernels == 0) /* say it, rather than leave a table of zeros to decode */
    fprintf(f, "  nothing to fuse: every op is a host op, a constant or a reshape\n");
}
