/* diagnostics.h: the tools' old name for rematAttachDiagnosticPrinter (remat-c/Remat.h),
 * which prints a context's diagnostics the way compilers do, "file:line:col: error:
 * message". New code calls the public function. */
#ifndef REMAT_DIAGNOSTICS_H
#define REMAT_DIAGNOSTICS_H

#include <stdio.h>

#include "remat-c/Remat.h"

/* Same as rematAttachDiagnosticPrinter. */
void remat_diagnostics_attach(MlirContext ctx, FILE *out, int *errors);

#endif
