/* buffer.c: dense buffers (see buffer.h). */
#include "buffer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "rt.h"
#include "mlir-c/BuiltinTypes.h"

static const struct {
  const char *name;
  size_t size;
  bool is_float;
} elems[RTR_ELEM_COUNT] = {
    [RTR_F32] = {"f32", 4, true},  [RTR_F16] = {"f16", 2, true},  [RTR_BF16] = {"bf16", 2, true},
    [RTR_F64] = {"f64", 8, true},  [RTR_I1] = {"i1", 1, false},   [RTR_I8] = {"i8", 1, false},
    [RTR_I32] = {"i32", 4, false}, [RTR_I64] = {"i64", 8, false},
};

size_t rtr_elem_size(rtr_elem e) { return elems[e].size; }
const char *rtr_elem_name(rtr_elem e) { return elems[e].name; }
bool rtr_elem_is_float(rtr_elem e) { return elems[e].is_float; }

bool rtr_elem_from_type(MlirType t, rtr_elem *out) {
  if (mlirTypeIsAF32(t))
    *out = RTR_F32;
  else if (mlirTypeIsAF16(t))
    *out = RTR_F16;
  else if (mlirTypeIsABF16(t))
    *out = RTR_BF16;
  else if (mlirTypeIsAF64(t))
    *out = RTR_F64;
  else if (mlirTypeIsAIndex(t))
    *out = RTR_I64;
  else if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: *out = RTR_I1; break;
    case 8: *out = RTR_I8; break;
    case 32: *out = RTR_I32; break;
    case 64: *out = RTR_I64; break;
    default: return false;
    }
  } else
    return false;
  return true;
}

int64_t rtr_buffer_bytes(rtr_elem elem, int rank, const int64_t *dims) {
  int64_t bytes = (int64_t)rtr_elem_size(elem);
  for (int k = 0; k < rank; k++)
    if (dims[k] < 0 || __builtin_mul_overflow(bytes, dims[k], &bytes))
      return -1;
  return bytes > RTR_MAX_BUFFER_BYTES ? -1 : bytes;
}

rtr_buffer *rtr_buffer_new(rtr_elem elem, bool is_scalar, int rank, const int64_t *dims) {
  if (rank < 0 || rank > RT_MAX_RANK)
    remat_fatal("rank %d out of range", rank);
  int64_t bytes = rtr_buffer_bytes(elem, rank, dims);
  if (bytes < 0)
    return NULL;
  rtr_buffer *b = xcalloc(1, sizeof *b);
  b->elem = elem;
  b->is_scalar = is_scalar;
  b->rank = rank;
  b->numel = 1;
  for (int k = 0; k < rank; k++) {
    b->dims[k] = dims[k];
    b->numel *= dims[k];
  }
  /* Sized by the program, not by remat: running out of memory is the user's error
   * (reported by the caller), so this is calloc, not xcalloc. */
  b->data = calloc(bytes ? (size_t)bytes : 1, 1);
  if (!b->data) {
    free(b);
    return NULL;
  }
  return b;
}

bool rtr_buffer_describe(MlirType type, rtr_buffer *d) {
  *d = (rtr_buffer){.numel = 1};
  if (mlirTypeIsARankedTensor(type) && mlirShapedTypeHasStaticShape(type)) {
    intptr_t rank = mlirShapedTypeGetRank(type);
    if (rank > RT_MAX_RANK || !rtr_elem_from_type(mlirShapedTypeGetElementType(type), &d->elem))
      return false;
    d->rank = (int)rank;
    for (intptr_t k = 0; k < rank; k++) {
      d->dims[k] = mlirShapedTypeGetDimSize(type, k);
      if (__builtin_mul_overflow(d->numel, d->dims[k], &d->numel))
        return false;
    }
    return true;
  }
  d->is_scalar = true;
  return rtr_elem_from_type(type, &d->elem);
}

rtr_buffer *rtr_buffer_for_type(MlirType type) {
  rtr_buffer d;
  if (!rtr_buffer_describe(type, &d))
    return NULL;
  return rtr_buffer_new(d.elem, d.is_scalar, d.rank, d.dims);
}

const char *rtr_buffer_type_problem(MlirType type, char *buf, size_t cap) {
  char tb[128];
  rtr_buffer d;
  if (!rtr_buffer_describe(type, &d)) {
    snprintf(buf, cap, "'%s' is a type the runtime does not support",
             rt_type_str(type, tb, sizeof tb));
    return buf;
  }
  if (rtr_buffer_bytes(d.elem, d.rank, d.dims) < 0) {
    /* numel fits in int64 (describe checked it); the bytes may not */
    snprintf(buf, cap,
             "'%s' holds %lld elements of %zu bytes, more than remat-run's limit "
             "of %lld bytes per tensor",
             rt_type_str(type, tb, sizeof tb), (long long)d.numel, rtr_elem_size(d.elem),
             (long long)RTR_MAX_BUFFER_BYTES);
    return buf;
  }
  snprintf(buf, cap, "out of memory for '%s' (%lld bytes)", rt_type_str(type, tb, sizeof tb),
           (long long)rtr_buffer_bytes(d.elem, d.rank, d.dims));
  return buf;
}

rtr_buffer *rtr_buffer_clone(const rtr_buffer *b) {
  rtr_buffer *c = rtr_buffer_new(b->elem, b->is_scalar, b->rank, b->dims);
  if (!c)
    return NULL;
  size_t es = rtr_elem_size(b->elem);
  if (b->view_map)
    for (int64_t i = 0; i < b->numel; i++)
      memcpy((char *)c->data + (size_t)i * es,
             (const char *)b->view_src->data + (size_t)b->view_map[i] * es, es);
  else
    memcpy(c->data, b->data, (size_t)b->numel * es);
  return c;
}

rtr_buffer *rtr_buffer_view(const rtr_buffer *src, int rank, const int64_t *dims, int64_t *map) {
  rtr_buffer *v = xcalloc(1, sizeof *v);
  v->elem = src->elem;
  v->rank = rank;
  v->numel = 1;
  for (int k = 0; k < rank; k++)
    v->numel *= v->dims[k] = dims[k];
  v->view_src = src;
  v->view_map = map;
  return v;
}

rtr_buffer *rtr_buffer_alias(const rtr_buffer *b, int rank, const int64_t *dims) {
  rtr_buffer *a = xcalloc(1, sizeof *a);
  *a = *b;
  a->is_scalar = false;
  a->rank = rank;
  int64_t n = 1;
  for (int k = 0; k < rank; k++)
    n *= a->dims[k] = dims[k];
  if (n != b->numel || rank > RT_MAX_RANK)
    remat_fatal("alias of %lld elements as %lld", (long long)b->numel, (long long)n);
  a->borrowed = true;
  return a;
}

void rtr_buffer_free(rtr_buffer *b) {
  if (!b)
    return;
  if (!b->borrowed)
    free(b->data);
  free(b->view_map);
  free(b);
}

bool rtr_buffer_same_type(const rtr_buffer *a, const rtr_buffer *b) {
  return a->elem == b->elem && a->is_scalar == b->is_scalar && a->rank == b->rank &&
         !memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank);
}

char *rtr_buffer_type_str(const rtr_buffer *b, char *buf, size_t cap) {
  if (b->is_scalar) {
    snprintf(buf, cap, "%s", rtr_elem_name(b->elem));
    return buf;
  }
  size_t n = (size_t)snprintf(buf, cap, "tensor<");
  for (int k = 0; k < b->rank && n < cap; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%lldx", (long long)b->dims[k]);
  if (n < cap)
    snprintf(buf + n, cap - n, "%s>", rtr_elem_name(b->elem));
  return buf;
}

int64_t rtr_float_to_int(double v, rtr_elem to) {
  if (to == RTR_I1)
    return v != 0.0;
  double lo, hi;
  switch (to) {
  case RTR_I8: lo = -128.0, hi = 127.0; break;
  case RTR_I32: lo = -2147483648.0, hi = 2147483647.0; break;
  default: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
  }
  if (isnan(v))
    return 0;
  if (v <= lo)
    return (int64_t)lo;
  if (v >= hi) /* 2^63 - 1 rounds up to 2^63 as a double: the test catches it */
    return to == RTR_I64 ? INT64_MAX : (int64_t)hi;
  return (int64_t)v;
}

float rtr_buffer_get_f32(const rtr_buffer *b, int64_t i) {
  if (b->view_map)
    i = b->view_map[i], b = b->view_src;
  switch (b->elem) {
  case RTR_F32: return ((const float *)b->data)[i];
  case RTR_F16: return f16_bits_to_f32(((const uint16_t *)b->data)[i]);
  case RTR_BF16: return bf16_bits_to_f32(((const uint16_t *)b->data)[i]);
  case RTR_F64: return (float)((const double *)b->data)[i];
  default: return (float)rtr_buffer_get_i(b, i); /* one rounding, as sitofp */
  }
}

void rtr_buffer_set_f32(rtr_buffer *b, int64_t i, float v) {
  switch (b->elem) {
  case RTR_F32: ((float *)b->data)[i] = v; break;
  case RTR_F16: ((uint16_t *)b->data)[i] = f32_to_f16_bits(v); break;
  case RTR_BF16: ((uint16_t *)b->data)[i] = f32_to_bf16_bits(v); break;
  default: rtr_buffer_set_f(b, i, v); break;
  }
}

double rtr_buffer_get_f(const rtr_buffer *b, int64_t i) {
  if (b->view_map)
    i = b->view_map[i], b = b->view_src;
  switch (b->elem) {
  case RTR_F32:
  case RTR_F16:
  case RTR_BF16: return rtr_buffer_get_f32(b, i);
  case RTR_F64: return ((const double *)b->data)[i];
  default: return (double)rtr_buffer_get_i(b, i);
  }
}

int64_t rtr_buffer_get_i(const rtr_buffer *b, int64_t i) {
  if (b->view_map)
    i = b->view_map[i], b = b->view_src;
  switch (b->elem) {
  case RTR_I1: return ((const uint8_t *)b->data)[i] & 1;
  case RTR_I8: return ((const int8_t *)b->data)[i];
  case RTR_I32: return ((const int32_t *)b->data)[i];
  case RTR_I64: return ((const int64_t *)b->data)[i];
  default: return rtr_float_to_int(rtr_buffer_get_f(b, i), RTR_I64);
  }
}

void rtr_buffer_set_f(rtr_buffer *b, int64_t i, double v) {
  switch (b->elem) {
  case RTR_F32:
  case RTR_F16:
  case RTR_BF16:
    /* double -> f32 -> f16 may round twice; a value exact in f32 (every value computed
     * in the f32 domain) rounds once. */
    rtr_buffer_set_f32(b, i, (float)v);
    break;
  case RTR_F64: ((double *)b->data)[i] = v; break;
  default: rtr_buffer_set_i(b, i, rtr_float_to_int(v, b->elem)); break;
  }
}

void rtr_buffer_set_i(rtr_buffer *b, int64_t i, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (b->elem) {
  case RTR_I1: ((uint8_t *)b->data)[i] = (uint8_t)(u & 1); break;
  case RTR_I8: ((uint8_t *)b->data)[i] = (uint8_t)u; break;
  case RTR_I32: ((uint32_t *)b->data)[i] = (uint32_t)u; break;
  case RTR_I64: ((int64_t *)b->data)[i] = v; break;
  default: rtr_buffer_set_f(b, i, (double)v); break;
  }
}

uint64_t rtr_buffer_hash(const rtr_buffer *b) {
  uint64_t h = 0xcbf29ce484222325ull;
  const unsigned char *p = b->data;
  size_t n = (size_t)b->numel * rtr_elem_size(b->elem);
  for (size_t k = 0; k < n; k++)
    h = (h ^ p[k]) * 0x100000001b3ull;
  return h;
}
