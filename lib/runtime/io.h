/* io.h: inputs and outputs of remat-run: random inputs from a seed, the text format of
 * --inputs / --outputs, summaries.
 *
 * Text format (one value per argument, in argument order):
 *     # comment to the end of the line
 *     tensor<2x2xf32> 1.0 -2.5 0x1p-3 nan
 *     i64 42
 * A type (as MLIR prints it: tensor<...xELEM> or a scalar ELEM, with ELEM one of f32 f16
 * bf16 f64 i1 i8 i32 i64) starts a value; its elements follow in row-major order,
 * separated by white space, on as many lines as needed. Floats are read by strtod (so
 * decimal, hex floats, inf and nan work) and rounded to the element type; integers by
 * strtoll; i1 takes 0/1 or false/true. Written floats use %.9g (f32, f16, bf16) or
 * %.17g (f64), which read back to the same bits.
 *
 * Ownership: arrays of buffers returned here belong to the caller (rtr_buffers_free). */
#ifndef REMAT_RUNTIME_IO_H
#define REMAT_RUNTIME_IO_H

#include <stdio.h>

#include "mlir-c/IR.h"
#include "buffer.h"

/* The value distributions of random inputs (remat-run --values; docs/design.md,
 * "Runtime"). Integer scalars (seeds and offsets) are full-width and i1 is 0/1 in each.
 *   UNIT     floats uniform in [-1, 1), integer tensors in [-8, 8)
 *   WIDE     floats of every finite magnitude of their type: sign, exponent field
 *            (subnormals included) and mantissa uniform; integers over their whole range
 *   SPECIAL  half the elements from a list per type (signed zeros, infinities, NaN, the
 *            smallest subnormal, the largest subnormal, the smallest normal, the largest
 *            finite, values near exp's overflow and underflow, tiny values for log and
 *            rsqrt, values next to 1, integer-valued floats; integer MIN, MAX, 0, +-1),
 *            the other half as WIDE */
typedef enum rtr_values { RTR_VALUES_UNIT, RTR_VALUES_WIDE, RTR_VALUES_SPECIAL } rtr_values;
/* The float of type E (f32, f16, bf16, f64) with these fields: sign, exponent field
 * (0: subnormal; all ones: inf, or NaN for a nonzero mantissa) and the mantissa's low
 * bits (the rest ignored), as a double (exact). */
double rtr_float_from_fields(rtr_elem e, int sign, int64_t expo, uint64_t mant);
/* "unit", "wide", "special"; false for another name. */
bool rtr_values_parse(const char *name, rtr_values *out);

/* Random inputs for FUNC's arguments from SEED, drawn from VALUES; an integer argument
 * with rt.range [LO, HI) is drawn from that range in every distribution (SPECIAL: half
 * of its elements LO or HI - 1). The k-th argument's values depend only on (seed,
 * values, k) and its range. Returns NULL for an argument type the runtime
 * does not support or one that cannot be allocated, after an MLIR diagnostic at the
 * argument (it is located in the IR); nothing is added to *err then. */
rtr_buffer **rtr_inputs_random(MlirOperation func, uint64_t seed, rtr_values values, int *count,
                               char **err);

/* Reads the text format from PATH and checks it against FUNC's argument types. Returns
 * NULL with a message added to *err (remat_error_add) on any problem: a located line
 * "PATH:LINE:COL: error: ..." at the offending token, or, for a file that cannot be
 * opened, a plain message. */
rtr_buffer **rtr_inputs_read(MlirOperation func, const char *path, int *count, char **err);
/* The same from an open stream F (read to its end, not closed); PATH names it in errors. */
rtr_buffer **rtr_inputs_read_stream(MlirOperation func, FILE *f, const char *path, int *count,
                                    char **err);

/* Writes one value in the text format (type, then the elements), ending in a newline. */
void rtr_buffer_write_text(FILE *out, const rtr_buffer *b);
/* "tensor<2x2xf32> sum=... min=... max=... hash=0x..." (no newline). */
void rtr_buffer_write_summary(FILE *out, const rtr_buffer *b);

/* Parses a type string ("tensor<2x3xf32>", "i64"); 0 on success, -1 otherwise. */
int rtr_buffer_parse_type(const char *s, rtr_elem *elem, bool *is_scalar, int *rank, int64_t *dims);

#endif
