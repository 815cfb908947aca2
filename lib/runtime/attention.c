/* attention.c: rt.attention and rt.attention_grad on the host: the reference semantics
 * and the compiled runtime's kernel at once, as conv.c is for the convolutions
 * (docs/design.md, "Attention"). attention_impl.h holds the arithmetic, once per type. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "philox.h"

/* One call's operands as arrays of the computing type, with the sizes and attributes. */
typedef struct attn_args {
  rt_attention a;
  int64_t bq, bk; /* the tiles, no larger than the sequences */
  const void *q, *k, *v, *o, *lse, *dout, *mask;
  const uint8_t *mask_i1; /* a keep/drop mask's bytes */
  double scale, keep;     /* rounded to the op's element type */
  uint64_t seed, offset;
} attn_args;

/* The element of the mask that (n, i, j) reads: [sq, sk] broadcasts over n. */
static inline int64_t attn_mask_at(const attn_args *g, int64_t n, int64_t i, int64_t j) {
  return ((g->a.mask_batched ? n * g->a.sq : 0) + i) * g->a.sk + j;
}

/* Whether the predicate removes (i, j): past the causal diagonal, or an i1 mask's
 * false ("keep") or true ("drop"). */
static inline bool attn_masked(const attn_args *g, int64_t n, int64_t i, int64_t j) {
  if (g->a.causal && j - i > g->a.diagonal) /* j > i + diagonal, without overflow */
    return true;
  if (g->a.mask == RT_ATTENTION_MASK_KEEP)
    return !g->mask_i1[attn_mask_at(g, n, i, j)];
  if (g->a.mask == RT_ATTENTION_MASK_DROP)
    return g->mask_i1[attn_mask_at(g, n, i, j)];
  return false;
}

#define T float
#define EXP expf
#define LOG logf
#define SFX f32
#include "attention_impl.h"

#define T double
#define EXP exp
#define LOG log
#define SFX f64
#include "attention_impl.h"

int rtr_attention(rtr_buffer *const *res, const rtr_buffer *const *args, const rt_attention *a,
                  bool narrow, uint64_t *workspace) {
  bool wide = res[0]->elem == RTR_F64;
  size_t es = wide ? sizeof(double) : sizeof(float);
  attn_args g = {.a = *a,
                 .bq = a->sq < RT_ATTENTION_BQ ? a->sq : RT_ATTENTION_BQ,
                 .bk = a->sk < RT_ATTENTION_BK ? a->sk : RT_ATTENTION_BK,
                 .q = args[0]->data,
                 .k = args[1]->data,
                 .v = args[2]->data,
                 .scale = narrow ? (double)(float)a->scale : a->scale,
                 .keep = narrow ? (double)(float)a->keep : a->keep};
  if (a->grad)
    g.o = args[3]->data, g.lse = args[4]->data, g.dout = args[5]->data;
  if (a->mask_at >= 0) {
    g.mask = args[a->mask_at]->data;
    g.mask_i1 = args[a->mask_at]->data;
  }
  if (a->seed_at >= 0) {
    g.seed = (uint64_t)rtr_buffer_get_i(args[a->seed_at], 0);
    g.offset = (uint64_t)rtr_buffer_get_i(args[a->seed_at + 1], 0);
  }
  *workspace = rt_attention_workspace(a, (int)es);
  void *ws = malloc(*workspace ? *workspace : 1);
  if (!ws)
    return -1;
  if (a->grad && wide)
    backward_f64(&g, ws, res[0]->data, res[1]->data, res[2]->data);
  else if (a->grad)
    backward_f32(&g, ws, res[0]->data, res[1]->data, res[2]->data);
  else if (wide)
    forward_f64(&g, ws, res[0]->data, res[1]->data);
  else
    forward_f32(&g, ws, res[0]->data, res[1]->data);
  free(ws);
  return 0;
}
