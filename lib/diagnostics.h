/* diagnostics.h: prints a context's diagnostics the way compilers do,
 * "file:line:col: error: message", for remat's tools. */
#ifndef REMAT_DIAGNOSTICS_H
#define REMAT_DIAGNOSTICS_H

#include <stdio.h>

#include "mlir-c/IR.h"

/* Attaches a handler that writes every diagnostic of ctx (and its notes) to out and
 * counts the errors into *errors (may be NULL). The handler lives as long as ctx. */
void remat_diagnostics_attach(MlirContext ctx, FILE *out, int *errors);

#endif
