/* dot.c: the Graphviz picture of a split (see dot.h).
 *
 * Node numbers: argument a is node a, op i is node nargs + i (a collapsed chain is the
 * node of its first op), then the forward's outputs and the backward's gradients. Edges
 * are collected as (from, to, flags), sorted and merged, so a chain or an op that reads a
 * value twice draws one edge. */
#include "dot.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "report.h"
#include "rt.h"
#include "support.h"

typedef enum kind {         /* what a node is, which decides its colour */
                    K_NONE, /* not drawn */
                    K_ARG,
                    K_CONST,
                    K_FWD,
                    K_RECOMPUTED, /* run by the forward and again by the backward */
                    K_MOVED,      /* a forward value only the backward computes */
                    K_BWD,
} kind;

static const char *const fill[] = {"",        "#ffffff", "#f0f0f0", "#deebf7",
                                   "#fdae6b", "#fdd0a2", "#e5f5e0"};
static const char *const cut_color = "#d7301f";

enum { E_CUT = 1, E_COTANGENT = 2, E_INVIS = 4 };

typedef struct edge {
  int from, to;
  unsigned flags;
} edge;

static int cmp_edge(const void *a, const void *b) {
  const edge *x = a, *y = b;
  if (x->from != y->from)
    return (x->from > y->from) - (x->from < y->from);
  return (x->to > y->to) - (x->to < y->to);
}

/* A DOT string's body: quotes and backslashes escaped, a newline as DOT's line break. */
static void dot_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\n') {
      fputs("\\n", f);
      continue;
    }
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
}

static void op_name(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef n = rt_op_label(op); /* an rt.extern by its own name */
  snprintf(buf, cap, "%.*s", (int)n.length, n.data);
}

/* "2x2xf32" for tensor<2x2xf32>, the type itself otherwise. */
static void short_type(MlirValue v, char *buf, size_t cap) {
  char t[128];
  rt_type_str(mlirValueGetType(v), t, sizeof t);
  size_t n = strlen(t);
  if (!strncmp(t, "tensor<", 7) && n > 8 && t[n - 1] == '>')
    snprintf(buf, cap, "%.*s", (int)(n - 8), t + 7);
  else
    snprintf(buf, cap, "%s", t);
}

void remat_dot_begin(FILE *f) {
  fprintf(f,
          "digraph remat {\n"
          "  rankdir=LR;\n"
          "  fontname=\"Helvetica\"; fontsize=12;\n"
          "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
          "  edge [color=\"#636363\", arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n"
          "  subgraph cluster_legend {\n"
          "    label=\"legend\"; style=dashed; color=\"#bdbdbd\";\n"
          "    legend_fwd [label=\"forward op\", fillcolor=\"%s\"];\n"
          "    legend_recomputed [label=\"recomputed\\nby the backward\", fillcolor=\"%s\"];\n"
          "    legend_moved [label=\"moved to\\nthe backward\", fillcolor=\"%s\"];\n"
          "    legend_bwd [label=\"backward op\", fillcolor=\"%s\"];\n"
          "    legend_saved [label=\"saved value\\nsaved N B\", fillcolor=\"%s\", color=\"%s\", "
          "penwidth=3];\n"
          "    legend_banned [label=\"banned op\", fillcolor=\"%s\", peripheries=2];\n"
          "    legend_saved -> legend_bwd [label=\"cut\", color=\"%s\", penwidth=2];\n"
          "    legend_fwd -> legend_recomputed -> legend_moved -> legend_banned -> "
          "legend_saved [style=invis];\n"
          "  }\n",
          fill[K_FWD], fill[K_RECOMPUTED], fill[K_MOVED], fill[K_BWD], fill[K_FWD], cut_color,
          fill[K_FWD], cut_color);
}

void remat_dot_end(FILE *f, int nodes) {
  /* On a few hundred nodes Graphviz spends most of its time placing nodes (network
   * simplex) and routing splines: a 2-layer GPT (338 nodes) takes 75 s of CPU; with
   * straight edges and the placement's iterations bounded (nslimit), 1 s. */
  if (nodes > REMAT_DOT_LARGE)
    fputs("  splines=line; nslimit=2;\n", f);
  fputs("}\n", f);
}

/* Everything the writer derives from the view. */
typedef struct pic {
  const remat_split_view *v;
  int index;
  kind *k;    /* [nargs + nops] node kinds (ops at nargs + i) */
  int *rep;   /* [nops] first op of the op's chain (itself when not collapsed) */
  int *len;   /* [nops] ops in the chain, at its first op */
  int *last;  /* [nops] last op of the chain, at its first op */
  char **key; /* [nops] cluster key or NULL */
  bool *returned;
} pic;

static bool bwd_side(const pic *p, int node) {
  return p->k[node] == K_BWD || p->k[node] == K_MOVED ||
         (node < p->v->nargs && (p->v->vflags[node] & RV_TANGENT)) ||
         (node >= p->v->nargs && p->k[node] == K_CONST &&
          !(p->v->oflags[node - p->v->nargs] & RO_IN_FWD));
}

static bool immediate(const remat_split_view *v, int val) {
  int op = v->val_op[val];
  return op >= 0 && (v->oflags[op] & RO_CONST) && rt_type_is_scalar(mlirValueGetType(v->vals[val]));
}

/* The node that shows value X: its argument, or its op's chain. */
static int node_of(const pic *p, int x) {
  int op = p->v->val_op[x];
  return op < 0 ? x : p->v->nargs + p->rep[op];
}

static void classify(pic *p) {
  const remat_split_view *v = p->v;
  for (int i = 0; i < v->nops; i++) {
    unsigned f = v->oflags[i];
    bool imm = true;
    FOR_RESULTS(v, i, r) imm &= immediate(v, r);
    kind k = K_NONE;
    if (imm)
      k = K_NONE;
    else if (f & RO_BW)
      k = f & RO_IN_BWD ? K_BWD : K_NONE;
    else if (f & RO_CONST)
      k = f & (RO_IN_FWD | RO_IN_BWD) ? K_CONST : K_NONE;
    else if ((f & RO_IN_FWD) && (f & RO_IN_BWD))
      k = K_RECOMPUTED;
    else if (f & RO_IN_FWD)
      k = K_FWD;
    else if (f & RO_IN_BWD)
      k = K_MOVED;
    p->k[v->nargs + i] = k;
    p->rep[i] = i;
    p->len[i] = 1;
    p->last[i] = i;
  }
  for (int r = 0; r < v->nret; r++)
    p->returned[v->ret_val[r]] = true;
  /* Arguments: drawn when a drawn op reads them, or returned, or saved. */
  for (int a = 0; a < v->nargs; a++)
    if (p->returned[a] || (v->vflags[a] & RV_SAVED))
      p->k[a] = K_ARG;
  for (int i = 0; i < v->nops; i++)
    if (p->k[v->nargs + i] != K_NONE)
      FOR_OPERANDS(v, i, u) if (u < v->nargs) p->k[u] = K_ARG;
}

/* Cluster keys: "rt.ac_region N" when any drawn op has rt.ac_region; otherwise the
 * source line, per run of consecutive drawn ops on one line (a model's code runs once per
 * layer: each layer's ops of a line form their own cluster), "file:line" plus "#run". */
static void cluster_keys(pic *p) {
  const remat_split_view *v = p->v;
  bool regions = false;
  int64_t r;
  for (int i = 0; i < v->nops && !regions; i++)
    regions = p->k[v->nargs + i] != K_NONE && rt_get_i64(v->ops[i], "rt.ac_region", &r);
  char prev[300] = "";
  int run = 0;
  for (int i = 0; i < v->nops; i++) {
    if (p->k[v->nargs + i] == K_NONE)
      continue;
    char buf[300];
    if (regions) {
      if (!rt_get_i64(v->ops[i], "rt.ac_region", &r))
        continue;
      p->key[i] = xasprintf("rt.ac_region %lld", (long long)r);
      continue;
    }
    remat_report_loc(mlirOperationGetLocation(v->ops[i]), buf, sizeof buf);
    char *colon = strrchr(buf, ':');
    if (!strcmp(buf, "?") || !colon) {
      prev[0] = 0;
      continue;
    }
    *colon = 0; /* file:line */
    if (strcmp(buf, prev)) {
      run++;
      snprintf(prev, sizeof prev, "%s", buf);
    }
    p->key[i] = xasprintf("%s#%d", buf, run);
  }
}

/* A cluster's label: its key without the run number. */
static void cluster_label(FILE *f, const char *key) {
  const char *hash = strrchr(key, '#');
  char buf[320];
  snprintf(buf, sizeof buf, "%.*s", hash ? (int)(hash - key) : (int)strlen(key), key);
  dot_text(f, buf);
}

static bool same_key(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Ops a chain may hold: elementwise and compare ops, and the views (reshape, transpose,
 * broadcast, slice) a traced model puts between them. */
static bool chainable(MlirOperation op) {
  rt_op_id id = rt_op_lookup(op);
  rt_op_kind k = rt_op_kind_of(id);
  return k == RT_KIND_ELEMENTWISE || k == RT_KIND_COMPARE || rt_op_is_view(id);
}

/* Chains of single-use chainable ops of one kind, side and cluster: op b takes the
 * chain of the first operand whose op a qualifies (a's only result is used by b alone,
 * is not saved or returned, and a has no successor yet). */
static void collapse(pic *p) {
  const remat_split_view *v = p->v;
  int *users = xcalloc(v->nvals, sizeof *users), *last_user = xcalloc(v->nvals, sizeof *last_user);
  bool *has_next = xcalloc(v->nops, sizeof *has_next);
  for (int x = 0; x < v->nvals; x++)
    last_user[x] = -1;
  for (int i = 0; i < v->nops; i++)
    if (p->k[v->nargs + i] != K_NONE)
      FOR_OPERANDS(v, i, u) {
        if (last_user[u] != i)
          users[u]++;
        last_user[u] = i;
      }
  for (int b = 0; b < v->nops; b++) {
    kind kb = p->k[v->nargs + b];
    if (kb == K_NONE || kb == K_CONST || !chainable(v->ops[b]))
      continue;
    FOR_OPERANDS(v, b, u) {
      int a = v->val_op[u];
      if (a < 0 || p->rep[b] != b)
        continue;
      if (p->k[v->nargs + a] != kb || !chainable(v->ops[a]) ||
          v->op_res[a + 1] - v->op_res[a] != 1 || users[u] != 1 || p->returned[u] ||
          (v->vflags[u] & RV_SAVED) || has_next[a] || ((v->oflags[a] ^ v->oflags[b]) & RO_BANNED) ||
          !same_key(p->key[a], p->key[b]))
        continue;
      int head = p->rep[a];
      has_next[a] = true;
      p->rep[b] = head;
      p->len[head]++;
      p->last[head] = b;
    }
  }
  free(users);
  free(last_user);
  free(has_next);
}

static void node_line(FILE *f, const pic *p, int node, const char *indent) {
  const remat_split_view *v = p->v;
  char label[512], name[128], type[128];
  int val;
  const char *extra = "";
  if (node < v->nargs) {
    val = node;
    unsigned vf = v->vflags[val];
    short_type(v->vals[val], type, sizeof type);
    MlirLocation loc = mlirValueGetLocation(v->vals[val]);
    char name_buf[128];
    if (mlirLocationIsAName(loc)) { /* an importer's argument name (blocks.0.fc.weight) */
      MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
      snprintf(name_buf, sizeof name_buf, "%.*s", (int)n.length, n.data);
    } else
      snprintf(name_buf, sizeof name_buf, "%%arg%d", val);
    snprintf(label, sizeof label, "%s\n%s%s", name_buf, type,
             vf & RV_TANGENT ? "\ntangent"
             : vf & RV_PARAM ? "\nparam"
                             : "");
    extra = ", shape=invhouse";
  } else {
    int i = node - v->nargs, last = p->last[i];
    val = v->op_res[last];
    short_type(v->vals[val], type, sizeof type);
    op_name(v->ops[i], name, sizeof name);
    if (p->len[i] > 1) {
      char lname[128];
      op_name(v->ops[last], lname, sizeof lname);
      snprintf(label, sizeof label, "%s .. %s\n(%d ops)\n%s", name, lname, p->len[i], type);
    } else
      snprintf(label, sizeof label, "%s\n%s", name, type);
  }
  fprintf(f, "%sn%d_%d [label=\"", indent, p->index, node);
  dot_text(f, label);
  int first = val, end = val + 1; /* the node's values: an argument, or the op's results */
  if (node >= v->nargs) {
    int op = p->last[node - v->nargs];
    if (p->k[node] == K_RECOMPUTED)
      fputs("\\nrecomputed", f);
    else if (p->k[node] == K_MOVED)
      fputs("\\nmoved", f);
    first = v->op_res[op];
    end = v->op_res[op + 1];
  }
  bool saved = false;
  for (int x = first; x < end; x++) {
    if (!(v->vflags[x] & RV_SAVED))
      continue;
    uint64_t b = 0;
    rt_value_bytes(v->vals[x], &b);
    if (end - first > 1) /* which of several results: rt.extern's */
      fprintf(f, "\\nsaved #%d %llu B", x - first, (unsigned long long)b);
    else
      fprintf(f, "\\nsaved %llu B", (unsigned long long)b);
    saved = true;
  }
  fprintf(f, "\", fillcolor=\"%s\"%s", fill[p->k[node]], extra);
  if (saved)
    fprintf(f, ", color=\"%s\", penwidth=3", cut_color);
  if (node >= v->nargs && (v->oflags[node - v->nargs] & RO_BANNED))
    fputs(", peripheries=2", f);
  char loc[256];
  MlirLocation l = node < v->nargs ? mlirValueGetLocation(v->vals[node])
                                   : mlirOperationGetLocation(v->ops[node - v->nargs]);
  fputs(", tooltip=\"", f);
  dot_text(f, remat_report_loc(l, loc, sizeof loc));
  fputs("\"];\n", f);
}

typedef struct keyed {
  const char *key;
  int node;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->node > y->node) - (x->node < y->node);
}

/* The nodes of one side: unclustered ones, then one cluster per key held by two nodes. */
static void side_nodes(FILE *f, const pic *p, bool bwd) {
  const remat_split_view *v = p->v;
  int n = v->nargs + v->nops, nk = 0;
  keyed *ks = xcalloc(n, sizeof *ks);
  for (int node = 0; node < n; node++) {
    if (p->k[node] == K_NONE || bwd_side(p, node) != bwd)
      continue;
    int i = node - v->nargs;
    if (i >= 0 && p->rep[i] != i)
      continue; /* inside a chain */
    if (i >= 0 && p->key[i])
      ks[nk++] = (keyed){p->key[i], node};
    else
      node_line(f, p, node, "      ");
  }
  qsort(ks, (size_t)nk, sizeof *ks, cmp_keyed);
  for (int s = 0, e; s < nk; s = e) {
    for (e = s + 1; e < nk && !strcmp(ks[e].key, ks[s].key);)
      e++;
    if (e - s < 2) {
      node_line(f, p, ks[s].node, "      ");
      continue;
    }
    fprintf(f, "      subgraph cluster_f%d_%s_%d {\n        label=\"", p->index,
            bwd ? "bwd" : "fwd", ks[s].node);
    cluster_label(f, ks[s].key);
    fputs("\"; style=\"rounded\"; color=\"#9e9e9e\";\n", f);
    for (int k = s; k < e; k++)
      node_line(f, p, ks[k].node, "        ");
    fputs("      }\n", f);
  }
  free(ks);
}

int remat_dot_function(FILE *f, int index, const remat_split_view *v, const remat_mem_estimate *e) {
  pic p = {v, index, NULL, NULL, NULL, NULL, NULL, NULL};
  p.k = xcalloc((size_t)v->nargs + v->nops, sizeof *p.k);
  p.rep = xcalloc(v->nops, sizeof *p.rep);
  p.len = xcalloc(v->nops, sizeof *p.len);
  p.last = xcalloc(v->nops, sizeof *p.last);
  p.key = xcalloc(v->nops, sizeof *p.key);
  p.returned = xcalloc(v->nvals, sizeof *p.returned);
  classify(&p);
  cluster_keys(&p);
  int drawn = 0;
  for (int i = 0; i < v->nops; i++)
    drawn += p.k[v->nargs + i] != K_NONE;
  if (drawn > REMAT_DOT_COLLAPSE_MIN)
    collapse(&p);
  int nodes = 2; /* outputs, gradients */
  for (int n = 0; n < v->nargs + v->nops; n++)
    nodes += p.k[n] != K_NONE && (n < v->nargs || p.rep[n - v->nargs] == n - v->nargs);

  const remat_mem_schedule *nr = &e->c[REMAT_MEM_NO_REMAT], *sp = &e->c[REMAT_MEM_SPLIT];
  int out = v->nargs + v->nops, grad = out + 1;
  fprintf(f, "  subgraph cluster_f%d {\n    label=\"@", index);
  dot_text(f, v->name);
  fprintf(f,
          ": saved %llu B (no remat %llu B), peak %llu B (no remat %llu B)\";\n"
          "    fontsize=14; color=\"#636363\";\n",
          (unsigned long long)sp->saved_bytes, (unsigned long long)nr->saved_bytes,
          (unsigned long long)sp->peak, (unsigned long long)nr->peak);
  for (int bwd = 0; bwd < 2; bwd++) {
    fprintf(f, "    subgraph cluster_f%d_%s {\n      label=\"%s (@", index, bwd ? "bwd" : "fwd",
            bwd ? "backward" : "forward");
    dot_text(f, bwd ? v->bwd_name : v->fwd_name);
    fprintf(f, ")\"; style=filled; fillcolor=\"%s\"; color=\"#d9d9d9\";\n",
            bwd ? "#fbfdfa" : "#fafcff");
    side_nodes(f, &p, bwd);
    fprintf(f, "      n%d_%d [label=\"%s\", shape=house, fillcolor=\"#ffffff\"];\n", index,
            bwd ? grad : out, bwd ? "gradients" : "outputs");
    fputs("    }\n", f);
  }

  /* Edges: data, returns, and the outputs' cotangents into the backward. */
  size_t cap = (size_t)v->opnd_start[v->nops] + v->nret + v->nargs + v->nops + 1, ne = 0;
  edge *es = xcalloc(cap, sizeof *es);
  for (int i = 0; i < v->nops; i++) {
    int to = v->nargs + i;
    if (p.k[to] == K_NONE)
      continue;
    bool in_bwd = (v->oflags[i] & RO_IN_BWD) != 0;
    bool any = false;
    FOR_OPERANDS(v, i, u) {
      if (immediate(v, u))
        continue;
      unsigned fl = (v->vflags[u] & RV_SAVED) && in_bwd ? E_CUT : 0;
      es[ne++] = (edge){node_of(&p, u), v->nargs + p.rep[i], fl};
      any = true;
    }
    if (!any && bwd_side(&p, to)) /* keeps a source of the backward right of the forward */
      es[ne++] = (edge){out, v->nargs + p.rep[i], E_INVIS};
  }
  for (int r = 0; r < v->nret; r++) {
    int x = v->ret_val[r];
    if (immediate(v, x))
      continue;
    bool g = r >= v->num_outputs;
    es[ne++] = (edge){node_of(&p, x), g ? grad : out, g && (v->vflags[x] & RV_SAVED) ? E_CUT : 0};
  }
  for (int a = 0; a < v->nargs; a++)
    if (p.k[a] != K_NONE && (v->vflags[a] & RV_TANGENT))
      es[ne++] = (edge){out, a, E_COTANGENT};
  qsort(es, ne, sizeof *es, cmp_edge);
  for (size_t s = 0, t; s < ne; s = t) {
    unsigned fl = 0;
    for (t = s; t < ne && es[t].from == es[s].from && es[t].to == es[s].to; t++)
      fl |= es[t].flags;
    if (es[s].from == es[s].to)
      continue; /* inside a chain */
    fprintf(f, "    n%d_%d -> n%d_%d", index, es[s].from, index, es[s].to);
    if (fl & E_CUT)
      fprintf(f, " [color=\"%s\", penwidth=2]", cut_color);
    else if (fl & E_COTANGENT)
      fputs(" [style=dashed, label=\"cotangent\"]", f);
    else if (fl & E_INVIS)
      fputs(" [style=invis]", f);
    fputs(";\n", f);
  }
  fputs("  }\n", f);
  free(es);
  for (int i = 0; i < v->nops; i++)
    free(p.key[i]);
  free(p.k);
  free(p.rep);
  free(p.len);
  free(p.last);
  free(p.key);
  free(p.returned);
  return nodes;
}
