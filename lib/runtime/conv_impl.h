/* conv_impl.h: rt.conv and its gradients in one accumulation type T (float or double),
 * included twice by conv.c with T, V (a vector of T of 32 bytes), VN (its lanes), BCAST
 * (a V of one T), SFX (a name suffix), GET/SET (the buffer's element accessors in T)
 * and NATIVE (the element type that is T) defined; it undefines them at its end. No
 * include guard: it is a template.
 *
 * Each op is, per group, one product C = A B over dense operands that conv.c lays out
 * (im2col), with every element of C accumulated sequentially over k from +0, each
 * product rounded before it is added (docs/design.md, "Convolution"). The product is
 * blocked (MR rows by NR columns of C in registers, KC steps of k at a time, C stored
 * and reloaded between them), which changes no element's order and so no bit. */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NR (2 * VN)

/* C[MR x NR] (row stride NR) += Ap[kc x MR] (k-major) Bp[kc x NR] (k-major). The MR x 2
 * accumulators are named, so that they stay in registers. */
#define ROW(i)                                                    \
  do {                                                            \
    V a = BCAST(Ap[k * CONV_MR + (i)]);                           \
    V p0 = a * b0, p1 = a * b1; /* rounded, then added: no fma */ \
    c##i##0 = c##i##0 + p0;                                       \
    c##i##1 = c##i##1 + p1;                                       \
  } while (0)
static inline __attribute__((always_inline)) void CAT(micro_body_, SFX)(int64_t kc, const T *Ap,
                                                                        const T *Bp, T *C) {
  V c00, c01, c10, c11, c20, c21, c30, c31;
  memcpy(&c00, C, sizeof c00), memcpy(&c01, C + VN, sizeof c01);
  memcpy(&c10, C + NR, sizeof c10), memcpy(&c11, C + NR + VN, sizeof c11);
  memcpy(&c20, C + 2 * NR, sizeof c20), memcpy(&c21, C + 2 * NR + VN, sizeof c21);
  memcpy(&c30, C + 3 * NR, sizeof c30), memcpy(&c31, C + 3 * NR + VN, sizeof c31);
  for (int64_t k = 0; k < kc; k++) {
    V b0, b1;
    memcpy(&b0, Bp + k * NR, sizeof b0);
    memcpy(&b1, Bp + k * NR + VN, sizeof b1);
    ROW(0);
    ROW(1);
    ROW(2);
    ROW(3);
  }
  memcpy(C, &c00, sizeof c00), memcpy(C + VN, &c01, sizeof c01);
  memcpy(C + NR, &c10, sizeof c10), memcpy(C + NR + VN, &c11, sizeof c11);
  memcpy(C + 2 * NR, &c20, sizeof c20), memcpy(C + 2 * NR + VN, &c21, sizeof c21);
  memcpy(C + 3 * NR, &c30, sizeof c30), memcpy(C + 3 * NR + VN, &c31, sizeof c31);
}
#undef ROW

static void CAT(micro_, SFX)(int64_t kc, const T *Ap, const T *Bp, T *C) {
  CAT(micro_body_, SFX)(kc, Ap, Bp, C);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void CAT(micro_avx2_, SFX)(int64_t kc, const T *Ap,
                                                                  const T *Bp, T *C) {
  CAT(micro_body_, SFX)(kc, Ap, Bp, C);
}
#endif

/* out[M x N] (dense, row-major) = A B with A[i][k] at A[i * ai + k * ak] and B[k][j] at
 * B[k * bk + j * bj]. Returns -1 when the packed panels cannot be allocated. */
static int CAT(gemm_, SFX)(int64_t M, int64_t N, int64_t K, const T *A, int64_t ai, int64_t ak,
                           const T *B, int64_t bk, int64_t bj, T *out) {
  /* Registers run along the longer side: C^T = B^T A^T has the same sums. */
  bool swap = N < NR && M > N;
  int64_t oi = N, oj = 1;
  if (swap) {
    const T *t = A;
    int64_t m = M;
    A = B, B = t, M = N, N = m;
    int64_t s = ai;
    ai = bj, bj = s, s = ak, ak = bk, bk = s;
    oi = 1, oj = M;
  }
  int64_t Mp = (M + CONV_MR - 1) / CONV_MR * CONV_MR, Np = (N + NR - 1) / NR * NR;
  int64_t kcap = K < CONV_KC ? (K ? K : 1) : CONV_KC;
  T *Cp = scratch_get(Mp * Np, sizeof *Cp, true);
  T *Ap = scratch_get(kcap * CONV_MR, sizeof *Ap, false);
  T *Bp = scratch_get(kcap * Np, sizeof *Bp, false);
  if (!Cp || !Ap || !Bp) {
    scratch_put(Cp), scratch_put(Ap), scratch_put(Bp);
    return -1;
  }
  void (*micro)(int64_t, const T *, const T *, T *) = CAT(micro_, SFX);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2"))
    micro = CAT(micro_avx2_, SFX);
#endif
  for (int64_t k0 = 0; k0 < K; k0 += CONV_KC) {
    int64_t kc = K - k0 < CONV_KC ? K - k0 : CONV_KC;
    /* B's rows k0..k0+kc in panels of NR columns, k-major, zero past N */
    for (int64_t j0 = 0; j0 < Np; j0 += NR)
      for (int64_t k = 0; k < kc; k++)
        if (bj == 1 && j0 + NR <= N) /* a whole row of the panel, contiguous */
          memcpy(Bp + j0 * kc + k * NR, B + (k0 + k) * bk + j0, NR * sizeof *Bp);
        else
          for (int64_t j = 0; j < NR; j++)
            Bp[j0 * kc + k * NR + j] = j0 + j < N ? B[(k0 + k) * bk + (j0 + j) * bj] : 0;
    for (int64_t i0 = 0; i0 < Mp; i0 += CONV_MR) {
      for (int64_t k = 0; k < kc; k++)
        for (int i = 0; i < CONV_MR; i++)
          Ap[k * CONV_MR + i] = i0 + i < M ? A[(i0 + i) * ai + (k0 + k) * ak] : 0;
      for (int64_t j0 = 0; j0 < Np; j0 += NR) {
        T tile[CONV_MR * NR];
        for (int i = 0; i < CONV_MR; i++)
          memcpy(tile + i * NR, Cp + (i0 + i) * Np + j0, NR * sizeof *tile);
        micro(kc, Ap, Bp + j0 * kc, tile);
        for (int i = 0; i < CONV_MR; i++)
          memcpy(Cp + (i0 + i) * Np + j0, tile + i * NR, NR * sizeof *tile);
      }
    }
  }
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++)
      out[i * oi + j * oj] = Cp[i * Np + j];
  scratch_put(Cp), scratch_put(Ap), scratch_put(Bp);
  return 0;
}

/* The elements of a buffer as a dense array of T: its own data when it holds T densely,
 * else a copy in *own (NULL when memory runs out; *own is NULL when none was made). */
static const T *CAT(dense_, SFX)(const rtr_buffer *b, T **own) {
  *own = NULL;
  if (b->data && b->elem == NATIVE)
    return b->data;
  if ((*own = scratch_get(b->numel, sizeof **own, false)))
    for (int64_t i = 0; i < b->numel; i++)
      (*own)[i] = (T)GET(b, i);
  return *own;
}

/* The windows of group gr of x (its c-th channel read at kernel position q by output
 * position p of image b) laid out at col[(c K + q) rs + (b E + p) js]: 0 in the padding. */
static void CAT(im2col_, SFX)(T *col, int64_t rs, int64_t js, const T *x, const conv3 *g,
                              int64_t gr, const int64_t *map) {
  int64_t Cg = g->c / g->groups, K = g->kn, E = g->en;
  for (int64_t c = 0; c < Cg; c++)
    for (int64_t q = 0; q < K; q++)
      for (int64_t bb = 0; bb < g->batch; bb++) {
        const T *plane = x + (bb * g->c + gr * Cg + c) * g->in_n;
        for (int64_t p = 0; p < E; p++) {
          int64_t at = map[q * E + p];
          col[(c * K + q) * rs + (bb * E + p) * js] = at < 0 ? 0 : plane[at];
        }
      }
}

/* dy's rows of group gr as [o][(b, p)] (Og x B E), from dy [B][O][E]. */
static void CAT(group_rows_, SFX)(T *side, const T *dy, const conv3 *g, int64_t gr) {
  int64_t Og = g->o / g->groups;
  for (int64_t o = 0; o < Og; o++)
    for (int64_t bb = 0; bb < g->batch; bb++)
      memcpy(side + (o * g->batch + bb) * g->en, dy + (bb * g->o + gr * Og + o) * g->en,
             (size_t)g->en * sizeof *side);
}

static int CAT(conv_, SFX)(rtr_buffer *out, const rtr_buffer *a, const rtr_buffer *b,
                           const conv3 *g, rtr_conv_kind kind) {
  int64_t Cg = g->c / g->groups, Og = g->o / g->groups, K = g->kn, E = g->en, I = g->in_n;
  int64_t Bt = g->batch;
  T *own_a, *own_b, *own_res = NULL;
  const T *da = CAT(dense_, SFX)(a, &own_a), *db = CAT(dense_, SFX)(b, &own_b);
  /* the result in place when OUT holds T densely; zeroed: the input gradient adds */
  T *res = out->data && out->elem == NATIVE
               ? out->data
               : (own_res = scratch_get(out->numel, sizeof *res, false));
  if (res)
    memset(res, 0, (size_t)out->numel * sizeof *res);
  /* per group: the laid-out operand (im2col), the other operand when it is not read in
   * place, and the product */
  int64_t ncol = kind == RTR_CONV_GRAD_INPUT ? 0 : Cg * K * Bt * E;
  int64_t nside = kind == RTR_CONV ? 0 : Og * Bt * E;
  int64_t nprod = kind == RTR_CONV              ? Og * Bt * E
                  : kind == RTR_CONV_GRAD_INPUT ? Cg * K * Bt * E
                                                : 0;
  T *col = scratch_get(ncol, sizeof *col, false);
  T *side = scratch_get(nside, sizeof *side, false);
  T *prod = scratch_get(nprod, sizeof *prod, false);
  /* the input position that output position p reads at kernel position q (-1 in the
   * padding): one table for every channel and batch */
  int64_t nmap = K * E;
  int64_t *map = scratch_get(nmap, sizeof *map, false);
  if (map)
    conv_sources(g, map);
  int rc = da && db && res && col && side && prod && map ? 0 : -1;
  for (int64_t gr = 0; gr < g->groups && rc == 0; gr++) {
    switch (kind) {
    case RTR_CONV:
      /* y[o][(b,p)] = sum over r = (c,q): w[o][r] x~[b][c][at(p,q)] */
      CAT(im2col_, SFX)(col, Bt * E, 1, da, g, gr, map);
      rc = CAT(gemm_, SFX)(Og, Bt * E, Cg * K, db + gr * Og * Cg * K, Cg * K, 1, col, Bt * E, 1,
                           prod);
      for (int64_t o = 0; o < Og && rc == 0; o++)
        for (int64_t bb = 0; bb < Bt; bb++)
          memcpy(res + (bb * g->o + gr * Og + o) * E, prod + (o * Bt + bb) * E,
                 (size_t)E * sizeof *res);
      break;
    case RTR_CONV_GRAD_INPUT:
      /* t[(c,q)][(b,p)] = sum over o: w[o][c][q] dy[b][o][p]; then dx[b][c][at(p,q)] +=
       * t in q order (each q reaches an input position from one p at most) */
      CAT(group_rows_, SFX)(side, da, g, gr);
      rc = CAT(gemm_, SFX)(Cg * K, Bt * E, Og, db + gr * Og * Cg * K, 1, Cg * K, side, Bt * E, 1,
                           prod);
      for (int64_t bb = 0; bb < Bt && rc == 0; bb++)
        for (int64_t c = 0; c < Cg; c++) {
          T *dx = res + (bb * g->c + gr * Cg + c) * I;
          for (int64_t q = 0; q < K; q++) {
            const T *t = prod + (c * K + q) * Bt * E + bb * E;
            for (int64_t p = 0; p < E; p++)
              if (map[q * E + p] >= 0)
                dx[map[q * E + p]] = dx[map[q * E + p]] + t[p];
          }
        }
      break;
    case RTR_CONV_GRAD_WEIGHT:
      /* dw[o][r = (c,q)] = sum over (b,p): dy[b][o][p] x~[b][c][at(p,q)] */
      CAT(group_rows_, SFX)(side, db, g, gr);
      CAT(im2col_, SFX)(col, 1, Cg * K, da, g, gr, map);
      rc = CAT(gemm_, SFX)(Og, Cg * K, Bt * E, side, Bt * E, 1, col, Cg * K, 1,
                           res + gr * Og * Cg * K);
      break;
    }
  }
  if (rc == 0 && own_res)
    for (int64_t i = 0; i < out->numel; i++)
      SET(out, i, res[i]);
  scratch_put(own_a), scratch_put(own_b), scratch_put(own_res), scratch_put(col), scratch_put(side),
      scratch_put(prod), scratch_put(map);
  return rc;
}

#undef NR
#undef CAT
#undef CAT_
#undef T
#undef V
#undef VN
#undef SFX
#undef GET
#undef SET
#undef NATIVE
#undef BCAST
