/* support.h: the support code every file of remat shares, written once (in the manner of
 * QBE's all.h): internal errors, checked allocation, dynamic strings, a pointer -> index
 * map, the shape of a tensor.
 *
 * Two tiers of errors (docs/design.md, "Errors"): bad input is a located diagnostic or a
 * message returned to the caller; a bug in remat is remat_fatal, which names the file and
 * line and aborts. Running out of memory is treated as the second kind: every allocation
 * below either succeeds or aborts, so callers never test for NULL. */
#ifndef REMAT_SUPPORT_H
#define REMAT_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- internal errors ---------------------------------------------------------------- */

/* Prints "remat: internal error at FILE:LINE: <printf message>" on stderr and aborts. */
#define remat_fatal(...) remat_fatal_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void remat_fatal_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- checked allocation ------------------------------------------------------------- */

/* Never NULL: a zero size allocates one byte; out of memory and n * size overflowing
 * size_t are fatal (naming the caller's file and line). Free with free(). */
#define xmalloc(size) remat_xmalloc_at(__FILE__, __LINE__, (size))
#define xcalloc(n, size) remat_xcalloc_at(__FILE__, __LINE__, (n), (size))
/* Resizes P (NULL: allocates) to N elements of SIZE bytes (new bytes not cleared). */
#define xrealloc(p, n, size) remat_xrealloc_at(__FILE__, __LINE__, (p), (n), (size))
#define xstrdup(s) remat_xstrndup_at(__FILE__, __LINE__, (s), (size_t)-1)
/* A copy of the first n bytes of s (fewer if s ends first), NUL-terminated. */
#define xstrndup(s, n) remat_xstrndup_at(__FILE__, __LINE__, (s), (n))
/* A formatted string of any length (never truncated). */
#define xasprintf(...) remat_xasprintf_at(__FILE__, __LINE__, __VA_ARGS__)

/* Makes room in the array P of CAP elements (both lvalues) for N elements: while N
 * exceeds CAP, CAP doubles (from FIRST when 0); then P is resized. The one growth rule of
 * remat's arrays, amortised O(1) per element; new elements are not cleared. */
#define XRESERVE(p, n, cap, first)                     \
  do {                                                 \
    if ((size_t)(n) > (size_t)(cap)) {                 \
      while ((size_t)(n) > (size_t)(cap))              \
        (cap) = (cap) ? 2 * (cap) : (first);           \
      (p) = xrealloc((p), (size_t)(cap), sizeof *(p)); \
    }                                                  \
  } while (0)
/* Room for the element at index N (an array filled one at a time). */
#define XGROW(p, n, cap, first) XRESERVE(p, (size_t)(n) + 1, cap, first)

void *remat_xmalloc_at(const char *file, int line, size_t size);
void *remat_xcalloc_at(const char *file, int line, size_t n, size_t size);
void *remat_xrealloc_at(const char *file, int line, void *p, size_t n, size_t size);
char *remat_xstrndup_at(const char *file, int line, const char *s, size_t n);
char *remat_xasprintf_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- time ------------------------------------------------------------------------- */

/* Milliseconds of the monotonic clock (for the reports' and benchmarks' times). */
double remat_now_ms(void);

/* ---- numbers and files ---------------------------------------------------------------- */

/* A + B, or UINT64_MAX when the sum overflows: totals of bytes and costs that saturate. */
static inline uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* All of F from where it stands to its end, NUL-terminated (the caller frees), its length
 * in *LEN (LEN may be NULL). NULL with errno set on a read error, or when memory runs out:
 * a file's size is the user's, so that is an error to report, not an internal one. */
char *remat_read_all(FILE *f, size_t *len);

/* ---- numbers in option text ------------------------------------------------------- */

/* Whether S is a decimal number as pass options write them: an optional '-', digits,
 * and with FRACTION a '.' with digits and an exponent. No '+', no space, no 0x (base-0
 * strtoll read peak-budget=0x10 as 16 and 010 as 8), no inf or nan. */
bool remat_is_decimal(const char *s, bool fraction);

/* ---- errors returned to a caller ------------------------------------------------------ */

/* Appends a line (printf) to *error, a message for the caller, which prints it (a tool:
 * "tool: error: <line>" per line) and frees it; *error starts NULL. The one way library
 * code returns an error that is not a diagnostic on IR (docs/design.md, "Errors"): no
 * fixed (err, cap) buffers below include/remat-c, and no printing. */
void remat_error_add(char **error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* remat_error_add for a function that takes its own printf arguments (AP is consumed). */
void remat_error_vadd(char **error, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* The boundary of the public C API (include/remat-c), whose functions and pass callbacks
 * keep their (error, cap) buffers, a stable ABI: copies MESSAGE (remat_error_add lines;
 * NULL: none, BUF untouched) into BUF[CAP], cut to fit, and frees it. */
void remat_error_copy(char *message, char *buf, size_t cap);

/* ---- pointer -> index map ------------------------------------------------------------ */

/* Open addressing on the pointer (an MlirValue's or MlirOperation's .ptr): keys are
 * non-NULL, values are non-negative indices. Grows as needed; `expected` only sizes the
 * first table. */
typedef struct ptr_map {
  const void **keys;
  int *vals;
  size_t cap, count; /* cap: a power of two, more than twice count */
} ptr_map;

void ptr_map_init(ptr_map *m, size_t expected);
/* Inserts KEY or replaces its value. */
void ptr_map_put(ptr_map *m, const void *key, int val);
/* The value of KEY, or -1 when absent. */
int ptr_map_get(const ptr_map *m, const void *key);
void ptr_map_free(ptr_map *m);
/* The map's hash of a pointer, for tables keyed by several pointers. */
size_t remat_ptr_hash(const void *p);
/* Asks the CPU to fetch KEY's slot ahead of a put or get: a loop over 10^6 keys, each
 * slot a cache miss, runs several times faster when it prefetches a few keys ahead. */
static inline void ptr_map_prefetch(const ptr_map *m, const void *key) {
  size_t i = remat_ptr_hash(key) & (m->cap - 1);
  __builtin_prefetch(&m->keys[i]);
  __builtin_prefetch(&m->vals[i]);
}

/* ---- shapes ------------------------------------------------------------------------- */

/* Ranks above this are rejected by the verifier, so every pass, the codegen and the
 * runtime can keep shapes in fixed arrays. */
#define RT_MAX_RANK 16

/* The dims of a static tensor type (rank 0: a scalar or a 0-d tensor). rt_shape_of
 * (dialect-c/rt.h) reads one from an MLIR type. */
typedef struct remat_shape {
  int rank;
  int64_t d[RT_MAX_RANK];
} remat_shape;

bool remat_shape_eq(const remat_shape *a, const remat_shape *b);
/* Product of the dims (the verifier has checked it fits in int64). */
int64_t remat_shape_numel(const remat_shape *s);
/* "2x3x4", or "scalar" for rank 0, into buf (always NUL-terminated); returns buf. */
char *remat_shape_str(const remat_shape *s, char *buf, size_t cap);

#endif
