/* union_knapsack.c: the set-union knapsack (see union_knapsack.h).
 *
 * 1. Parts. Items linked through groups form parts; parts only share the capacity.
 * 2. Each part's frontier: every (weight, value) a subset of its items reaches that no
 *    other subset beats with less or equal weight. Exact by a walk over the part's items
 *    in order (part_walk): the state is, for each group open at that point of the walk
 *    (some items decided, some not), whether every decided item of it was saved. Beyond
 *    UK_WIDTH_MAX open groups or UK_PART_LABELS labels, a greedy frontier (part_greedy).
 * 3. The merge: one option per part, total weight <= cap, most value. Exact by merging
 *    the frontiers part by part (dynamic programming over sparse Pareto labels), pruned
 *    with the linear-programming bound of the parts still to merge against the value of
 *    the heuristic choice; beyond UK_MERGE_LABELS, the heuristic choice (hull_greedy).
 *
 * Proof that the walk is exact: two partial choices of the same decided items with the
 * same state gain the same value from every completion of the remaining items (a group
 * not yet open depends only on the remaining items; an open group only on the remaining
 * items and its bit; a closed group is already counted). So of two labels with the same
 * state, one with no more weight and no less value is at least as good: dropping the
 * other loses nothing. The same argument with an empty state proves the merge. */
#include "union_knapsack.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

/* ---- problem structure ---------------------------------------------------------------- */

typedef struct uk {
  const uk_problem *p;
  int *istart, *igroup; /* groups of item i: igroup[istart[i] .. istart[i+1]) */
  int *part_of;         /* item -> part */
  int nparts;
  int *pstart, *pitem; /* items of part q, ascending: pitem[pstart[q] .. pstart[q+1]) */
} uk;

static int find(int *up, int x) {
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

static void uk_build(uk *u, const uk_problem *p) {
  int n = p->n, m = p->m;
  memset(u, 0, sizeof *u);
  u->p = p;
  u->istart = xcalloc((size_t)n + 1, sizeof *u->istart);
  u->igroup = xmalloc(sizeof *u->igroup * ((size_t)(m ? p->gstart[m] : 0) + 1));
  for (int g = 0; g < m; g++)
    for (int k = p->gstart[g]; k < p->gstart[g + 1]; k++)
      u->istart[p->gitem[k] + 1]++;
  for (int i = 0; i < n; i++)
    u->istart[i + 1] += u->istart[i];
  int *fill = xmalloc(sizeof *fill * ((size_t)n + 1));
  memcpy(fill, u->istart, sizeof *fill * (size_t)n);
  for (int g = 0; g < m; g++)
    for (int k = p->gstart[g]; k < p->gstart[g + 1]; k++)
      u->igroup[fill[p->gitem[k]]++] = g;
  /* parts: union-find over the items of each group */
  int *up = xmalloc(sizeof *up * ((size_t)n + 1));
  for (int i = 0; i < n; i++)
    up[i] = i;
  for (int g = 0; g < m; g++)
    for (int k = p->gstart[g] + 1; k < p->gstart[g + 1]; k++) {
      int a = find(up, p->gitem[p->gstart[g]]), b = find(up, p->gitem[k]);
      if (a != b)
        up[a > b ? a : b] = a < b ? a : b;
    }
  u->part_of = xmalloc(sizeof *u->part_of * ((size_t)n + 1));
  int *root_part = fill; /* reused: root item -> part number */
  for (int i = 0; i < n; i++)
    root_part[i] = -1;
  for (int i = 0; i < n; i++) {
    int r = find(up, i);
    if (root_part[r] < 0)
      root_part[r] = u->nparts++;
    u->part_of[i] = root_part[r];
  }
  u->pstart = xcalloc((size_t)u->nparts + 1, sizeof *u->pstart);
  u->pitem = xmalloc(sizeof *u->pitem * ((size_t)n + 1));
  for (int i = 0; i < n; i++)
    u->pstart[u->part_of[i] + 1]++;
  for (int q = 0; q < u->nparts; q++)
    u->pstart[q + 1] += u->pstart[q];
  memcpy(fill, u->pstart, sizeof *fill * (size_t)u->nparts);
  for (int i = 0; i < n; i++) /* ascending within each part */
    u->pitem[fill[u->part_of[i]]++] = i;
  free(fill);
  free(up);
}

static void uk_free(uk *u) {
  free(u->istart), free(u->igroup), free(u->part_of), free(u->pstart), free(u->pitem);
}

uint64_t uk_value(const uk_problem *p, const bool *take, uint64_t *weight) {
  uint64_t v = 0, w = 0;
  for (int i = 0; i < p->n; i++)
    if (take[i]) {
      v = sat_add(v, p->v[i]);
      w = sat_add(w, p->w[i]);
    }
  for (int g = 0; g < p->m; g++) {
    bool all = true;
    for (int k = p->gstart[g]; k < p->gstart[g + 1] && all; k++)
      all = take[p->gitem[k]];
    if (all)
      v = sat_add(v, p->gv[g]);
  }
  if (weight)
    *weight = w;
  return v;
}

/* ---- one part's frontier ---------------------------------------------------------------- */

/* A label of the walk: a partial choice's weight and value, its state (bit s: the group in
 * slot s is open and every decided item of it was saved), and how it was reached. */
typedef struct label {
  uint64_t w, v;
  uint32_t mask;
  uint32_t parent; /* index of the label it extends, in the previous layer */
  bool took;       /* whether that step saved the item */
} label;

/* A part's options: its frontier, by increasing weight and value. Option o is rebuilt
 * from the walk (lab, layer) or, for a greedy frontier, is the first cnt[o] items of
 * order[]. */
typedef struct part {
  int k;
  const int *items;
  int nopt;
  uint64_t *ow, *ov;
  bool exact;
  label *lab;
  size_t *layer;         /* layer t: lab[layer[t] .. layer[t+1]), t = 0..k */
  uint32_t *final_label; /* option o -> its label in the last layer */
  int *walk_order;       /* the walk's order when it is not items[] (descending) */
  bool copies;           /* k items with one weight and value and no group: option j
                          * saves the first j (order = items) */
  int *order, *cnt;
} part;

/* The qsort order of (a0, a1, a2) against (b0, b1, b2), lexicographic (-1, 0, 1); a key
 * passed as (b, a) sorts that key down. */
static int lex3(uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t a2, uint64_t b2) {
  if (a0 != b0)
    return a0 < b0 ? -1 : 1;
  if (a1 != b1)
    return a1 < b1 ? -1 : 1;
  return (a2 > b2) - (a2 < b2);
}

/* The lowest slot free in USED, now taken; -1 when all UK_WIDTH_MAX are in use. */
static int take_slot(uint32_t *used) {
  uint32_t free_bits = ~*used;
  if (!free_bits || __builtin_ctz(free_bits) >= UK_WIDTH_MAX)
    return -1;
  int slot = __builtin_ctz(free_bits);
  *used |= 1u << slot;
  return slot;
}

static int by_state(const void *pa, const void *pb) {
  const label *a = pa, *b = pb;
  return lex3(a->mask, b->mask, a->w, b->w, b->v, a->v);
}

/* Keeps, per state, the labels no other label of that state dominates; returns the new
 * count. The labels are sorted by state, then weight, then value down. */
static size_t prune(label *l, size_t count) {
  qsort(l, count, sizeof *l, by_state);
  size_t kept = 0;
  for (size_t j = 0; j < count; j++) {
    if (kept > 0 && l[kept - 1].mask == l[j].mask && l[kept - 1].v >= l[j].v)
      continue; /* the kept one weighs no more and gains no less */
    l[kept++] = l[j];
  }
  return kept;
}

/* The walk's plan for one order of a part's items. A group is open from its first item in
 * the order to its last; its bit in a label says whether every decided item of it was
 * saved. Open groups with the same decided items always have the same bit, so they share
 * one (a class; a residual stream's nested chains are one class when walked from the
 * end). Step t (item order[t]) then does, on each label:
 *   copy[]   classes that split (some of their groups have the item, some not): the part
 *            with the item gets a new bit, a copy of the old one;
 *   and[]    the bits of the classes whose groups have the item: cleared unless it is
 *            saved;
 *   start    the bit of the groups the item opens: set if it is saved;
 *   gain[]   groups the item closes: their value if their bit is still set;
 *   freed    bits of classes left without open groups: cleared.
 * Slots are bits of a uint32_t; the plan fails beyond UK_WIDTH_MAX live bits. */
typedef struct plan_step {
  int copy0, and0, gain0; /* offsets into the arrays below; the next step's end them */
  int start;              /* slot, or -1 */
  uint32_t freed;
} plan_step;

typedef struct walk_plan {
  int k, width;
  const int *order;
  plan_step *step; /* k + 1 entries (the last one only ends the arrays) */
  int *copy_from, *copy_to, *and_slot, *gain_slot;
  uint64_t *gain_value;
} walk_plan;

static void plan_free(walk_plan *w) {
  free(w->step), free(w->copy_from), free(w->copy_to), free(w->and_slot);
  free(w->gain_slot), free(w->gain_value);
}

/* Plans the walk of the part's items in order[0..k); false beyond UK_WIDTH_MAX (width
 * then holds the width reached). */
static bool plan_walk(const uk *u, const int *order, int k, walk_plan *w) {
  const uk_problem *p = u->p;
  memset(w, 0, sizeof *w);
  w->k = k;
  w->order = order;
  int ng = 0; /* group incidences in the part */
  for (int t = 0; t < k; t++)
    ng += u->istart[order[t] + 1] - u->istart[order[t]];
  int *first = xmalloc(sizeof *first * ((size_t)p->m + 1));
  int *last = xmalloc(sizeof *last * ((size_t)p->m + 1));
  int *cls = xmalloc(sizeof *cls * ((size_t)p->m + 1));
  for (int t = 0; t < k; t++)
    for (int j = u->istart[order[t]]; j < u->istart[order[t] + 1]; j++)
      first[u->igroup[j]] = -1;
  for (int t = 0; t < k; t++)
    for (int j = u->istart[order[t]]; j < u->istart[order[t] + 1]; j++) {
      int g = u->igroup[j];
      if (first[g] < 0)
        first[g] = t;
      last[g] = t;
      cls[g] = -1;
    }
  /* classes: slot, open groups, and per step a count and the class it splits into */
  size_t ccap = (size_t)ng + 1;
  int *cslot = xmalloc(sizeof *cslot * ccap), *csize = xmalloc(sizeof *csize * ccap);
  int *ccount = xcalloc(ccap, sizeof *ccount), *cto = xmalloc(sizeof *cto * ccap);
  int ncls = 0;
  int *touched = xmalloc(sizeof *touched * ((size_t)ng + 1));
  w->step = xmalloc(sizeof *w->step * ((size_t)k + 1));
  w->copy_from = xmalloc(sizeof *w->copy_from * ((size_t)ng + 1));
  w->copy_to = xmalloc(sizeof *w->copy_to * ((size_t)ng + 1));
  w->and_slot = xmalloc(sizeof *w->and_slot * ((size_t)ng + 1));
  w->gain_slot = xmalloc(sizeof *w->gain_slot * ((size_t)ng + 1));
  w->gain_value = xmalloc(sizeof *w->gain_value * ((size_t)ng + 1));
  int ncopy = 0, nand = 0, ngain = 0;
  uint32_t used = 0;
  bool ok = true;
  for (int t = 0; t < k && ok; t++) {
    int i = order[t];
    plan_step *s = &w->step[t];
    s->copy0 = ncopy, s->and0 = nand, s->gain0 = ngain, s->start = -1, s->freed = 0;
    /* 1. split the open classes by whether their groups have the item */
    int ntouched = 0;
    for (int j = u->istart[i]; j < u->istart[i + 1]; j++) {
      int g = u->igroup[j];
      if (first[g] < t && ccount[cls[g]]++ == 0)
        touched[ntouched++] = cls[g];
    }
    for (int a = 0; a < ntouched && ok; a++) {
      int c = touched[a];
      if (ccount[c] == csize[c]) { /* every group of the class has the item */
        cto[c] = c;
        w->and_slot[nand++] = cslot[c];
        continue;
      }
      int slot = take_slot(&used);
      if (slot < 0) {
        ok = false;
        break;
      }
      int n = ncls++;
      cslot[n] = slot, csize[n] = ccount[c], ccount[n] = 0;
      csize[c] -= ccount[c];
      cto[c] = n;
      w->copy_from[ncopy] = cslot[c], w->copy_to[ncopy++] = slot;
      w->and_slot[nand++] = slot;
    }
    if (!ok)
      break;
    for (int j = u->istart[i]; j < u->istart[i + 1]; j++) {
      int g = u->igroup[j];
      if (first[g] < t)
        cls[g] = cto[cls[g]];
    }
    for (int a = 0; a < ntouched; a++)
      ccount[touched[a]] = 0;
    /* 2. the groups the item opens: one class */
    int nstart = 0;
    for (int j = u->istart[i]; j < u->istart[i + 1]; j++)
      nstart += first[u->igroup[j]] == t;
    if (nstart) {
      int slot = take_slot(&used);
      if (slot < 0) {
        ok = false;
        break;
      }
      int n = ncls++;
      cslot[n] = slot, csize[n] = nstart, ccount[n] = 0;
      s->start = slot;
      for (int j = u->istart[i]; j < u->istart[i + 1]; j++)
        if (first[u->igroup[j]] == t)
          cls[u->igroup[j]] = n;
    }
    int live = __builtin_popcount(used);
    if (live > w->width)
      w->width = live;
    /* 3. the groups the item closes */
    for (int j = u->istart[i]; j < u->istart[i + 1]; j++) {
      int g = u->igroup[j];
      if (last[g] != t)
        continue;
      int c = cls[g];
      w->gain_slot[ngain] = cslot[c], w->gain_value[ngain++] = p->gv[g];
      if (--csize[c] == 0) {
        s->freed |= 1u << cslot[c];
        used &= ~(1u << cslot[c]);
      }
    }
  }
  if (ok) {
    w->step[k] = (plan_step){ncopy, nand, ngain, -1, 0};
  } else if (w->width <= UK_WIDTH_MAX)
    w->width = UK_WIDTH_MAX + 1;
  free(first), free(last), free(cls), free(cslot), free(csize), free(ccount), free(cto);
  free(touched);
  if (!ok)
    plan_free(w);
  return ok;
}

/* The exact frontier of part pt (see the file comment): the walk in the narrower of the
 * two orders of its items (ascending, descending); false beyond the limits. */
static bool part_walk(const uk *u, part *pt, int *widest) {
  const uk_problem *p = u->p;
  int k = pt->k;
  int *down = xmalloc(sizeof *down * ((size_t)k + 1));
  for (int t = 0; t < k; t++)
    down[t] = pt->items[k - 1 - t];
  walk_plan up_plan, down_plan, w;
  bool up_ok = plan_walk(u, pt->items, k, &up_plan);
  bool down_ok = plan_walk(u, down, k, &down_plan);
  int width = up_plan.width < down_plan.width ? up_plan.width : down_plan.width;
  if (width > *widest)
    *widest = width;
  if (!up_ok && !down_ok) {
    free(down);
    return false;
  }
  if (up_ok && (!down_ok || up_plan.width <= down_plan.width)) {
    w = up_plan;
    if (down_ok)
      plan_free(&down_plan);
  } else {
    w = down_plan;
    if (up_ok)
      plan_free(&up_plan);
  }
  pt->walk_order = w.order == down ? down : NULL;
  if (w.order != down)
    free(down);
  size_t cap = 1024, count = 1;
  label *lab = xmalloc(sizeof *lab * cap);
  size_t *layer = xmalloc(sizeof *layer * ((size_t)k + 2));
  lab[0] = (label){0, 0, 0, 0, false};
  layer[0] = 0;
  layer[1] = 1;
  bool ok = true;
  for (int t = 0; t < k; t++) {
    int i = w.order[t];
    const plan_step *s = &w.step[t], *e = &w.step[t + 1];
    size_t from = layer[t], to = layer[t + 1];
    if (count + 2 * (to - from) > UK_PART_LABELS) {
      ok = false;
      break;
    }
    XRESERVE(lab, count + 2 * (to - from), cap, 16);
    uint32_t ands = 0;
    for (int a = s->and0; a < e->and0; a++)
      ands |= 1u << w.and_slot[a];
    for (size_t a = from; a < to; a++) {
      label l = lab[a];
      uint32_t m = l.mask;
      for (int c = s->copy0; c < e->copy0; c++)
        if (m >> w.copy_from[c] & 1)
          m |= 1u << w.copy_to[c];
      /* not saved: the groups of the item can no longer be completed */
      lab[count++] = (label){l.w, l.v, m & ~ands & ~s->freed, (uint32_t)a, false};
      /* saved */
      if (l.w > p->cap || p->w[i] > p->cap - l.w)
        continue;
      uint64_t v = sat_add(l.v, p->v[i]);
      if (s->start >= 0)
        m |= 1u << s->start;
      for (int g = s->gain0; g < e->gain0; g++)
        if (m >> w.gain_slot[g] & 1)
          v = sat_add(v, w.gain_value[g]);
      lab[count++] = (label){l.w + p->w[i], v, m & ~s->freed, (uint32_t)a, true};
    }
    count = to + prune(lab + to, count - to);
    layer[t + 2] = count;
  }
  plan_free(&w);
  if (!ok) {
    free(lab), free(layer);
    free(pt->walk_order);
    pt->walk_order = NULL;
    return false;
  }
  /* the last layer: every group closed, one state; by weight, value up */
  size_t from = layer[k], to = layer[k + 1];
  pt->nopt = (int)(to - from);
  pt->ow = xmalloc(sizeof *pt->ow * (to - from));
  pt->ov = xmalloc(sizeof *pt->ov * (to - from));
  pt->final_label = xmalloc(sizeof *pt->final_label * (to - from));
  for (size_t a = from; a < to; a++) {
    pt->ow[a - from] = lab[a].w;
    pt->ov[a - from] = lab[a].v;
    pt->final_label[a - from] = (uint32_t)a;
  }
  pt->lab = lab;
  pt->layer = layer;
  pt->exact = true;
  return true;
}

/* Gain of saving the unsaved items R[0..nr) on top of the current choice: their values
 * plus every group they complete (missing[g]: unsaved items of g). cnt[] is scratch, all
 * zero before and after. */
static uint64_t gain_of(const uk *u, const int *missing, int *cnt, const int *r, int nr) {
  const uk_problem *p = u->p;
  uint64_t v = 0;
  for (int a = 0; a < nr; a++) {
    v = sat_add(v, p->v[r[a]]);
    for (int j = u->istart[r[a]]; j < u->istart[r[a] + 1]; j++)
      cnt[u->igroup[j]]++;
  }
  for (int a = 0; a < nr; a++)
    for (int j = u->istart[r[a]]; j < u->istart[r[a] + 1]; j++) {
      int g = u->igroup[j];
      if (cnt[g] && cnt[g] == missing[g])
        v = sat_add(v, p->gv[g]);
      cnt[g] = 0;
    }
  return v;
}

/* a/b > c/d for weights b, d (0: infinite ratio); ties: the larger gain. */
static bool better(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  if (b == 0 || d == 0)
    return b == 0 && (d != 0 || a > c);
  long double l = (long double)a * d, r = (long double)c * b;
  return l > r || (l == r && a > c);
}

/* A greedy frontier of part pt: from nothing saved, repeatedly save what gains most per
 * byte and fits: one item (its value and the groups it completes) or every unsaved item
 * of one group (their values and the groups they complete). Each step's choice is an
 * option: nested sets, the first cnt[o] items of order[]. */
static void part_greedy(const uk *u, part *pt) {
  const uk_problem *p = u->p;
  int k = pt->k;
  int *missing = xcalloc((size_t)p->m + 1, sizeof *missing);
  int *cnt = xcalloc((size_t)p->m + 1, sizeof *cnt);
  bool *saved = xcalloc((size_t)p->n + 1, sizeof *saved);
  int *r = xmalloc(sizeof *r * ((size_t)k + 1));
  int *groups = xmalloc(sizeof *groups * ((size_t)k + 1)), ngroups = 0;
  int *seen = xcalloc((size_t)p->m + 1, sizeof *seen);
  /* the part's groups */
  size_t gcap = (size_t)k + 1;
  for (int t = 0; t < k; t++)
    for (int j = u->istart[pt->items[t]]; j < u->istart[pt->items[t] + 1]; j++) {
      int g = u->igroup[j];
      if (seen[g])
        continue;
      seen[g] = 1;
      missing[g] = p->gstart[g + 1] - p->gstart[g];
      XGROW(groups, ngroups, gcap, 16);
      groups[ngroups++] = g;
    }
  pt->order = xmalloc(sizeof *pt->order * ((size_t)k + 1));
  pt->cnt = xmalloc(sizeof *pt->cnt * ((size_t)k + 2));
  pt->ow = xmalloc(sizeof *pt->ow * ((size_t)k + 2));
  pt->ov = xmalloc(sizeof *pt->ov * ((size_t)k + 2));
  pt->nopt = 1;
  pt->ow[0] = pt->ov[0] = 0;
  pt->cnt[0] = 0;
  int nsaved = 0;
  uint64_t w = 0, v = 0, work = 0;
  for (;;) {
    uint64_t bg = 0, bw = 0;
    int best_item = -1, best_group = -1;
    for (int t = 0; t < k; t++) { /* single items */
      int i = pt->items[t];
      if (saved[i] || p->w[i] > p->cap - w)
        continue;
      uint64_t gn = gain_of(u, missing, cnt, &i, 1);
      work += 1 + (uint64_t)(u->istart[i + 1] - u->istart[i]);
      if (best_item < 0 && best_group < 0 ? true : better(gn, p->w[i], bg, bw)) {
        bg = gn, bw = p->w[i], best_item = i, best_group = -1;
      }
    }
    for (int a = 0; a < ngroups; a++) { /* completing a group */
      int g = groups[a], nr = 0;
      if (missing[g] < 2)
        continue;
      uint64_t gw = 0;
      for (int j = p->gstart[g]; j < p->gstart[g + 1]; j++)
        if (!saved[p->gitem[j]]) {
          r[nr++] = p->gitem[j];
          gw = sat_add(gw, p->w[p->gitem[j]]);
        }
      if (gw > p->cap - w)
        continue;
      uint64_t gn = gain_of(u, missing, cnt, r, nr);
      work += (uint64_t)nr * 4;
      if (best_item < 0 && best_group < 0 ? true : better(gn, gw, bg, bw)) {
        bg = gn, bw = gw, best_item = -1, best_group = g;
      }
    }
    if ((best_item < 0 && best_group < 0) || bg == 0 || work > UK_GREEDY_WORK)
      break; /* nothing fits, nothing gains (a group's value comes with its last item) */
    int nr = 0;
    if (best_item >= 0)
      r[nr++] = best_item;
    else
      for (int j = p->gstart[best_group]; j < p->gstart[best_group + 1]; j++)
        if (!saved[p->gitem[j]])
          r[nr++] = p->gitem[j];
    for (int a = 0; a < nr; a++) {
      saved[r[a]] = true;
      pt->order[nsaved++] = r[a];
      for (int j = u->istart[r[a]]; j < u->istart[r[a] + 1]; j++)
        missing[u->igroup[j]]--;
    }
    w += bw;
    v = sat_add(v, bg);
    if (v > pt->ov[pt->nopt - 1] || w == pt->ow[pt->nopt - 1]) {
      if (w == pt->ow[pt->nopt - 1]) /* same weight, more value: replaces */
        pt->nopt--;
      pt->ow[pt->nopt] = w;
      pt->ov[pt->nopt] = v;
      pt->cnt[pt->nopt++] = nsaved;
    }
  }
  pt->exact = false;
  free(missing), free(cnt), free(saved), free(r), free(groups), free(seen);
}

/* Marks the items of option o of part pt in take[]. */
static void part_take(const part *pt, int o, bool *take) {
  if (pt->lab) {
    const int *order = pt->walk_order ? pt->walk_order : pt->items;
    size_t a = pt->final_label[o];
    for (int t = pt->k - 1; t >= 0; t--) {
      take[order[t]] = pt->lab[a].took;
      a = pt->lab[a].parent;
    }
  } else {
    for (int t = 0; t < pt->k; t++)
      take[pt->items[t]] = false;
    for (int j = 0; j < pt->cnt[o]; j++)
      take[pt->order[j]] = true;
  }
}

static void part_free(part *pt) {
  free(pt->ow), free(pt->ov), free(pt->lab), free(pt->layer), free(pt->final_label);
  free(pt->walk_order);
  free(pt->order), free(pt->cnt);
  if (pt->copies)
    free((int *)pt->items);
}

/* ---- the merge ----------------------------------------------------------------------- */

/* A step between consecutive vertices of a part's upper hull (its frontier made concave):
 * the linear-programming relaxation of choosing one option per part takes steps by
 * decreasing value per weight. */
typedef struct step {
  uint64_t dw, dv;
  int part, to; /* the option it reaches */
} step;

static int by_slope(const void *pa, const void *pb) {
  const step *a = pa, *b = pb;
  if (better(a->dv, a->dw, b->dv, b->dw))
    return -1;
  if (better(b->dv, b->dw, a->dv, a->dw))
    return 1;
  return a->part != b->part ? (a->part < b->part ? -1 : 1) : (a->to > b->to) - (a->to < b->to);
}

/* Appends the hull steps of part q (options by weight; option 0 has weight 0). */
static void hull_steps(const part *pt, int q, step *out, int *n) {
  int *h = xmalloc(sizeof *h * ((size_t)pt->nopt + 1)), nh = 0;
  for (int o = 0; o < pt->nopt; o++) {
    /* drop the last vertex while it lies on or below the segment to o */
    while (nh >= 2) {
      int a = h[nh - 2], b = h[nh - 1];
      long double l = ((long double)pt->ov[b] - pt->ov[a]) * ((long double)pt->ow[o] - pt->ow[a]);
      long double r = ((long double)pt->ov[o] - pt->ov[a]) * ((long double)pt->ow[b] - pt->ow[a]);
      if (l > r)
        break;
      nh--;
    }
    h[nh++] = o;
  }
  for (int j = 1; j < nh; j++)
    out[(*n)++] = (step){pt->ow[h[j]] - pt->ow[h[j - 1]], pt->ov[h[j]] - pt->ov[h[j - 1]], q, h[j]};
  free(h);
}

/* A heuristic choice of one option per part: hull steps by decreasing value per weight
 * while they fit (a part whose next step does not fit takes no further step), then each
 * part in turn moves to its best option within what is left. Part `pin` (or -1) keeps
 * option `opt` and takes no part in it. */
static uint64_t climb(const part *pts, int np, const step *steps, int ns, uint64_t cap, int pin,
                      int opt, int *choice) {
  bool *blocked = xcalloc((size_t)np + 1, sizeof *blocked);
  uint64_t room = cap;
  for (int q = 0; q < np; q++)
    choice[q] = 0;
  if (pin >= 0) {
    choice[pin] = opt;
    blocked[pin] = true;
    room -= pts[pin].ow[opt];
  }
  for (int s = 0; s < ns; s++) {
    const step *st = &steps[s];
    if (blocked[st->part])
      continue;
    if (st->dw > room) {
      blocked[st->part] = true;
      continue;
    }
    room -= st->dw;
    choice[st->part] = st->to;
  }
  for (int q = 0; q < np; q++) {
    const part *pt = &pts[q];
    if (q == pin)
      continue;
    uint64_t limit = pt->ow[choice[q]] + room;
    int best = choice[q];
    for (int o = choice[q] + 1; o < pt->nopt && pt->ow[o] <= limit; o++)
      best = o; /* values increase with weight */
    room = limit - pt->ow[best];
    choice[q] = best;
  }
  uint64_t v = 0;
  for (int q = 0; q < np; q++)
    v = sat_add(v, pts[q].ov[choice[q]]);
  free(blocked);
  return v;
}

/* The heuristic choice: the climb, or the climb after the single most valuable option
 * that fits alone, whichever gains more (so a heavy option of high value is not lost to
 * lighter ones of higher value per weight: at least half the optimum when every part is
 * one item). */
static uint64_t hull_greedy(const part *pts, int np, const step *steps, int ns, uint64_t cap,
                            int *choice) {
  uint64_t v = climb(pts, np, steps, ns, cap, -1, 0, choice);
  int pin = -1, opt = 0;
  for (int q = 0; q < np; q++)
    for (int o = pts[q].nopt - 1; o > 0; o--)
      if (pts[q].ow[o] <= cap) { /* values increase with weight: the heaviest that fits */
        if (pin < 0 || pts[q].ov[o] > pts[pin].ov[opt])
          pin = q, opt = o;
        break;
      }
  if (pin < 0)
    return v;
  int *other = xmalloc(sizeof *other * ((size_t)np + 1));
  uint64_t w = climb(pts, np, steps, ns, cap, pin, opt, other);
  if (w > v) {
    memcpy(choice, other, sizeof *choice * (size_t)np);
    v = w;
  }
  free(other);
  return v;
}

/* Fenwick trees over the hull steps in slope order, for the parts not merged yet: the
 * linear-programming bound of what they can add within a capacity. */
typedef struct lp_bound {
  int n;
  uint64_t *fw; /* weights */
  long double *fv;
  long double base; /* value of the parts' weight-0 options */
  const step *steps;
} lp_bound;

static void lp_add(lp_bound *b, int s, int sign) {
  for (int x = s + 1; x <= b->n; x += x & -x) {
    b->fw[x] += sign > 0 ? b->steps[s].dw : -b->steps[s].dw;
    b->fv[x] += sign * (long double)b->steps[s].dv;
  }
}

/* Upper bound of the value the remaining parts add within capacity r. */
static long double lp_query(const lp_bound *b, uint64_t r) {
  long double v = b->base;
  int pos = 0;
  int top = 1;
  while (top * 2 <= b->n)
    top *= 2;
  for (int s = top; s > 0; s /= 2)
    if (pos + s <= b->n && b->fw[pos + s] <= r) {
      pos += s;
      r -= b->fw[pos];
      v += b->fv[pos];
    }
  /* pos steps fit whole; the next one (if any) fractionally. Steps of removed parts have
   * zero weight and value in the trees, so a zero-weight step never blocks. */
  if (pos < b->n) {
    const step *st = &b->steps[pos];
    /* the step at index pos is the first that does not fit (it is present) */
    if (st->dw > 0)
      v += (long double)st->dv * r / st->dw;
  }
  return v;
}

/* Merge label: weight, value, and how it was reached. */
typedef struct mlabel {
  uint64_t w, v;
  uint32_t parent;
  int opt;
} mlabel;

static int by_weight(const void *pa, const void *pb) {
  const mlabel *a = pa, *b = pb;
  return lex3(a->w, b->w, b->v, a->v, 0, 0);
}

/* The exact merge (see the file comment). Returns 1 and fills choice[] when it finds a
 * choice better than lb, 0 when none is (then the lb choice is optimal), -1 beyond the
 * limits. */
static int merge(const part *pts, int np, const step *steps, int ns, uint64_t cap, uint64_t lb,
                 int *choice) {
  /* slot of each step in slope order, per part */
  lp_bound b = {ns, xcalloc((size_t)ns + 1, sizeof(uint64_t)),
                xcalloc((size_t)ns + 1, sizeof(long double)), 0, steps};
  int *pstep_start = xcalloc((size_t)np + 1, sizeof *pstep_start);
  int *pstep = xmalloc(sizeof *pstep * ((size_t)ns + 1));
  for (int s = 0; s < ns; s++)
    pstep_start[steps[s].part + 1]++;
  for (int q = 0; q < np; q++)
    pstep_start[q + 1] += pstep_start[q];
  int *fill = xmalloc(sizeof *fill * ((size_t)np + 1));
  memcpy(fill, pstep_start, sizeof *fill * (size_t)np);
  for (int s = 0; s < ns; s++)
    pstep[fill[steps[s].part]++] = s;
  free(fill);
  for (int s = 0; s < ns; s++)
    lp_add(&b, s, 1);
  for (int q = 0; q < np; q++)
    b.base += pts[q].ov[0];
  size_t lcap = 1024, count = 1;
  mlabel *lab = xmalloc(sizeof *lab * lcap);
  size_t *layer = xmalloc(sizeof *layer * ((size_t)np + 2));
  lab[0] = (mlabel){0, 0, 0, 0};
  layer[0] = 0, layer[1] = 1;
  int rc = 0;
  for (int q = 0; q < np; q++) {
    const part *pt = &pts[q];
    /* the part leaves the bound */
    for (int j = pstep_start[q]; j < pstep_start[q + 1]; j++)
      lp_add(&b, pstep[j], -1);
    b.base -= pt->ov[0];
    size_t from = layer[q], to = layer[q + 1];
    for (size_t a = from; a < to; a++)
      for (int o = 0; o < pt->nopt; o++) {
        mlabel l = lab[a];
        if (pt->ow[o] > cap - l.w)
          break; /* options by weight */
        uint64_t w = l.w + pt->ow[o], v = sat_add(l.v, pt->ov[o]);
        if ((long double)v + lp_query(&b, cap - w) < (long double)lb + 0.5L)
          continue; /* cannot beat the heuristic choice by 1 */
        if (count == lcap) {
          if (lcap >= UK_MERGE_LABELS) {
            rc = -1;
            goto out;
          }
          lab = xrealloc(lab, lcap *= 2, sizeof *lab);
        }
        lab[count++] = (mlabel){w, v, (uint32_t)a, o};
      }
    /* Pareto: by weight, keep a label only when it gains more than every lighter one */
    qsort(lab + to, count - to, sizeof *lab, by_weight);
    size_t kept = to;
    for (size_t a = to; a < count; a++)
      if (kept == to || lab[a].v > lab[kept - 1].v)
        lab[kept++] = lab[a];
    count = kept;
    layer[q + 2] = count;
  }
  {
    size_t from = layer[np], to = layer[np + 1], best = to;
    for (size_t a = from; a < to; a++)
      if (lab[a].v > lb && (best == to || lab[a].v > lab[best].v))
        best = a;
    if (best != to) {
      size_t a = best;
      for (int q = np - 1; q >= 0; q--) {
        choice[q] = lab[a].opt;
        a = lab[a].parent;
      }
      rc = 1;
    }
  }
out:
  free(b.fw), free(b.fv), free(pstep_start), free(pstep), free(lab), free(layer);
  return rc;
}

/* ---- entry ------------------------------------------------------------------------------ */

/* A part of one item and no group, for finding equal ones. */
typedef struct single {
  uint64_t w, v;
  int item;
} single;

static int by_weight_value(const void *pa, const void *pb) {
  const single *a = pa, *b = pb;
  return lex3(a->w, b->w, a->v, b->v, (uint64_t)a->item, (uint64_t)b->item); /* items >= 0 */
}

void uk_solve(const uk_problem *p, bool heuristic, bool *take, uk_result *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < p->n; i++)
    take[i] = false;
  r->exact = true;
  if (p->n == 0)
    return;
  uk u;
  uk_build(&u, p);
  /* Parts; single items without groups that have the same weight and value are one part
   * of copies (a residual stream's identical layers): option j saves j of them, so the
   * merge sees one part with k + 1 options instead of k parts. */
  single *one = xmalloc(sizeof *one * ((size_t)u.nparts + 1));
  int nsingle = 0;
  for (int q = 0; q < u.nparts; q++) {
    int i = u.pitem[u.pstart[q]];
    if (u.pstart[q + 1] - u.pstart[q] == 1 && u.istart[i + 1] == u.istart[i])
      one[nsingle++] = (single){p->w[i], p->v[i], i};
  }
  qsort(one, (size_t)nsingle, sizeof *one, by_weight_value);
  part *pts = xcalloc((size_t)u.nparts + 1, sizeof *pts);
  int np = 0;
  for (int a = 0; a < nsingle;) {
    int b = a;
    while (b < nsingle && one[b].w == one[a].w && one[b].v == one[a].v)
      b++;
    part *pt = &pts[np++];
    int *its = xmalloc(sizeof *its * (size_t)(b - a));
    for (int j = a; j < b; j++)
      its[j - a] = one[j].item;
    uint64_t w = one[a].w, v = one[a].v;
    pt->items = its;
    pt->k = b - a;
    pt->copies = true;
    /* options: j copies for j = 0 .. min(k, cap / w); all k at once when they weigh 0 */
    uint64_t most = w == 0 ? 1 : ((uint64_t)pt->k < p->cap / w ? (uint64_t)pt->k : p->cap / w) + 1;
    pt->nopt = (int)most;
    pt->ow = xmalloc(sizeof *pt->ow * most);
    pt->ov = xmalloc(sizeof *pt->ov * most);
    pt->cnt = xmalloc(sizeof *pt->cnt * most);
    pt->order = xmalloc(sizeof *pt->order * ((size_t)pt->k));
    memcpy(pt->order, its, sizeof *its * (size_t)pt->k);
    for (int j = 0; j < pt->nopt; j++) {
      int c = w == 0 ? pt->k : j;
      pt->cnt[j] = c;
      pt->ow[j] = (uint64_t)c * w;
      pt->ov[j] = c && v > UINT64_MAX / (uint64_t)c ? UINT64_MAX : (uint64_t)c * v;
    }
    if (v == 0) /* saving them gains nothing: the frontier is the empty choice */
      pt->nopt = 1, pt->cnt[0] = 0, pt->ow[0] = pt->ov[0] = 0;
    pt->exact = true;
    if (r->largest < 1)
      r->largest = 1;
    a = b;
  }
  free(one);
  for (int q = 0; q < u.nparts; q++) {
    int i = u.pitem[u.pstart[q]];
    if (u.pstart[q + 1] - u.pstart[q] == 1 && u.istart[i + 1] == u.istart[i])
      continue;
    part *pt = &pts[np++];
    pt->items = u.pitem + u.pstart[q];
    pt->k = u.pstart[q + 1] - u.pstart[q];
    if (pt->k > r->largest)
      r->largest = pt->k;
    if (heuristic || !part_walk(&u, pt, &r->widest)) {
      part_greedy(&u, pt);
      r->beyond += !heuristic;
      r->exact = false;
    }
  }
  r->parts = u.nparts;
  u.nparts = np; /* from here on: the merged parts */
  int ns = 0;
  for (int q = 0; q < u.nparts; q++)
    ns += pts[q].nopt;
  step *steps = xmalloc(sizeof *steps * ((size_t)ns + 1));
  ns = 0;
  for (int q = 0; q < u.nparts; q++)
    hull_steps(&pts[q], q, steps, &ns);
  qsort(steps, (size_t)ns, sizeof *steps, by_slope);
  int *choice = xmalloc(sizeof *choice * ((size_t)u.nparts + 1));
  uint64_t lb = hull_greedy(pts, u.nparts, steps, ns, p->cap, choice);
  if (!heuristic) {
    int *better_choice = xmalloc(sizeof *better_choice * ((size_t)u.nparts + 1));
    int rc = merge(pts, u.nparts, steps, ns, p->cap, lb, better_choice);
    if (rc == 1)
      memcpy(choice, better_choice, sizeof *choice * (size_t)u.nparts);
    else if (rc < 0) {
      r->exact = false;
      r->beyond = -1;
    }
    free(better_choice);
  } else
    r->exact = false;
  for (int q = 0; q < u.nparts; q++)
    part_take(&pts[q], choice[q], take);
  r->value = uk_value(p, take, NULL);
  for (int q = 0; q < u.nparts; q++)
    part_free(&pts[q]);
  free(pts), free(steps), free(choice);
  uk_free(&u);
}
