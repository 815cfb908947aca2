/* diagnostics.c: "file:line:col: severity: message" printing of MLIR diagnostics
 * (rematAttachDiagnosticPrinter in remat-c/Remat.h). */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/Diagnostics.h"
#include "remat-c/Remat.h"
#include "support.h"

typedef struct diag_sink {
  FILE *out;
  int *errors;
} diag_sink;

static void write_str(MlirStringRef s, void *f) { fwrite(s.data, 1, s.length, f); }

/* The file location a diagnostic points at: through names, call sites (the callee) and
 * fused locations (the first file location inside). */
static bool file_loc(MlirLocation loc, MlirLocation *found) {
  for (int depth = 0; depth < 64; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      *found = loc;
      return true;
    }
    if (mlirLocationIsAName(loc))
      loc = mlirLocationNameGetChildLoc(loc);
    else if (mlirLocationIsACallSite(loc))
      loc = mlirLocationCallSiteGetCallee(loc);
    else if (mlirLocationIsAFused(loc)) {
      unsigned n = mlirLocationFusedGetNumLocations(loc);
      MlirLocation *locs = xcalloc(n, sizeof *locs);
      bool ok = false;
      mlirLocationFusedGetLocations(loc, locs);
      for (unsigned i = 0; i < n && !ok; i++)
        ok = file_loc(locs[i], found);
      free(locs);
      return ok;
    } else
      return false;
  }
  return false;
}

bool rematLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file, int *line, int *col) {
  MlirLocation found;
  if (!file_loc(loc, &found))
    return false;
  *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(found));
  *line = mlirLocationFileLineColRangeGetStartLine(found);
  *col = mlirLocationFileLineColRangeGetStartColumn(found);
  return true;
}

static void print_one(MlirDiagnostic d, FILE *out) {
  static const char *sev[] = {"error", "warning", "note", "remark"};
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  MlirStringRef f;
  int line, col;
  if (rematLocationGetFileLineCol(loc, &f, &line, &col)) {
    fprintf(out, "%.*s:%d:%d: ", (int)f.length, f.data, line, col);
  } else if (!mlirLocationEqual(mlirDiagnosticGetLocation(d),
                                mlirLocationUnknownGet(mlirLocationGetContext(loc)))) {
    mlirLocationPrint(mlirDiagnosticGetLocation(d), write_str, out);
    fputs(": ", out);
  }
  fprintf(out, "%s: ", sev[mlirDiagnosticGetSeverity(d) & 3]);
  mlirDiagnosticPrint(d, write_str, out);
  fputc('\n', out);
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(d); i < n; i++)
    print_one(mlirDiagnosticGetNote(d, i), out);
}

static MlirLogicalResult handle(MlirDiagnostic d, void *ud) {
  diag_sink *s = ud;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError && s->errors)
    ++*s->errors;
  print_one(d, s->out);
  fflush(s->out);
  return mlirLogicalResultSuccess();
}

void rematAttachDiagnosticPrinter(MlirContext ctx, FILE *out, int *errors) {
  diag_sink *s = xmalloc(sizeof *s);
  s->out = out;
  s->errors = errors;
  mlirContextAttachDiagnosticHandler(ctx, handle, s, free);
}
