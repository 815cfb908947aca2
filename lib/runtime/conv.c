/* conv.c: rt.conv, rt.conv_grad_input and rt.conv_grad_weight on the host: the reference
 * semantics and the compiled runtime's kernel at once, as rtr_matmul is for rt.matmul
 * (docs/design.md, "Convolution"). conv_impl.h holds the arithmetic, once per
 * accumulation type. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"

/* The geometry with 3 spatial dims (missing ones of size 1) and the planes flattened. */
typedef struct conv3 {
  int64_t batch, c, o, groups;
  int64_t in[3], k[3], out[3], stride[3], pad[3], dil[3];
  int64_t in_n, kn, en; /* elements of an input plane, a kernel, an output plane */
} conv3;

/* map[q * en + p]: the input position (flattened) that output position p reads at
 * kernel position q, or -1 in the padding; one table serves every channel and batch. */
static void conv_sources(const conv3 *g, int64_t *map) {
  int64_t at = 0;
  for (int64_t q0 = 0; q0 < g->k[0]; q0++)
    for (int64_t q1 = 0; q1 < g->k[1]; q1++)
      for (int64_t q2 = 0; q2 < g->k[2]; q2++)
        for (int64_t p0 = 0; p0 < g->out[0]; p0++) {
          int64_t i0 = p0 * g->stride[0] - g->pad[0] + q0 * g->dil[0];
          for (int64_t p1 = 0; p1 < g->out[1]; p1++) {
            int64_t i1 = p1 * g->stride[1] - g->pad[1] + q1 * g->dil[1];
            for (int64_t p2 = 0; p2 < g->out[2]; p2++) {
              int64_t i2 = p2 * g->stride[2] - g->pad[2] + q2 * g->dil[2];
              bool in = i0 >= 0 && i0 < g->in[0] && i1 >= 0 && i1 < g->in[1] && i2 >= 0 &&
                        i2 < g->in[2];
              map[at++] = in ? (i0 * g->in[1] + i1) * g->in[2] + i2 : -1;
            }
          }
        }
}

/* The temporaries (laid-out operands, packed panels) of this thread's last calls, kept
 * for the next: a ResNet step calls the conv ops dozens of times on few sizes, and
 * fresh pages cost more than the arithmetic of a small convolution (bench/RESULTS.md,
 * "Convolution"). At most SCRATCH_KEEP blocks of at most SCRATCH_MAX bytes are kept. */
#define SCRATCH_KEEP 16
#define SCRATCH_MAX ((size_t)1 << 28)
static _Thread_local struct {
  void *p;
  size_t cap;
} scratch[SCRATCH_KEEP];

/* Each block starts with its capacity, HEAD bytes before what the caller sees (a
 * multiple of the vectors' alignment). */
#define HEAD 64

/* A block of n elements of size bytes (zeroed when ZERO), or NULL when memory runs out
 * (the sizes come from a verified op: their product fits). */
static void *scratch_get(int64_t n, size_t size, bool zero) {
  size_t need = (size_t)(n > 0 ? n : 1) * size;
  int best = -1;
  for (int k = 0; k < SCRATCH_KEEP; k++)
    if (scratch[k].p && scratch[k].cap >= need && (best < 0 || scratch[k].cap < scratch[best].cap))
      best = k;
  char *p;
  if (best >= 0) {
    p = scratch[best].p, scratch[best].p = NULL;
  } else {
    if (!(p = malloc(need + HEAD)))
      return NULL;
    memcpy(p, &need, sizeof need);
    p += HEAD;
  }
  if (zero)
    memset(p, 0, need);
  return p;
}

/* Gives a block of scratch_get back (NULL is fine): kept in an empty slot, or in place
 * of the smallest kept block when that is smaller, or freed. */
static void scratch_put(void *p) {
  if (!p)
    return;
  size_t cap;
  memcpy(&cap, (char *)p - HEAD, sizeof cap);
  int slot = -1;
  for (int k = 0; k < SCRATCH_KEEP && cap <= SCRATCH_MAX; k++) {
    if (!scratch[k].p) {
      slot = k;
      break;
    }
    if (scratch[k].cap < cap && (slot < 0 || scratch[k].cap < scratch[slot].cap))
      slot = k;
  }
  if (slot < 0) {
    free((char *)p - HEAD);
    return;
  }
  if (scratch[slot].p)
    free((char *)scratch[slot].p - HEAD);
  scratch[slot].p = p, scratch[slot].cap = cap;
}

#define CONV_MR 4 /* micro_body_* names its 4 rows */
#define CONV_KC 256

#define T float
#define V rtr_conv_v8f
#define VN 8
#define SFX f32
#define GET rtr_buffer_get_f32
#define SET rtr_buffer_set_f32
#define NATIVE RTR_F32
#define BCAST(s) ((V){s, s, s, s, s, s, s, s})
typedef float rtr_conv_v8f __attribute__((vector_size(32)));
#include "conv_impl.h"

#define T double
#define V rtr_conv_v4d
#define VN 4
#define SFX f64
#define GET rtr_buffer_get_f
#define SET rtr_buffer_set_f
#define NATIVE RTR_F64
#define BCAST(s) ((V){s, s, s, s})
typedef double rtr_conv_v4d __attribute__((vector_size(32)));
#include "conv_impl.h"

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
