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

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

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
  size_t *layer; /* layer t: lab[layer[t] .. layer[t+1]), t = 0..k */
  uint32_t *final_label; /* option o -> its label in the last layer */
  int *order, *cnt;
} part;

static int by_state(const void *pa, const void *pb) {
  const label *a = pa, *b = pb;
  if (a->mask != b->mask)
    return a->mask < b->mask ? -1 : 1;
  if (a->w != b->w)
    return a->w < b->w ? -1 : 1;
  return a->v > b->v ? -1 : a->v < b->v;
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

/* The exact frontier of part pt (see the file comment); false beyond the limits. */
static bool part_walk(const uk *u, part *pt, int *widest) {
  const uk_problem *p = u->p;
  int k = pt->k;
  /* first and last position of each group of the part, and a slot (bit) while open */
  int *gfirst = xmalloc(sizeof *gfirst * ((size_t)p->m + 1));
  int *glast = xmalloc(sizeof *glast * ((size_t)p->m + 1));
  int *gslot = xmalloc(sizeof *gslot * ((size_t)p->m + 1));
  for (int t = 0; t < k; t++)
    for (int j = u->istart[pt->items[t]]; j < u->istart[pt->items[t] + 1]; j++) {
      int g = u->igroup[j];
      gfirst[g] = -1;
      glast[g] = t;
    }
  for (int t = 0; t < k; t++)
    for (int j = u->istart[pt->items[t]]; j < u->istart[pt->items[t] + 1]; j++)
      if (gfirst[u->igroup[j]] < 0)
        gfirst[u->igroup[j]] = t;
  /* slots: a group takes a free slot at its first item and frees it after its last */
  uint32_t used = 0;
  int open = 0, width = 0;
  bool ok = true;
  for (int t = 0; t < k && ok; t++) {
    for (int j = u->istart[pt->items[t]]; j < u->istart[pt->items[t] + 1]; j++) {
      int g = u->igroup[j];
      if (gfirst[g] != t)
        continue;
      if (++open > UK_WIDTH_MAX) {
        ok = false;
        break;
      }
      int s = 0;
      while (used >> s & 1)
        s++;
      gslot[g] = s;
      used |= 1u << s;
    }
    if (open > width)
      width = open;
    for (int j = u->istart[pt->items[t]]; ok && j < u->istart[pt->items[t] + 1]; j++) {
      int g = u->igroup[j];
      if (glast[g] == t) {
        used &= ~(1u << gslot[g]);
        open--;
      }
    }
  }
  if (width > *widest)
    *widest = width;
  size_t cap = 1024, count = 1;
  label *lab = xmalloc(sizeof *lab * cap);
  size_t *layer = xmalloc(sizeof *layer * ((size_t)k + 2));
  lab[0] = (label){0, 0, 0, 0, false};
  layer[0] = 0;
  layer[1] = 1;
  for (int t = 0; t < k && ok; t++) {
    int i = pt->items[t];
    size_t from = layer[t], to = layer[t + 1];
    if (count + 2 * (to - from) > UK_PART_LABELS) {
      ok = false;
      break;
    }
    if (count + 2 * (to - from) > cap) {
      while (cap < count + 2 * (to - from))
        cap *= 2;
      lab = xrealloc(lab, cap, sizeof *lab);
    }
    for (size_t a = from; a < to; a++) {
      label l = lab[a];
      /* not saved: every open group of the item can no longer be completed */
      uint32_t m = l.mask;
      for (int j = u->istart[i]; j < u->istart[i + 1]; j++)
        m &= ~(1u << gslot[u->igroup[j]]);
      lab[count++] = (label){l.w, l.v, m, (uint32_t)a, false};
      /* saved */
      if (l.w > p->cap || p->w[i] > p->cap - l.w)
        continue;
      m = l.mask;
      uint64_t v = sat_add(l.v, p->v[i]);
      for (int j = u->istart[i]; j < u->istart[i + 1]; j++) {
        int g = u->igroup[j];
        uint32_t bit = 1u << gslot[g];
        if (gfirst[g] == t)
          m |= bit;
        else if (glast[g] == t) {
          if (m & bit)
            v = sat_add(v, p->gv[g]);
          m &= ~bit;
        }
      }
      lab[count++] = (label){l.w + p->w[i], v, m, (uint32_t)a, true};
    }
    count = to + prune(lab + to, count - to);
    layer[t + 2] = count;
  }
  free(gfirst), free(glast), free(gslot);
  if (!ok) {
    free(lab), free(layer);
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
      if ((size_t)ngroups == gcap)
        groups = xrealloc(groups, gcap *= 2, sizeof *groups);
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
  if (pt->exact) {
    size_t a = pt->final_label[o];
    for (int t = pt->k - 1; t >= 0; t--) {
      take[pt->items[t]] = pt->lab[a].took;
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
  free(pt->order), free(pt->cnt);
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
    out[(*n)++] = (step){pt->ow[h[j]] - pt->ow[h[j - 1]], pt->ov[h[j]] - pt->ov[h[j - 1]], q,
                         h[j]};
  free(h);
}

/* The heuristic choice of one option per part: hull steps by decreasing value per
 * weight while they fit (a part whose next step does not fit takes no further step),
 * then each part in turn moves to its best option within what is left. */
static uint64_t hull_greedy(const part *pts, int np, const step *steps, int ns, uint64_t cap,
                            int *choice) {
  bool *blocked = xcalloc((size_t)np + 1, sizeof *blocked);
  uint64_t room = cap;
  for (int q = 0; q < np; q++)
    choice[q] = 0;
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
  if (a->w != b->w)
    return a->w < b->w ? -1 : 1;
  return a->v > b->v ? -1 : a->v < b->v;
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

void uk_solve(const uk_problem *p, bool heuristic, bool *take, uk_result *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < p->n; i++)
    take[i] = false;
  r->exact = true;
  if (p->n == 0)
    return;
  uk u;
  uk_build(&u, p);
  r->parts = u.nparts;
  part *pts = xcalloc((size_t)u.nparts + 1, sizeof *pts);
  for (int q = 0; q < u.nparts; q++) {
    part *pt = &pts[q];
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
