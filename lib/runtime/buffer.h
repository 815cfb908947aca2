/* buffer.h: dense row-major buffers for the CPU runtime and the reference interpreter.
 *
 * A buffer holds one value of an rt program: a tensor (shape, element type) or a builtin
 * scalar (rank 0, is_scalar set). Elements are stored in their own type: f16/bf16 as
 * uint16_t bit patterns, i1 as one byte holding 0 or 1.
 *
 * Ownership: rtr_buffer_new/clone return a buffer owned by the caller, released with
 * rtr_buffer_free (NULL is fine). Nothing else allocates or frees.
 *
 * Sizes: the program, not remat, decides how big a buffer is, so a buffer above
 * RTR_MAX_BUFFER_BYTES, or one the system cannot allocate, is the user's error: the
 * constructors return NULL and the caller reports it at the op (docs/design.md, "Hostile
 * input"). Only the buffer struct itself is allocated with xcalloc. */
#ifndef REMAT_RUNTIME_BUFFER_H
#define REMAT_RUNTIME_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support.h"

typedef enum rtr_elem {
  RTR_F32,
  RTR_F16,
  RTR_BF16,
  RTR_F64,
  RTR_I1,
  RTR_I8,
  RTR_I32,
  RTR_I64,
  RTR_ELEM_COUNT
} rtr_elem;

typedef struct rtr_buffer {
  rtr_elem elem;
  bool is_scalar; /* a builtin scalar (f32, i64, ...) rather than a tensor */
  int rank;
  int64_t dims[RT_MAX_RANK];
  int64_t numel;
  void *data;    /* numel * rtr_elem_size(elem) bytes; NULL for a view */
  bool borrowed; /* data belongs to another buffer (an alias: rt.reshape) */
  /* A view (a host rt.transpose, rt.slice, rt.broadcast, or a reshape of one, in the
   * compiled runtime): no data of its own; element i is element view_map[i] of view_src,
   * a buffer with data. The element getters read through it; whatever needs data makes a
   * dense copy first (rtr_buffer_clone). */
  const struct rtr_buffer *view_src;
  int64_t *view_map; /* owned */
} rtr_buffer;

/* Size of one element in bytes (i1: 1). */
size_t rtr_elem_size(rtr_elem e);
/* "f32", "bf16", "i1", ... */
const char *rtr_elem_name(rtr_elem e);
bool rtr_elem_is_float(rtr_elem e);
/* The element type of an MLIR element type; false for anything else (index maps to i64). */
bool rtr_elem_from_type(MlirType elem, rtr_elem *out);

/* The most bytes one buffer may hold: 4 GiB. remat-run checks every tensor of a module
 * against it before it allocates anything (rtr_check_sizes). */
#define RTR_MAX_BUFFER_BYTES ((int64_t)1 << 32)

/* Bytes of the data of a buffer of this shape, or -1 above RTR_MAX_BUFFER_BYTES. */
int64_t rtr_buffer_bytes(rtr_elem elem, int rank, const int64_t *dims);
/* A zero-filled buffer; NULL above RTR_MAX_BUFFER_BYTES or when memory runs out. */
rtr_buffer *rtr_buffer_new(rtr_elem elem, bool is_scalar, int rank, const int64_t *dims);
/* The buffer described by an MLIR type (static tensor or scalar); NULL for another type,
 * and as rtr_buffer_new. */
rtr_buffer *rtr_buffer_for_type(MlirType type);
/* Fills *d with TYPE's element type, shape and numel, without data (d->data = NULL), to
 * compare types before allocating; false for a type the runtime does not support. */
bool rtr_buffer_describe(MlirType type, rtr_buffer *d);
/* Why rtr_buffer_for_type(TYPE) returned NULL, as a message in buf (returned): a type the
 * runtime does not support, a tensor above the limit, or no memory. */
const char *rtr_buffer_type_problem(MlirType type, char *buf, size_t cap);
/* A copy with data of its own (a view is made dense); NULL when memory runs out. */
rtr_buffer *rtr_buffer_clone(const rtr_buffer *b);
/* The same elements under another shape of the same element count, without a copy: the
 * result borrows b's data (b must outlive it; freeing the alias leaves the data). */
rtr_buffer *rtr_buffer_alias(const rtr_buffer *b, int rank, const int64_t *dims);
/* A view of src (which has data) with the given shape: element i is src's element
 * map[i]. Takes map (numel entries, malloc'ed). src must outlive the view. */
rtr_buffer *rtr_buffer_view(const rtr_buffer *src, int rank, const int64_t *dims, int64_t *map);
void rtr_buffer_free(rtr_buffer *b);

/* Same element type, scalar-ness and shape. */
bool rtr_buffer_same_type(const rtr_buffer *a, const rtr_buffer *b);
/* "tensor<2x3xf32>" or "f32" into buf (always NUL-terminated); returns buf. */
char *rtr_buffer_type_str(const rtr_buffer *b, char *buf, size_t cap);

/* Element access through the widest type of each kind: floats as double (f16/bf16/f32
 * exactly), integers as int64 (i1 as 0/1). Setting rounds to nearest even (floats) or
 * wraps (integers; i1 keeps the low bit). Reading an integer as double and the converse
 * convert as rt.convert does. */
double rtr_buffer_get_f(const rtr_buffer *b, int64_t i);
int64_t rtr_buffer_get_i(const rtr_buffer *b, int64_t i);
void rtr_buffer_set_f(rtr_buffer *b, int64_t i, double v);
void rtr_buffer_set_i(rtr_buffer *b, int64_t i, int64_t v);

/* The f32 value of element i of an f32/f16/bf16 buffer, and the store that rounds. */
float rtr_buffer_get_f32(const rtr_buffer *b, int64_t i);
void rtr_buffer_set_f32(rtr_buffer *b, int64_t i, float v);

/* Float to integer as rt.convert defines it: truncate toward zero, saturate at the
 * range of TO, NaN gives 0 (LLVM's fptosi.sat); to i1: v != 0. */
int64_t rtr_float_to_int(double v, rtr_elem to);

/* FNV-1a over the element bytes: equal values of one type hash equally. */
uint64_t rtr_buffer_hash(const rtr_buffer *b);

#endif
