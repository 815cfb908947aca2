/* buffer.c: dense buffers (see buffer.h). */
#include "runtime/buffer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "mlir-c/BuiltinTypes.h"

static const struct {
  const char *name;
  size_t size;
  bool is_float;
} elems[RT_ELEM_COUNT] = {
    [RT_F32] = {"f32", 4, true}, [RT_F16] = {"f16", 2, true}, [RT_BF16] = {"bf16", 2, true},
    [RT_F64] = {"f64", 8, true}, [RT_I1] = {"i1", 1, false},  [RT_I8] = {"i8", 1, false},
    [RT_I32] = {"i32", 4, false}, [RT_I64] = {"i64", 8, false},
};

size_t rt_elem_size(rt_elem e) { return elems[e].size; }
const char *rt_elem_name(rt_elem e) { return elems[e].name; }
bool rt_elem_is_float(rt_elem e) { return elems[e].is_float; }

bool rt_elem_from_type(MlirType t, rt_elem *out) {
  if (mlirTypeIsAF32(t))
    *out = RT_F32;
  else if (mlirTypeIsAF16(t))
    *out = RT_F16;
  else if (mlirTypeIsABF16(t))
    *out = RT_BF16;
  else if (mlirTypeIsAF64(t))
    *out = RT_F64;
  else if (mlirTypeIsAIndex(t))
    *out = RT_I64;
  else if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: *out = RT_I1; break;
    case 8: *out = RT_I8; break;
    case 32: *out = RT_I32; break;
    case 64: *out = RT_I64; break;
    default: return false;
    }
  } else
    return false;
  return true;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
    abort();
  }
  return p;
}

rt_buffer *rt_buffer_new(rt_elem elem, bool is_scalar, int rank, const int64_t *dims) {
  if (rank < 0 || rank > RT_MAX_RANK) {
    fprintf(stderr, "%s:%d: rank %d out of range\n", __FILE__, __LINE__, rank);
    abort();
  }
  rt_buffer *b = xcalloc(1, sizeof *b);
  b->elem = elem;
  b->is_scalar = is_scalar;
  b->rank = rank;
  b->numel = 1;
  for (int k = 0; k < rank; k++) {
    b->dims[k] = dims[k];
    b->numel *= dims[k];
  }
  b->data = xcalloc((size_t)b->numel, rt_elem_size(elem));
  return b;
}

rt_buffer *rt_buffer_for_type(MlirType type) {
  rt_elem e;
  if (mlirTypeIsARankedTensor(type) && mlirShapedTypeHasStaticShape(type)) {
    intptr_t rank = mlirShapedTypeGetRank(type);
    int64_t dims[RT_MAX_RANK];
    if (rank > RT_MAX_RANK || !rt_elem_from_type(mlirShapedTypeGetElementType(type), &e))
      return NULL;
    for (intptr_t k = 0; k < rank; k++)
      dims[k] = mlirShapedTypeGetDimSize(type, k);
    return rt_buffer_new(e, false, (int)rank, dims);
  }
  if (!rt_elem_from_type(type, &e))
    return NULL;
  return rt_buffer_new(e, true, 0, NULL);
}

rt_buffer *rt_buffer_clone(const rt_buffer *b) {
  rt_buffer *c = rt_buffer_new(b->elem, b->is_scalar, b->rank, b->dims);
  memcpy(c->data, b->data, (size_t)b->numel * rt_elem_size(b->elem));
  return c;
}

void rt_buffer_free(rt_buffer *b) {
  if (!b)
    return;
  free(b->data);
  free(b);
}

bool rt_buffer_same_type(const rt_buffer *a, const rt_buffer *b) {
  return a->elem == b->elem && a->is_scalar == b->is_scalar && a->rank == b->rank &&
         !memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank);
}

char *rt_buffer_type_str(const rt_buffer *b, char *buf, size_t cap) {
  if (b->is_scalar) {
    snprintf(buf, cap, "%s", rt_elem_name(b->elem));
    return buf;
  }
  size_t n = (size_t)snprintf(buf, cap, "tensor<");
  for (int k = 0; k < b->rank && n < cap; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%lldx", (long long)b->dims[k]);
  if (n < cap)
    snprintf(buf + n, cap - n, "%s>", rt_elem_name(b->elem));
  return buf;
}

int64_t rt_float_to_int(double v, rt_elem to) {
  if (to == RT_I1)
    return v != 0.0;
  double lo, hi;
  switch (to) {
  case RT_I8: lo = -128.0, hi = 127.0; break;
  case RT_I32: lo = -2147483648.0, hi = 2147483647.0; break;
  default: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
  }
  if (isnan(v))
    return 0;
  if (v <= lo)
    return (int64_t)lo;
  if (v >= hi) /* 2^63 - 1 rounds up to 2^63 as a double: the test catches it */
    return to == RT_I64 ? INT64_MAX : (int64_t)hi;
  return (int64_t)v;
}

float rt_buffer_get_f32(const rt_buffer *b, int64_t i) {
  switch (b->elem) {
  case RT_F32: return ((const float *)b->data)[i];
  case RT_F16: return f16_bits_to_f32(((const uint16_t *)b->data)[i]);
  case RT_BF16: return bf16_bits_to_f32(((const uint16_t *)b->data)[i]);
  default: return (float)rt_buffer_get_f(b, i);
  }
}

void rt_buffer_set_f32(rt_buffer *b, int64_t i, float v) {
  switch (b->elem) {
  case RT_F32: ((float *)b->data)[i] = v; break;
  case RT_F16: ((uint16_t *)b->data)[i] = f32_to_f16_bits(v); break;
  case RT_BF16: ((uint16_t *)b->data)[i] = f32_to_bf16_bits(v); break;
  default: rt_buffer_set_f(b, i, v); break;
  }
}

double rt_buffer_get_f(const rt_buffer *b, int64_t i) {
  switch (b->elem) {
  case RT_F32: case RT_F16: case RT_BF16: return rt_buffer_get_f32(b, i);
  case RT_F64: return ((const double *)b->data)[i];
  default: return (double)rt_buffer_get_i(b, i);
  }
}

int64_t rt_buffer_get_i(const rt_buffer *b, int64_t i) {
  switch (b->elem) {
  case RT_I1: return ((const uint8_t *)b->data)[i] & 1;
  case RT_I8: return ((const int8_t *)b->data)[i];
  case RT_I32: return ((const int32_t *)b->data)[i];
  case RT_I64: return ((const int64_t *)b->data)[i];
  default: return rt_float_to_int(rt_buffer_get_f(b, i), RT_I64);
  }
}

void rt_buffer_set_f(rt_buffer *b, int64_t i, double v) {
  switch (b->elem) {
  case RT_F32: case RT_F16: case RT_BF16:
    /* double -> f32 -> f16 may round twice; a value exact in f32 (every value computed
     * in the f32 domain) rounds once. */
    rt_buffer_set_f32(b, i, (float)v);
    break;
  case RT_F64: ((double *)b->data)[i] = v; break;
  default: rt_buffer_set_i(b, i, rt_float_to_int(v, b->elem)); break;
  }
}

void rt_buffer_set_i(rt_buffer *b, int64_t i, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (b->elem) {
  case RT_I1: ((uint8_t *)b->data)[i] = (uint8_t)(u & 1); break;
  case RT_I8: ((uint8_t *)b->data)[i] = (uint8_t)u; break;
  case RT_I32: ((uint32_t *)b->data)[i] = (uint32_t)u; break;
  case RT_I64: ((int64_t *)b->data)[i] = v; break;
  default: rt_buffer_set_f(b, i, (double)v); break;
  }
}

uint64_t rt_buffer_hash(const rt_buffer *b) {
  uint64_t h = 0xcbf29ce484222325ull;
  const unsigned char *p = b->data;
  size_t n = (size_t)b->numel * rt_elem_size(b->elem);
  for (size_t k = 0; k < n; k++)
    h = (h ^ p[k]) * 0x100000001b3ull;
  return h;
}
