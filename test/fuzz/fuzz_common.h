/* fuzz_common.h: what the pass harnesses (fuzz_ir.c, fuzz_options.c, fuzz_pipeline.c)
 * share: their MLIR context, the handler that counts the diagnostics bad input is expected
 * to produce, the invariants of a pipeline that succeeded, and a pass built from fuzzed
 * option text. Header-only (static inline); anything
 * unexpected aborts, which libFuzzer reports as a finding. */
#ifndef REMAT_FUZZ_COMMON_H
#define REMAT_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"

/* A context without threads (a finding reproduces from its input alone) with remat's
 * dialects loaded. The caller destroys it. */
static inline MlirContext fuzz_context(void) {
  MlirContext ctx = mlirContextCreateWithThreading(false);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx)))
    abort();
  return ctx;
}

/* A diagnostic handler that counts (into the int at USER_DATA) and prints nothing. */
static inline MlirLogicalResult fuzz_swallow(MlirDiagnostic d, void *user_data) {
  (void)d;
  ++*(int *)user_data;
  return mlirLogicalResultSuccess();
}

/* An MlirStringCallback appending to the malloc'ed string at USER_DATA. */
static inline void fuzz_append(MlirStringRef s, void *user_data) {
  char **buf = user_data;
  size_t n = strlen(*buf);
  char *grown = realloc(*buf, n + s.length + 1);
  if (!grown)
    abort();
  memcpy(grown + n, s.data, s.length);
  grown[n + s.length] = 0;
  *buf = grown;
}

/* The invariants of a pipeline that succeeded on OUT: the IR verifies, and it prints and
 * parses back. Else a message that names the run (printf FMT: "fuzz_ir: pipeline A") and
 * abort. */
static inline void fuzz_check_output(MlirContext ctx, MlirOperation out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void fuzz_check_output(MlirContext ctx, MlirOperation out, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (mlirLogicalResultIsFailure(rematVerify(out))) {
    fprintf(stderr, "%s succeeded but its output does not verify\n", what);
    abort();
  }
  char *text = calloc(1, 1);
  if (!text)
    abort();
  mlirOperationPrint(out, fuzz_append, &text);
  MlirModule back = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(back)) {
    fprintf(stderr, "%s succeeded but its output does not parse back:\n%s\n", what, text);
    abort();
  }
  mlirModuleDestroy(back);
  free(text);
}

/* Builds pass INFO from option TEXT as remat-opt does. A rejection must come with a
 * NUL-terminated message (else abort); it returns a null pass. The options that name
 * files (REMAT_OPTION_FILE) are sent to /dev/null when set, so that fuzzed values create
 * no files; then ADJUST, when not NULL, sees each option's parsed value (USER: its
 * data) before the pass is built. */
static inline MlirPass fuzz_build_pass(const RematPassInfo *info, const char *text,
                                       void (*adjust)(const RematOptionInfo *, void *, void *),
                                       void *user) {
  MlirPass pass = {NULL};
  void *opts = calloc(1, info->options_size ? info->options_size : 1);
  if (!opts)
    abort();
  info->init_options(opts);
  char err[512];
  memset(err, 'x', sizeof err);
  if (rematParsePassOptions(info, text, opts, err, sizeof err) == 0) {
    for (int k = 0; k < info->num_options; k++) {
      const RematOptionInfo *o = &info->options[k];
      char *value = (char *)opts + o->offset;
      if (o->type == REMAT_OPTION_FILE && value[0])
        strcpy(value, "/dev/null");
      if (adjust)
        adjust(o, value, user);
    }
    pass = rematCreatePassFromOptions(info, opts, err, sizeof err);
  }
  if (!pass.ptr && (!memchr(err, 0, sizeof err) || !err[0]))
    abort(); /* a rejection comes with a message, NUL-terminated */
  free(opts);
  return pass;
}

#endif
