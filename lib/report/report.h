/* report.h: the human-readable report of remat's passes (remat-opt --remat-report,
 * --report=FILE; a pass option `report=DEST`).
 *
 * A pass writes one block per function: a heading line, a table with one row per value
 * it kept (index, value, type, bytes, why, location), then "key: value" summary lines.
 * The "why" column is free text so that each pass can say which rule or tag decided.
 *
 * Ownership: remat_report_open returns a stream the caller closes with
 * remat_report_close (stderr is never closed). */
#ifndef REMAT_REPORT_H
#define REMAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "mlir-c/IR.h"

/* DEST "" or NULL: no report (returns NULL, *failed = 0); "-": stderr; otherwise the file
 * DEST opened for appending (remat-opt truncates it once at start). On a file that cannot
 * be opened: NULL and *failed = 1. */
FILE *remat_report_open(const char *dest, int *failed);
/* Flushes F and closes it (not stderr). -1 when a write failed (a full disk): the pass
 * reports an error then, as output that is lost must not look like success. */
int remat_report_close(FILE *f);

/* "file:line:col" of LOC (through name, call-site and fused locations); without one, the
 * outermost name of a name location in quotes ("blocks.0.ln1.weight"); else "?". Returns
 * buf. */
char *remat_report_loc(MlirLocation loc, char *buf, size_t cap);

/* Where value V comes from, as remat_report_loc says it for its location; for a value
 * without either, its SSA name and op ("%5 = rt.mul (no location)"), never "?". Returns
 * buf. */
char *remat_report_value_loc(MlirValue v, char *buf, size_t cap);

/* The "why" of a value saved because of its op's rt.policy save tag: "policy" for a tag
 * the user wrote; for one written by --remat-checkpoint, its rule (rt.ac_reason:
 * "fsdp", "save-ops", "budget", or "stage N" for a stage boundary). Returns a static
 * string or buf. */
const char *remat_report_tag_why(MlirOperation op, char *buf, size_t cap);

/* The table header and one row of it: value V (its type and where it comes from) under
 * the label VALUE. */
void remat_report_table_header(FILE *f);
void remat_report_row(FILE *f, int index, const char *value, MlirValue v, uint64_t bytes,
                      const char *why);

#endif
