/* buffer.h: dense row-major buffers for the CPU runtime and the reference interpreter.
 *
 * A buffer holds one value of an rt program: a tensor (shape, element type) or a builtin
 * scalar (rank 0, is_scalar set). Elements are stored in their own type: f16/bf16 as
 * uint16_t bit patterns, i1 as one byte holding 0 or 1.
 *
 * Ownership: rt_buffer_new/clone return a buffer owned by the caller, released with
 * rt_buffer_free (NULL is fine). Nothing else allocates or frees. Allocation failure
 * aborts (it is not a user error). */
#ifndef REMAT_RUNTIME_BUFFER_H
#define REMAT_RUNTIME_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#define RT_MAX_RANK 16

typedef enum rt_elem {
  RT_F32, RT_F16, RT_BF16, RT_F64, RT_I1, RT_I8, RT_I32, RT_I64,
  RT_ELEM_COUNT
} rt_elem;

typedef struct rt_buffer {
  rt_elem elem;
  bool is_scalar; /* a builtin scalar (f32, i64, ...) rather than a tensor */
  int rank;
  int64_t dims[RT_MAX_RANK];
  int64_t numel;
  void *data; /* numel * rt_elem_size(elem) bytes */
} rt_buffer;

/* Size of one element in bytes (i1: 1). */
size_t rt_elem_size(rt_elem e);
/* "f32", "bf16", "i1", ... */
const char *rt_elem_name(rt_elem e);
bool rt_elem_is_float(rt_elem e);
/* The element type of an MLIR element type; false for anything else (index maps to i64). */
bool rt_elem_from_type(MlirType elem, rt_elem *out);

/* A zero-filled buffer. */
rt_buffer *rt_buffer_new(rt_elem elem, bool is_scalar, int rank, const int64_t *dims);
/* The buffer described by an MLIR type (static tensor or scalar); NULL for another type. */
rt_buffer *rt_buffer_for_type(MlirType type);
rt_buffer *rt_buffer_clone(const rt_buffer *b);
void rt_buffer_free(rt_buffer *b);

/* Same element type, scalar-ness and shape. */
bool rt_buffer_same_type(const rt_buffer *a, const rt_buffer *b);
/* "tensor<2x3xf32>" or "f32" into buf (always NUL-terminated); returns buf. */
char *rt_buffer_type_str(const rt_buffer *b, char *buf, size_t cap);

/* Element access through the widest type of each kind: floats as double (f16/bf16/f32
 * exactly), integers as int64 (i1 as 0/1). Setting rounds to nearest even (floats) or
 * wraps (integers; i1 keeps the low bit). Reading an integer as double and the converse
 * convert as rt.convert does. */
double rt_buffer_get_f(const rt_buffer *b, int64_t i);
int64_t rt_buffer_get_i(const rt_buffer *b, int64_t i);
void rt_buffer_set_f(rt_buffer *b, int64_t i, double v);
void rt_buffer_set_i(rt_buffer *b, int64_t i, int64_t v);

/* The f32 value of element i of an f32/f16/bf16 buffer, and the store that rounds. */
float rt_buffer_get_f32(const rt_buffer *b, int64_t i);
void rt_buffer_set_f32(rt_buffer *b, int64_t i, float v);

/* Float to integer as rt.convert defines it: truncate toward zero, saturate at the
 * range of TO, NaN gives 0 (LLVM's fptosi.sat); to i1: v != 0. */
int64_t rt_float_to_int(double v, rt_elem to);

/* FNV-1a over the element bytes: equal values of one type hash equally. */
uint64_t rt_buffer_hash(const rt_buffer *b);

#endif
