/* Tests of lib/analysis/union_knapsack: the exact solution against brute force on random
 * instances (up to 16 items, so every subset is tried), the heuristic's feasibility and
 * worst ratio on them, a hand-made instance where the additive model errs, and the
 * fallback beyond the width limit. Prints one line per group; non-zero exit on failure. */
#include "union_knapsack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_test.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int below(int n) { return (int)(next() % (uint64_t)n); }

#define MAXN 64
#define MAXG 256

typedef struct inst {
  int n, m;
  uint64_t w[MAXN], v[MAXN], gv[MAXG];
  int gstart[MAXG + 1], gitem[MAXG * MAXN];
  uk_problem p;
} inst;

static void finish(inst *x, uint64_t cap) {
  x->p = (uk_problem){x->n, x->w, x->v, x->m, x->gv, x->gstart, x->gitem, cap};
}

/* n items, m groups of 2..maxg distinct items; weights from a few sizes (as tensors'
 * bytes are), so ties and equal weights occur. */
static void random_inst(inst *x, int n, int m, int maxg) {
  static const uint64_t sizes[] = {1, 2, 4, 8, 3, 16};
  x->n = n;
  x->m = m;
  for (int i = 0; i < n; i++) {
    x->w[i] = sizes[below(6)] * (1 + (uint64_t)below(3));
    x->v[i] = (uint64_t)below(40);
  }
  int k = 0;
  for (int g = 0; g < m; g++) {
    x->gstart[g] = k;
    int size = 2 + below(maxg - 1), start = below(n);
    /* mostly nearby items (chains are local), sometimes any */
    for (int j = 0; j < size; j++) {
      int it = below(3) ? (start + j * (1 + below(2))) % n : below(n), dup = 0;
      for (int a = x->gstart[g]; a < k; a++)
        dup |= x->gitem[a] == it;
      if (!dup)
        x->gitem[k++] = it;
    }
    if (k - x->gstart[g] < 2) { /* make it two */
      int it = (x->gitem[x->gstart[g]] + 1) % n;
      x->gitem[k++] = it;
    }
    x->gv[g] = (uint64_t)below(60);
  }
  x->gstart[m] = k;
}

static uint64_t brute(const inst *x, uint64_t cap) {
  uint64_t best = 0;
  bool take[MAXN];
  for (uint32_t s = 0; s < (1u << x->n); s++) {
    for (int i = 0; i < x->n; i++)
      take[i] = s >> i & 1;
    uint64_t w, v = uk_value(&x->p, take, &w);
    if (w <= cap && v > best)
      best = v;
  }
  return best;
}

/* Up to 2n groups: some parts exceed UK_WIDTH_MAX open groups (the heuristic answers
 * those); every proven choice must equal brute force, every choice must fit. */
static void test_random(void) {
  int agree = 0, proven = 0, count = 2000, heur_n = 0;
  double worst = 1, sum = 0;
  for (int t = 0; t < count; t++) {
    inst x;
    int n = 1 + below(16);
    random_inst(&x, n, below(2 * n + 1), 2 + below(4));
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
      total += x.w[i];
    uint64_t cap = (uint64_t)below((int)total + 2);
    finish(&x, cap);
    bool take[MAXN], every[MAXN];
    uk_result r;
    uk_solve(&x.p, false, take, &r);
    uint64_t w, v = uk_value(&x.p, take, &w), opt = brute(&x, cap);
    CHECK(w <= cap, "instance %d: exact choice weighs %llu > %llu", t, (unsigned long long)w,
          (unsigned long long)cap);
    CHECK(v == r.value, "instance %d: reported value %llu, real %llu", t,
          (unsigned long long)r.value, (unsigned long long)v);
    CHECK(v <= opt, "instance %d: %llu beats the optimum %llu", t, (unsigned long long)v,
          (unsigned long long)opt);
    if (r.exact) {
      proven++;
      agree += v == opt;
      CHECK(v == opt, "instance %d (n=%d m=%d cap=%llu): %llu, optimum %llu", t, n, x.m,
            (unsigned long long)cap, (unsigned long long)v, (unsigned long long)opt);
    }
    uk_solve(&x.p, true, take, &r);
    v = uk_value(&x.p, take, &w);
    CHECK(!r.exact && w <= cap, "instance %d: heuristic choice weighs %llu > %llu", t,
          (unsigned long long)w, (unsigned long long)cap);
    CHECK(v <= opt, "instance %d: heuristic %llu beats the optimum %llu", t, (unsigned long long)v,
          (unsigned long long)opt);
    /* the ratio of recompute costs, (all - gained) heuristic / optimum */
    for (int i = 0; i < n; i++)
      every[i] = true;
    uint64_t full = uk_value(&x.p, every, NULL);
    if (full > opt) {
      double ratio = (double)(full - v) / (double)(full - opt);
      worst = ratio > worst ? ratio : worst;
      sum += ratio;
      heur_n++;
    }
  }
  printf("random: %d instances, every choice fits; %d proven optimal, %d of them equal to "
         "brute force\n",
         count, proven, agree);
  printf("random: heuristic recompute cost / optimum: mean %.3f worst %.3f\n",
         heur_n ? sum / heur_n : 1.0, worst);
}

/* The additive model's error: b and c share s; saving b alone does not avoid s. */
static void test_shared(void) {
  inst x = {0};
  x.n = 3; /* a, b, c: 4096 bytes each */
  x.w[0] = x.w[1] = x.w[2] = 4096;
  x.v[0] = 16384;          /* a's chain: neg + exp */
  x.v[1] = x.v[2] = 12288; /* b, c: one mul each */
  x.m = 1;
  x.gv[0] = 8192; /* s = exp(x), needed by b and c */
  x.gstart[0] = 0, x.gstart[1] = 2;
  x.gitem[0] = 1, x.gitem[1] = 2;
  finish(&x, 4096);
  bool take[MAXN];
  uk_result r;
  uk_solve(&x.p, false, take, &r);
  CHECK(take[0] && !take[1] && !take[2] && r.value == 16384 && r.exact,
        "one slot: saves a (%d %d %d), value %llu", take[0], take[1], take[2],
        (unsigned long long)r.value);
  finish(&x, 8192);
  uk_solve(&x.p, false, take, &r);
  CHECK(!take[0] && take[1] && take[2] && r.value == 32768,
        "two slots: saves b and c (%d %d %d), value %llu", take[0], take[1], take[2],
        (unsigned long long)r.value);
  printf("shared: ok\n");
}

/* A part with more open groups than UK_WIDTH_MAX: the heuristic frontier, still a
 * feasible choice, reported as not exact. */
static void test_wide(void) {
  static inst x;
  x.n = 2 * (UK_WIDTH_MAX + 4);
  int half = x.n / 2;
  for (int i = 0; i < x.n; i++) {
    x.w[i] = 1;
    x.v[i] = 1;
  }
  x.m = half + 1; /* group g = {g, g + half}: all open in the middle of the walk */
  for (int g = 0; g < half; g++) {
    x.gstart[g] = 2 * g;
    x.gitem[2 * g] = g;
    x.gitem[2 * g + 1] = g + half;
    x.gv[g] = 5;
  }
  x.gstart[half] = 2 * half; /* and one of no value linking them into one part */
  for (int i = 0; i < half; i++)
    x.gitem[2 * half + i] = i;
  x.gv[half] = 0;
  x.gstart[half + 1] = 3 * half;
  finish(&x, 10);
  bool take[MAXN];
  uk_result r;
  uk_solve(&x.p, false, take, &r);
  uint64_t w, v = uk_value(&x.p, take, &w);
  CHECK(!r.exact && r.beyond == 1 && w <= 10, "wide: exact=%d beyond=%d weight %llu", r.exact,
        r.beyond, (unsigned long long)w);
  CHECK(v == 35, "wide: value %llu (five pairs: 5 x 7)", (unsigned long long)v);
  printf("wide: more than %d groups open, heuristic, value %llu\n", UK_WIDTH_MAX,
         (unsigned long long)v);
}

/* Many independent items of distinct weights: the merge's labels stay within bounds and
 * the answer is the 0/1 knapsack optimum (checked by a dense DP here). */
static void test_knapsack(void) {
  static inst x;
  x.n = 60;
  x.m = 0;
  for (int i = 0; i < x.n; i++) {
    x.w[i] = 1 + next() % 1000;
    x.v[i] = next() % 1000;
  }
  x.gstart[0] = 0;
  uint64_t cap = 12000;
  finish(&x, cap);
  static uint64_t best[12001];
  memset(best, 0, sizeof best);
  for (int i = 0; i < x.n; i++)
    for (uint64_t c = cap; c >= x.w[i]; c--)
      if (best[c - x.w[i]] + x.v[i] > best[c])
        best[c] = best[c - x.w[i]] + x.v[i];
  bool take[MAXN];
  uk_result r;
  uk_solve(&x.p, false, take, &r);
  uint64_t w, v = uk_value(&x.p, take, &w);
  CHECK(r.exact && v == best[cap] && w <= cap, "knapsack: %llu, optimum %llu",
        (unsigned long long)v, (unsigned long long)best[cap]);
  printf("knapsack: 60 items, optimum %s\n", v == best[cap] ? "found" : "missed");
}

int main(void) {
  test_random();
  test_shared();
  test_wide();
  test_knapsack();
  printf(failures ? "union_knapsack: %d failures\n" : "union_knapsack: ok\n", failures);
  return failures != 0;
}
