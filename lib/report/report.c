/* report.c: the per-value tables of --remat-report (see report.h). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "remat-c/Remat.h"

#include "rt.h"

/* The stream that "-" means on this thread while rematRunPasses collects reports; NULL:
 * stderr. Set and cleared by rematRunPasses alone, around one pass manager run. */
static _Thread_local FILE *capture;

FILE *remat_report_open(const char *dest, int *failed) {
  *failed = 0;
  if (!dest || !*dest)
    return NULL;
  if (!strcmp(dest, "-"))
    return capture ? capture : stderr;
  FILE *f = fopen(dest, "a");
  if (!f)
    *failed = 1;
  return f;
}

int remat_report_close(FILE *f) {
  if (!f)
    return 0;
  int failed = fflush(f) || ferror(f);
  if (f != stderr && f != capture && fclose(f))
    failed = 1;
  return failed ? -1 : 0;
}

char *remat_report_loc(MlirLocation loc, char *buf, size_t cap) {
  MlirStringRef name = {NULL, 0};
  for (int depth = 0; depth < 16; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      MlirStringRef file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      /* The file name without directories: reports compare across machines. */
      size_t start = file.length;
      while (start > 0 && file.data[start - 1] != '/')
        start--;
      snprintf(buf, cap, "%.*s:%d:%d", (int)(file.length - start), file.data + start,
               mlirLocationFileLineColRangeGetStartLine(loc),
               mlirLocationFileLineColRangeGetStartColumn(loc));
      return buf;
    }
    if (mlirLocationIsAName(loc)) {
      if (!name.data) /* the outermost name: the one the importer gave */
        name = mlirIdentifierStr(mlirLocationNameGetName(loc));
      loc = mlirLocationNameGetChildLoc(loc);
    } else if (mlirLocationIsACallSite(loc))
      loc = mlirLocationCallSiteGetCallee(loc);
    else if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) > 0) {
      MlirLocation *all = xcalloc(mlirLocationFusedGetNumLocations(loc), sizeof *all);
      mlirLocationFusedGetLocations(loc, all);
      loc = all[0];
      free(all);
    } else
      break;
  }
  /* No file position: a name (remat-import-torch names arguments by their module path,
   * loc("blocks.0.ln1.weight")) is what the user knows the value by. */
  if (name.data)
    snprintf(buf, cap, "\"%.*s\"", (int)name.length, name.data);
  else
    snprintf(buf, cap, "?");
  return buf;
}

static void append(MlirStringRef s, void *ud) {
  char **text = ud;
  char *t = xasprintf("%s%.*s", *text, (int)s.length, s.data);
  free(*text);
  *text = t;
}

char *remat_report_value_loc(MlirValue v, char *buf, size_t cap) {
  remat_report_loc(mlirValueGetLocation(v), buf, cap);
  if (strcmp(buf, "?"))
    return buf;
  /* Nothing located: its SSA name as the IR prints it, and its op. Only here is an
   * AsmState built (it numbers the function), so located values cost nothing. */
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsUseLocalScope(flags); /* numbered as in its function */
  MlirAsmState st = mlirAsmStateCreateForValue(v, flags);
  char *ssa = xasprintf("%s", "");
  mlirValuePrintAsOperand(v, st, append, &ssa);
  mlirAsmStateDestroy(st);
  mlirOpPrintingFlagsDestroy(flags);
  if (mlirValueIsAOpResult(v)) {
    MlirStringRef op = rt_op_label(mlirOpResultGetOwner(v));
    snprintf(buf, cap, "%s = %.*s (no location)", ssa, (int)op.length, op.data);
  } else
    snprintf(buf, cap, "%s (no location)", ssa);
  free(ssa);
  return buf;
}

const char *remat_report_tag_why(MlirOperation op, char *buf, size_t cap) {
  MlirAttribute r = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString("rt.ac_reason"));
  if (mlirAttributeIsNull(r) || !mlirAttributeIsAString(r))
    return "policy";
  MlirStringRef s = mlirStringAttrGetValue(r);
  int64_t region;
  if (rt_str_eq(s, "ac-stage") && rt_get_i64(op, "rt.ac_region", &region))
    snprintf(buf, cap, "stage %lld", (long long)region);
  else
    snprintf(buf, cap, "%.*s", (int)s.length, s.data);
  return buf;
}

void remat_report_table_header(FILE *f) {
  fprintf(f, "  %3s  %-20s %-24s %12s  %-8s %s\n", "#", "value", "type", "bytes", "why",
          "location");
}

void remat_report_row(FILE *f, int index, const char *value, MlirValue v, uint64_t bytes,
                      const char *why) {
  char tb[128], lb[256];
  fprintf(f, "  %3d  %-20s %-24s %12llu  %-8s %s\n", index, value,
          rt_type_str(mlirValueGetType(v), tb, sizeof tb), (unsigned long long)bytes, why,
          remat_report_value_loc(v, lb, sizeof lb));
}

MlirLogicalResult rematRunPasses(MlirPassManager pm, MlirOperation op, char **report) {
  if (!report)
    return mlirPassManagerRunOnOp(pm, op);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    remat_fatal("open_memstream: out of memory");
  FILE *outer = capture; /* a pass manager run inside a pass: restored after */
  capture = f;
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, op);
  capture = outer;
  if (fclose(f))
    remat_fatal("open_memstream: out of memory");
  *report = text;
  return r;
}
