/* conv.c: rt.conv, rt.conv_grad_input and rt.conv_grad_weight on the host: the reference
 * semantics and the compiled runtime's kernel at once, as rtr_matmul is for rt.matmul
 * (docs/design.md, "Convolution"). conv_impl.h holds the arithmetic, once per
 * accumulation type. */
#include <stdlib.h>
#include <string.h>

#include "ops.h"

/* The geometry with 3 spatial dims (missing ones of size 1) and the planes flattened. */
typedef struct conv3 {
  int64_t batch, c, o, groups;
  int64_t in[3], k[3], out[3], stride[3], pad[3], dil[3];
  int64_t in_n, kn, en; /* elements of an input plane, a kernel, an output plane */
} conv3;

/* The input position (flattened) that output position p reads at kernel position q, or
 * -1 in the padding. */
static int64_t conv_source(const conv3 *g, int64_t p, int64_t q) {
  int64_t at = 0;
  for (int d = 2; d >= 0; d--) {
    int64_t pd = p % g->out[d], qd = q % g->k[d];
    p /= g->out[d], q /= g->k[d];
    int64_t i = pd * g->stride[d] - g->pad[d] + qd * g->dil[d];
    if (i < 0 || i >= g->in[d])
      return -1;
    at += i * (d == 2 ? 1 : d == 1 ? g->in[2] : g->in[1] * g->in[2]);
  }
  return at;
}

/* The output position whose kernel position q reads input position i, or -1. */
static int64_t conv_target(const conv3 *g, int64_t i, int64_t q) {
  int64_t at = 0;
  for (int d = 2; d >= 0; d--) {
    int64_t id = i % g->in[d], qd = q % g->k[d];
    i /= g->in[d], q /= g->k[d];
    int64_t t = id + g->pad[d] - qd * g->dil[d];
    if (t < 0 || t % g->stride[d] || t / g->stride[d] >= g->out[d])
      return -1;
    at += t / g->stride[d] * (d == 2 ? 1 : d == 1 ? g->out[2] : g->out[1] * g->out[2]);
  }
  return at;
}

#define CONV_MR 4
#define CONV_KC 256

#define T float
#define V rtr_conv_v8f
#define VN 8
#define SFX f32
#define GET rtr_buffer_get_f32
#define SET rtr_buffer_set_f32
typedef float rtr_conv_v8f __attribute__((vector_size(32)));
#include "conv_impl.h"
#undef T
#undef V
#undef VN
#undef SFX
#undef GET
#undef SET

#define T double
#define V rtr_conv_v4d
#define VN 4
#define SFX f64
#define GET rtr_buffer_get_f
#define SET rtr_buffer_set_f
typedef double rtr_conv_v4d __attribute__((vector_size(32)));
#include "conv_impl.h"
#undef T
#undef V
#undef VN
#undef SFX
#undef GET
#undef SET

int rtr_conv(rtr_buffer *out, const rtr_buffer *a, const rtr_buffer *b, const rt_conv_geom *geom,
             rtr_conv_kind kind) {
  conv3 g = {geom->batch, geom->in_ch, geom->out_ch, geom->groups, .in_n = 1, .kn = 1, .en = 1};
  for (int d = 0; d < 3; d++) {
    int s = d - (3 - geom->n); /* the geometry's dim, or < 0 for a missing one */
    g.in[d] = s < 0 ? 1 : geom->in[s];
    g.k[d] = s < 0 ? 1 : geom->k[s];
    g.out[d] = s < 0 ? 1 : geom->out[s];
    g.stride[d] = s < 0 ? 1 : geom->stride[s];
    g.pad[d] = s < 0 ? 0 : geom->pad[s];
    g.dil[d] = s < 0 ? 1 : geom->dil[s];
    g.in_n *= g.in[d], g.kn *= g.k[d], g.en *= g.out[d];
  }
  return out->elem == RTR_F64 ? conv_f64(out, a, b, &g, kind) : conv_f32(out, a, b, &g, kind);
}
