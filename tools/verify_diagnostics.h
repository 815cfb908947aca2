/* verify_diagnostics.h: remat-opt --verify-diagnostics, MLIR's -verify-diagnostics for rt
 * IR. Diagnostics are recorded instead of printed, then matched against the input's
 * annotations, as in mlir/test:
 *
 *     // expected-error @+1 {{part of the message}}
 *     %0 = "rt.exp"(%c) : (tensor<4xi32>) -> tensor<4xi32>
 *
 * Kinds: expected-error, -warning, -note, -remark. Where: nothing (this line), @+N,
 * @-N, @above, @below (the nearest line above or below without an annotation). The text
 * in {{...}} must occur in the message. Every annotation must be matched by one
 * diagnostic of its kind at its line of the input file, and every diagnostic by one
 * annotation. */
#ifndef REMAT_OPT_VERIFY_DIAGNOSTICS_H
#define REMAT_OPT_VERIFY_DIAGNOSTICS_H

#include <stddef.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

typedef struct diag_record diag_record;

typedef struct diag_log {
  diag_record *items;
  size_t n, cap;
} diag_log;

/* Records every diagnostic of CTX (and its notes) into LOG from now on; none is printed.
 * Detach the returned handler (mlirContextDetachDiagnosticHandler) before LOG goes. */
MlirDiagnosticHandlerID diag_log_attach(MlirContext ctx, diag_log *log);

/* Matches LOG against the annotations of TEXT, the input named PATH (as it was given to
 * the parser). Prints each mismatch to stderr ("PATH:LINE: error: ..."); returns their
 * number (0: verified). */
int diag_log_verify(const diag_log *log, const char *path, const char *text);

void diag_log_free(diag_log *log);

#endif
