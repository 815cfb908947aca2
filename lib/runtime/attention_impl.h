/* attention_impl.h: rt.attention and rt.attention_grad in one type T (float or double),
 * included twice by attention.c with T, EXP, LOG (libm's exp and log in T) and SFX (a
 * name suffix) defined; it undefines them at its end. No include guard: it is a template.
 *
 * The order of every sum is docs/design.md's ("Attention"): each dot product is
 * sequential over the dimension from +0, each product rounded before it is added (no
 * fma); the online softmax visits the keys in tiles of RT_ATTENTION_BK, ascending; the
 * gradients sum dq over the keys ascending and dk, dv over the queries ascending. The
 * query tiles (RT_ATTENTION_BQ) change no result: the rows are independent. */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* The dot product of x and y (n elements), sequential from +0. */
static inline T CAT(dot_, SFX)(const T *x, const T *y, int64_t n) {
  T acc = 0;
  for (int64_t i = 0; i < n; i++) {
    T prod = x[i] * y[i];
    acc = acc + prod;
  }
  return acc;
}

/* The score of (i, j) of batch n, after the scale and an additive mask; *masked when the
 * predicate (causal, an i1 mask) removes the position (then the score is -inf and the
 * position has no term in any sum). */
static inline T CAT(score_, SFX)(const attn_args *g, const T *q, const T *k, const T *mask,
                                 int64_t n, int64_t i, int64_t j, T scale, bool *masked) {
  *masked = attn_masked(g, n, i, j);
  if (*masked)
    return -(T)INFINITY;
  T s = CAT(dot_, SFX)(q + (n * g->a.sq + i) * g->a.d, k + (n * g->a.sk + j) * g->a.d, g->a.d);
  s = s * scale;
  if (g->a.mask == RT_ATTENTION_MASK_ADD)
    s = s + mask[attn_mask_at(g, n, i, j)];
  return s;
}

/* The dropout factor of (i, j): 1 kept, 0 dropped (the unfused graph's converted
 * rt.lt), 1 without dropout. */
static inline T CAT(keep_, SFX)(const attn_args *g, int64_t n, int64_t i, int64_t j, T keep) {
  if (!g->a.dropout)
    return 1;
  uint64_t e = (uint64_t)((n * g->a.sq + i) * g->a.sk + j);
  T u = (T)philox_uniform_f32(philox_element_bits(g->seed, g->offset, e), 0.0, 1.0);
  return u < keep ? 1 : 0;
}

/* o, lse = attention(q, k, v): per query tile, per key tile (ascending): the scores S,
 * the new running max, the old sums rescaled by exp(m_old - m_new), then each key's
 * exp(s - m_new) added to l and its (dropped) product with v to the accumulator. */
static void CAT(forward_, SFX)(const attn_args *g, T *ws, T *o, T *lse) {
  const rt_attention *a = &g->a;
  const T *q = g->q, *k = g->k, *v = g->v, *mask = g->mask;
  T scale = (T)g->scale, keep = (T)g->keep;
  int64_t bq = g->bq, bk = g->bk;
  T *S = ws, *m = S + bq * bk, *l = m + bq, *acc = l + bq;
  for (int64_t n = 0; n < a->n; n++)
    for (int64_t i0 = 0; i0 < a->sq; i0 += bq) {
      int64_t ni = a->sq - i0 < bq ? a->sq - i0 : bq;
      for (int64_t r = 0; r < ni; r++) {
        m[r] = -(T)INFINITY, l[r] = 0;
        for (int64_t c = 0; c < a->dv; c++)
          acc[r * a->dv + c] = 0;
      }
      for (int64_t j0 = 0; j0 < a->sk; j0 += bk) {
        int64_t nj = a->sk - j0 < bk ? a->sk - j0 : bk;
        for (int64_t r = 0; r < ni; r++) {
          T *s = S + r * bk, mt = m[r];
          for (int64_t c = 0; c < nj; c++) {
            bool masked;
            s[c] = CAT(score_, SFX)(g, q, k, mask, n, i0 + r, j0 + c, scale, &masked);
            if (!masked && (s[c] > mt || s[c] != s[c]) && mt == mt)
              mt = s[c]; /* the max, NaN once a score is NaN (rt.amax's) */
          }
          if (mt == -(T)INFINITY)
            continue; /* every score so far is -inf or masked: nothing to add yet */
          T alpha = EXP(m[r] - mt), *ac = acc + r * a->dv;
          l[r] = l[r] * alpha;
          for (int64_t c = 0; c < a->dv; c++)
            ac[c] = ac[c] * alpha;
          for (int64_t c = 0; c < nj; c++) {
            if (attn_masked(g, n, i0 + r, j0 + c))
              continue;
            T p = EXP(s[c] - mt);
            l[r] = l[r] + p;
            T pd = p * CAT(keep_, SFX)(g, n, i0 + r, j0 + c, keep);
            const T *vj = v + (n * a->sk + j0 + c) * a->dv;
            for (int64_t e = 0; e < a->dv; e++) {
              T prod = pd * vj[e];
              ac[e] = ac[e] + prod;
            }
          }
          m[r] = mt;
        }
      }
      for (int64_t r = 0; r < ni; r++) {
        T *orow = o + (n * a->sq + i0 + r) * a->dv;
        for (int64_t c = 0; c < a->dv; c++) {
          T x = acc[r * a->dv + c] / l[r];
          orow[c] = a->dropout ? x / keep : x;
        }
        lse[n * a->sq + i0 + r] = m[r] + LOG(l[r]);
      }
    }
}

/* dq, dk, dv = attention_grad(q, k, v, o, lse, do): per key tile (ascending), per query
 * tile (ascending): D = rowsum(do * o) of the tile's rows, then p = exp(s - lse) and
 * ds = p (dp - D) scale of each position, then dq (each row over the tile's keys
 * ascending), dk and dv (each key over the tile's rows ascending). For one element of dq
 * that is every key ascending, for one of dk or dv every query ascending. */
static void CAT(backward_, SFX)(const attn_args *g, T *ws, T *dq, T *dk, T *dv) {
  const rt_attention *a = &g->a;
  const T *q = g->q, *k = g->k, *v = g->v, *mask = g->mask, *o = g->o, *lse = g->lse,
          *dout = g->dout;
  T scale = (T)g->scale, keep = (T)g->keep;
  int64_t bq = g->bq, bk = g->bk;
  T *D = ws, *P = D + bq, *dS = P + bq * bk;
  memset(dq, 0, sizeof *dq * (size_t)(a->n * a->sq * a->d));
  memset(dk, 0, sizeof *dk * (size_t)(a->n * a->sk * a->d));
  memset(dv, 0, sizeof *dv * (size_t)(a->n * a->sk * a->dv));
  for (int64_t n = 0; n < a->n; n++)
    for (int64_t j0 = 0; j0 < a->sk; j0 += bk) {
      int64_t nj = a->sk - j0 < bk ? a->sk - j0 : bk;
      for (int64_t i0 = 0; i0 < a->sq; i0 += bq) {
        int64_t ni = a->sq - i0 < bq ? a->sq - i0 : bq;
        for (int64_t r = 0; r < ni; r++) {
          int64_t at = (n * a->sq + i0 + r) * a->dv;
          D[r] = CAT(dot_, SFX)(dout + at, o + at, a->dv);
        }
        for (int64_t r = 0; r < ni; r++)
          for (int64_t c = 0; c < nj; c++) {
            int64_t i = i0 + r, j = j0 + c;
            bool masked;
            T s = CAT(score_, SFX)(g, q, k, mask, n, i, j, scale, &masked);
            if (masked)
              continue;
            T p = EXP(s - lse[n * a->sq + i]);
            T z = CAT(keep_, SFX)(g, n, i, j, keep);
            T dp =
                CAT(dot_, SFX)(dout + (n * a->sq + i) * a->dv, v + (n * a->sk + j) * a->dv, a->dv);
            if (a->dropout) /* the unfused graph's (dp / keep) z and (p z) / keep */
              dp = (dp / keep) * z, P[r * bk + c] = (p * z) / keep;
            else
              P[r * bk + c] = p;
            T ds = p * (dp - D[r]);
            dS[r * bk + c] = ds * scale;
          }
        for (int64_t r = 0; r < ni; r++) {
          T *dqi = dq + (n * a->sq + i0 + r) * a->d;
          for (int64_t c = 0; c < nj; c++) {
            if (attn_masked(g, n, i0 + r, j0 + c))
              continue;
            const T *kj = k + (n * a->sk + j0 + c) * a->d;
            for (int64_t e = 0; e < a->d; e++) {
              T prod = dS[r * bk + c] * kj[e];
              dqi[e] = dqi[e] + prod;
            }
          }
        }
        for (int64_t c = 0; c < nj; c++) {
          T *dkj = dk + (n * a->sk + j0 + c) * a->d, *dvj = dv + (n * a->sk + j0 + c) * a->dv;
          for (int64_t r = 0; r < ni; r++) {
            if (attn_masked(g, n, i0 + r, j0 + c))
              continue;
            const T *qi = q + (n * a->sq + i0 + r) * a->d;
            const T *doi = dout + (n * a->sq + i0 + r) * a->dv;
            for (int64_t e = 0; e < a->d; e++) {
              T prod = dS[r * bk + c] * qi[e];
              dkj[e] = dkj[e] + prod;
            }
            for (int64_t e = 0; e < a->dv; e++) {
              T prod = P[r * bk + c] * doi[e];
              dvj[e] = dvj[e] + prod;
            }
          }
        }
      }
    }
}

#undef CAT
#undef CAT_
#undef T
#undef EXP
#undef LOG
#undef SFX
