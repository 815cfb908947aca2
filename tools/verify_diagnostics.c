/* verify_diagnostics.c: remat-opt --verify-diagnostics (see verify_diagnostics.h). */
#include "verify_diagnostics.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "remat-c/Remat.h"
#include "support.h"

struct diag_record {
  MlirDiagnosticSeverity severity;
  char *file; /* NULL: no file location */
  int line, col;
  char *message;
  bool matched;
};

static const char *const kinds[] = {"error", "warning", "note", "remark"};

typedef struct text {
  char *s;
  size_t len;
} text;

static void append(MlirStringRef str, void *ud) {
  text *t = ud;
  t->s = xrealloc(t->s, t->len + str.length + 1, 1);
  memcpy(t->s + t->len, str.data, str.length);
  t->len += str.length;
  t->s[t->len] = 0;
}

static bool is_op_printout(MlirDiagnostic d);

static void record(diag_log *log, MlirDiagnostic d) {
  if (is_op_printout(d))
    return;
  XGROW(log->items, log->n, log->cap, 16);
  diag_record *r = &log->items[log->n++];
  memset(r, 0, sizeof *r);
  r->severity = mlirDiagnosticGetSeverity(d);
  MlirStringRef file;
  if (rematLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &r->line, &r->col))
    r->file = xstrndup(file.data, file.length);
  text msg = {xcalloc(1, 1), 0};
  mlirDiagnosticPrint(d, append, &msg);
  r->message = msg.s;
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(d); i < n; i++)
    record(log, mlirDiagnosticGetNote(d, i));
}

/* The op printout MLIR attaches to a verifier error: mlir-opt drops it under
 * -verify-diagnostics (printOpOnDiagnostic(false), which the C API cannot set). */
static bool is_op_printout(MlirDiagnostic d) {
  text t = {xcalloc(1, 1), 0};
  mlirDiagnosticPrint(d, append, &t);
  bool is = mlirDiagnosticGetSeverity(d) == MlirDiagnosticNote &&
            !strncmp(t.s, "see current operation: ", 23);
  free(t.s);
  return is;
}

static MlirLogicalResult handle(MlirDiagnostic d, void *ud) {
  record(ud, d);
  return mlirLogicalResultSuccess(); /* handled: the printer stays silent */
}

MlirDiagnosticHandlerID diag_log_attach(MlirContext ctx, diag_log *log) {
  return mlirContextAttachDiagnosticHandler(ctx, handle, log, NULL);
}

void diag_log_free(diag_log *log) {
  for (size_t i = 0; i < log->n; i++) {
    free(log->items[i].file);
    free(log->items[i].message);
  }
  free(log->items);
}

/* ---- annotations ---- */

typedef struct expectation {
  int kind;     /* index into kinds */
  int line, at; /* the annotation's line; the line it expects a diagnostic at */
  char *text;
} expectation;

/* The lines of TEXT: starts[i] is line i + 1. */
static size_t split_lines(const char *t, const char ***starts) {
  size_t n = 1, k = 0;
  for (const char *p = t; *p; p++)
    n += *p == '\n';
  *starts = xcalloc(n, sizeof **starts);
  (*starts)[k++] = t;
  for (const char *p = t; *p; p++)
    if (*p == '\n')
      (*starts)[k++] = p + 1;
  return n;
}

static bool line_has(const char *line, const char *needle) {
  const char *end = strchr(line, '\n');
  size_t n = end ? (size_t)(end - line) : strlen(line), m = strlen(needle);
  for (size_t i = 0; i + m <= n; i++)
    if (!memcmp(line + i, needle, m))
      return true;
  return false;
}

/* Parses the annotation at P (just after "expected-") on line LINE; -1 after printing a
 * malformed annotation. */
static int parse_one(const char *p, int line, const char **starts, size_t nlines, const char *path,
                     expectation *e) {
  e->kind = -1;
  for (int k = 0; k < 4; k++)
    if (!strncmp(p, kinds[k], strlen(kinds[k]))) {
      e->kind = k;
      p += strlen(kinds[k]);
    }
  e->line = e->at = line;
  while (*p == ' ')
    p++;
  if (*p == '@') {
    p++;
    if (!strncmp(p, "above", 5) || !strncmp(p, "below", 5)) {
      int step = p[0] == 'a' ? -1 : 1;
      p += 5;
      do
        e->at += step;
      while (e->at >= 1 && e->at <= (int)nlines && line_has(starts[e->at - 1], "expected-"));
    } else if (*p == '+' || *p == '-') {
      char *end;
      long off = strtol(p, &end, 10);
      e->at += (int)off;
      p = end;
    }
    while (*p == ' ')
      p++;
  }
  const char *close = strncmp(p, "{{", 2) ? NULL : strstr(p + 2, "}}");
  const char *eol = strchr(p, '\n');
  if (e->kind < 0 || !close || (eol && close > eol)) {
    fprintf(stderr,
            "%s:%d: error: malformed annotation (expected-<error|warning|note|"
            "remark> [@+N|@-N|@above|@below] {{text}})\n",
            path, line);
    return -1;
  }
  e->text = xstrndup(p + 2, (size_t)(close - p - 2));
  return 0;
}

static bool same_file(const char *a, const char *path) { return a && !strcmp(a, path); }

int diag_log_verify(const diag_log *log, const char *path, const char *input) {
  const char **starts;
  size_t nlines = split_lines(input, &starts);
  expectation *ex = NULL;
  size_t nex = 0, cap = 0;
  int bad = 0;
  for (size_t i = 0; i < nlines; i++) {
    const char *end = strchr(starts[i], '\n');
    for (const char *p = starts[i]; (p = strstr(p, "expected-")) && (!end || p < end); p++) {
      XGROW(ex, nex, cap, 16);
      if (parse_one(p + 9, (int)i + 1, starts, nlines, path, &ex[nex]) == 0)
        nex++;
      else
        bad++;
    }
  }
  bool *used = xcalloc(log->n + 1, 1);
  for (size_t k = 0; k < nex; k++) {
    const expectation *e = &ex[k];
    bool found = false;
    for (size_t i = 0; i < log->n && !found; i++) {
      const diag_record *r = &log->items[i];
      if (!used[i] && (int)r->severity == e->kind && r->line == e->at && same_file(r->file, path) &&
          strstr(r->message, e->text))
        found = used[i] = true;
    }
    if (!found) {
      fprintf(stderr, "%s:%d: error: expected %s \"%s\" was not produced\n", path, e->line,
              kinds[e->kind], e->text);
      bad++;
    }
  }
  for (size_t i = 0; i < log->n; i++)
    if (!used[i]) {
      const diag_record *r = &log->items[i];
      if (r->file)
        fprintf(stderr, "%s:%d:%d: error: unexpected %s: %s\n", r->file, r->line, r->col,
                kinds[r->severity & 3], r->message);
      else
        fprintf(stderr, "%s: error: unexpected %s: %s\n", path, kinds[r->severity & 3], r->message);
      bad++;
    }
  for (size_t k = 0; k < nex; k++)
    free(ex[k].text);
  free(ex);
  free(used);
  free(starts);
  return bad;
}
