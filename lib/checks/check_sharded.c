/* check_sharded.c: an FSDP function on N ranks against the same model unsharded on rank 0
 * (see check.h, rtr_check_sharded, and docs/design.md "Real ranks").
 *
 * Every rank runs the sharded joint function (and the _fwd/_bwd split, when given) on its
 * own inputs with the collectives of C. Then every rank's inputs, results and statistics
 * are exchanged; rank 0 concatenates the shards into the unsharded inputs, runs the
 * unsharded function with the single-process simulation and compares: a result whose
 * unsharded type equals the sharded one must be equal on every rank, a result whose
 * unsharded type is N times larger along one dimension must, on rank r, equal slice r
 * along that dimension. Rank 0 prints the report and the verdict goes back to every rank,
 * so all ranks exit alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "rt.h"
#include "check.h"
#include "collective.h"
#include "io.h"
#include "ranks.h"

/* ---- layouts ------------------------------------------------------------------------- */

/* How a sharded value relates to its unsharded one: -1 whole (same type), else the
 * dimension along which the unsharded value is N shards in rank order. -2: neither. */
static int layout_of(MlirType sharded, MlirType unsharded, int n) {
  rtr_buffer *s = rtr_buffer_for_type(sharded), *u = rtr_buffer_for_type(unsharded);
  int dim = -2;
  if (s && u && s->elem == u->elem && s->is_scalar == u->is_scalar && s->rank == u->rank) {
    int differ = 0, at = -1;
    for (int k = 0; k < s->rank; k++)
      if (s->dims[k] != u->dims[k])
        differ++, at = k;
    if (differ == 0)
      dim = -1;
    else if (differ == 1 && u->dims[at] == (int64_t)n * s->dims[at])
      dim = at;
  }
  rtr_buffer_free(s);
  rtr_buffer_free(u);
  return dim;
}

static void layout_str(int dim, char *buf, size_t cap) {
  if (dim < 0)
    snprintf(buf, cap, "whole");
  else
    snprintf(buf, cap, "shard along dim %d", dim);
}

static MlirType arg_type(MlirOperation f, int k) {
  return mlirValueGetType(mlirBlockGetArgument(rt_func_entry_block(f), k));
}

static MlirType result_type(MlirOperation f, int k) {
  return mlirFunctionTypeGetResult(mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
                                       f, mlirStringRefCreateFromCString("function_type"))),
                                   k);
}

static int num_results(MlirOperation f) {
  return (int)mlirFunctionTypeGetNumResults(mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type"))));
}

/* ---- what each rank contributes ------------------------------------------------------ */

enum { RUN_JOINT, RUN_FWD, RUN_BWD, RUNS };
static const char *run_name[RUNS] = {"joint", "fwd", "bwd"};

typedef struct run_stats {
  int64_t started[RTR_COLL_KINDS];
  uint64_t sent, received;
  double ms;
} run_stats;

/* A byte blob of fixed layout: identical in size on every rank (it depends on types
 * only), so one exchange moves everything. */
typedef struct blob {
  unsigned char *data;
  size_t len, cap;
} blob;

static void blob_put(blob *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = 2 * (b->len + n) + 64;
    b->data = xrealloc(b->data, b->cap, 1);
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

static size_t buf_bytes(const rtr_buffer *b) { return (size_t)b->numel * rtr_elem_size(b->elem); }

/* Runs F with the collectives of C, recording what the first run did and the fastest
 * of REPEAT runs (every rank runs the same number of times, so the collectives match). */
static int timed_run(MlirOperation module, MlirOperation f, const rtr_interp_options *run,
                     int repeat, rtr_coll *c, rtr_buffer *const *in, int nin, rtr_buffer ***out,
                     int *nout, run_stats *st) {
  rtr_interp_options o = *run;
  o.coll = c;
  int rc = 0;
  for (int i = 0; i < (repeat > 0 ? repeat : 1) && !rc; i++) {
    rtr_coll_stats before = c->stats;
    rtr_buffer **again = NULL;
    int nagain = 0;
    double t0 = remat_now_ms();
    rc = rtr_interp_run(module, f, &o, in, nin, i ? &again : out, i ? &nagain : nout);
    double ms = remat_now_ms() - t0;
    rtr_buffers_free(again, nagain);
    if (i == 0 || ms < st->ms)
      st->ms = ms;
    if (i)
      continue;
    for (int k = 0; k < RTR_COLL_KINDS; k++)
      st->started[k] = c->stats.started[k] - before.started[k];
    st->sent = c->stats.bytes_sent - before.bytes_sent;
    st->received = c->stats.bytes_received - before.bytes_received;
  }
  return rc;
}

/* ---- the check ----------------------------------------------------------------------- */

typedef struct checked {
  const char *what; /* "joint" or "fwd/bwd" */
  const char *kind; /* "output" or "gradient" */
  int index;        /* within its kind */
  int result;       /* result index of the unsharded joint function */
  size_t offset;    /* in each rank's blob */
  bool same_type;   /* the value has the joint function's type for this result */
} checked;

/* Rank R's value of a result (a view into its blob, typed like TEMPLATE). */
static rtr_buffer view_at(const unsigned char *all, size_t blob_len, int r, size_t offset,
                          const rtr_buffer *template) {
  rtr_buffer v = *template;
  v.data = (void *)(all + (size_t)r * blob_len + offset);
  return v;
}

/* "ranks 0-3" for the report. */
static void ranks_str(int n, char *buf, size_t cap) {
  if (n == 1)
    snprintf(buf, cap, "rank 0");
  else
    snprintf(buf, cap, "ranks 0-%d", n - 1);
}

/* Compares every rank's value of one result with the unsharded value U laid out as DIM;
 * prints one line (rank 0). Returns the number of ranks outside the tolerance, or -1
 * after an error (no memory for a rank's part of U). */
static int compare_result(const rtr_check_options *o, const checked *ck, const rtr_buffer *u,
                          int dim, const unsigned char *all, size_t blob_len, int n,
                          const rtr_buffer *shape, char **err) {
  char ts[128], ls[64], rs[32];
  rtr_buffer_type_str(shape, ts, sizeof ts);
  layout_str(dim, ls, sizeof ls);
  int bad = 0;
  uint64_t worst = 0;
  double worst_rel = 0;
  char fails[256] = "";
  for (int r = 0; r < n; r++) {
    rtr_buffer mine = view_at(all, blob_len, r, ck->offset, shape);
    rtr_buffer *want = (rtr_buffer *)u, *slice = NULL;
    if (dim >= 0) {
      int64_t start[RT_MAX_RANK] = {0}, stride[RT_MAX_RANK];
      for (int k = 0; k < u->rank; k++)
        stride[k] = 1;
      start[dim] = (int64_t)r * shape->dims[dim];
      want = slice = rtr_buffer_new(shape->elem, shape->is_scalar, shape->rank, shape->dims);
      if (!slice) {
        remat_error_add(err, "out of memory for rank %d's part (%s) of %s #%d", r, ts, ck->kind,
                        ck->index);
        return -1;
      }
      rtr_slice(slice, u, start, stride);
    }
    uint64_t ulp;
    double rel;
    if (!rtr_compare_buffers(want, &mine, &ulp, &rel)) {
      if (ulp > worst)
        worst = ulp;
      if (rel > worst_rel)
        worst_rel = rel;
      if (!(o->max_ulp > 0 && ulp <= (uint64_t)o->max_ulp)) {
        bad++;
        size_t l = strlen(fails);
        snprintf(fails + l, sizeof fails - l, "%s%d", l ? "," : "", r);
      }
    }
    rtr_buffer_free(slice);
  }
  ranks_str(n, rs, sizeof rs);
  if (bad)
    fprintf(o->report,
            "  %s %s #%d %s (%s): MISMATCH on rank%s %s: max %llu ulp, max "
            "relative error %.3g\n",
            ck->what, ck->kind, ck->index, ts, ls, bad > 1 ? "s" : "", fails,
            (unsigned long long)worst, worst_rel);
  else if (worst)
    fprintf(o->report, "  %s %s #%d %s (%s): %s within tolerance (max %llu ulp)\n", ck->what,
            ck->kind, ck->index, ts, ls, rs, (unsigned long long)worst);
  else if (!o->quiet)
    fprintf(o->report, "  %s %s #%d %s (%s): %s bit-exact\n", ck->what, ck->kind, ck->index, ts, ls,
            rs);
  return bad;
}

/* The pieces of one check, freed together. */
typedef struct state {
  rtr_buffer **in, **J, **F, **B, **bargs, **primals;
  int nin, nj, nf, nb;
} state;

static void state_free(state *s) {
  rtr_buffers_free(s->in, s->nin);
  rtr_buffers_free(s->J, s->nj);
  rtr_buffers_free(s->F, s->nf);
  rtr_buffers_free(s->B, s->nb);
  free(s->bargs);
  free(s->primals);
}

int rtr_check_sharded(const rtr_sharded_check *s, const rtr_check_options *o, char **err) {
  rtr_coll *c = s->coll;
  int n = c->size > 0 ? c->size : 1, me = c->rank;
  char fwd_name[300], bwd_name[300];
  snprintf(fwd_name, sizeof fwd_name, "%s_fwd", s->name);
  snprintf(bwd_name, sizeof bwd_name, "%s_bwd", s->name);
  bool split = !mlirOperationIsNull(s->split);
  state st = {0};
  int rc = 2, ready = -1;
  int64_t num_out = 0, unum_out = 0;
  int *arg_dim = NULL, *res_dim = NULL, nres = 0, nargs = 0;
  char tb[128], ub[128], ls[64];

  /* 1. The functions, the layouts and this rank's inputs: checked on every rank before
   * any rank communicates. */
  MlirOperation jf = rtr_interp_lookup(s->sharded, s->name);
  MlirOperation uf = rtr_interp_lookup(s->unsharded, s->name);
  MlirOperation ff = split ? rtr_interp_lookup(s->split, fwd_name) : (MlirOperation){NULL};
  MlirOperation bf = split ? rtr_interp_lookup(s->split, bwd_name) : (MlirOperation){NULL};
  if (mlirOperationIsNull(jf) || mlirOperationIsNull(uf) ||
      (split && (mlirOperationIsNull(ff) || mlirOperationIsNull(bf)))) {
    remat_error_add(err, "no function '@%s' in the %s module",
                    mlirOperationIsNull(jf) || mlirOperationIsNull(uf) ? s->name
                    : mlirOperationIsNull(ff)                          ? fwd_name
                                                                       : bwd_name,
                    mlirOperationIsNull(jf)   ? "sharded"
                    : mlirOperationIsNull(uf) ? "unsharded"
                                              : "split");
    goto ready;
  }
  if (!rt_func_num_outputs(jf, &num_out) || !rt_func_num_outputs(uf, &unum_out) ||
      num_out != unum_out) {
    remat_error_add(err,
                    "'@%s' must be a joint function (rt.num_outputs) with "
                    "the same number of outputs in the sharded and the unsharded module",
                    s->name);
    goto ready;
  }
  nargs = (int)mlirBlockGetNumArguments(rt_func_entry_block(jf));
  nres = num_results(jf);
  if (nargs != (int)mlirBlockGetNumArguments(rt_func_entry_block(uf)) || nres != num_results(uf)) {
    remat_error_add(err,
                    "the sharded and the unsharded '@%s' differ in their "
                    "number of arguments or results",
                    s->name);
    goto ready;
  }
  if (rtr_check_groups(s->sharded, c) || (split && rtr_check_groups(s->split, c)))
    goto ready;
  arg_dim = xcalloc((size_t)nargs + 1, sizeof *arg_dim);
  res_dim = xcalloc((size_t)nres + 1, sizeof *res_dim);
  for (int k = 0; k < nargs; k++) {
    arg_dim[k] = layout_of(arg_type(jf, k), arg_type(uf, k), n);
    bool shard = rtr_arg_is_shard(jf, k);
    if (arg_dim[k] == -2 || (arg_dim[k] >= 0) != shard) {
      rt_type_str(arg_type(jf, k), tb, sizeof tb);
      rt_type_str(arg_type(uf, k), ub, sizeof ub);
      if (arg_dim[k] == -2)
        remat_error_add(err,
                        "argument #%d of '@%s': the unsharded '%s' is "
                        "neither '%s' nor %d shards of it along one dimension",
                        k, s->name, ub, tb, n);
      else
        remat_error_add(err,
                        "argument #%d of '@%s' is %s in the sharded "
                        "function ('%s') but the unsharded one takes '%s' (a shard is an "
                        "rt.param argument that reaches an rt.all_gather)",
                        k, s->name, shard ? "a shard" : "not a shard", tb, ub);
      goto ready;
    }
  }
  for (int k = 0; k < nres; k++) {
    res_dim[k] = layout_of(result_type(jf, k), result_type(uf, k), n);
    if (res_dim[k] == -2) {
      remat_error_add(err,
                      "result #%d of '@%s': the unsharded '%s' is neither "
                      "'%s' nor %d shards of it along one dimension",
                      k, s->name, rt_type_str(result_type(uf, k), ub, sizeof ub),
                      rt_type_str(result_type(jf, k), tb, sizeof tb), n);
      goto ready;
    }
  }
  /* Each rank says what it lacks (in *err, which every rank returns). */
  if (o->inputs) {
    char *path = rtr_rank_path(o->inputs, me);
    st.in = rtr_inputs_read(jf, path, &st.nin, err);
    free(path);
  } else
    st.in = rtr_inputs_random_rank(jf, o->seed, o->values, me, &st.nin, err);
  if (!st.in)
    goto ready;
  ready = 0;
ready:
  if (rtr_ranks_agree(c, ready, "not checking", err))
    goto out;

  /* 2. Gradients are laid out like their parameters: gradient j belongs to the j-th
   * floating-point tensor argument that is not a tangent (remat-run --check-fd's rule),
   * when the counts match. */
  int bad = 0, ngrads = nres - (int)num_out;
  {
    int wrt[512], nw = 0;
    for (int k = 0; k < nargs && nw < 512; k++) {
      rtr_buffer *b = rtr_buffer_for_type(arg_type(jf, k));
      if (b && !b->is_scalar && rtr_elem_is_float(b->elem) &&
          !rt_func_arg_has_attr(jf, k, "rt.tangent"))
        wrt[nw++] = k;
      rtr_buffer_free(b);
    }
    for (int j = 0; nw == ngrads && j < ngrads; j++)
      if (res_dim[num_out + j] != arg_dim[wrt[j]]) {
        char ls2[64];
        layout_str(res_dim[num_out + j], ls, sizeof ls);
        layout_str(arg_dim[wrt[j]], ls2, sizeof ls2);
        if (me == 0)
          fprintf(o->report,
                  "  gradient #%d is laid out as %s, its argument #%d as %s: "
                  "MISMATCH\n",
                  j, ls, wrt[j], ls2);
        bad++;
      }
  }

  /* 3. Run the sharded functions on every rank. A failure here is rank-local at worst
   * and other ranks may be waiting in a collective: it ends the job. */
  run_stats rs[RUNS];
  memset(rs, 0, sizeof rs);
  if (timed_run(s->sharded, jf, &s->joint_run, s->repeat, c, st.in, st.nin, &st.J, &st.nj,
                &rs[RUN_JOINT]))
    goto fail_run;
  int nsaved = 0;
  if (split) {
    int np = 0, nt = 0;
    st.primals = xcalloc((size_t)st.nin + 1, sizeof *st.primals);
    for (int k = 0; k < st.nin; k++)
      if (!rt_func_arg_has_attr(jf, k, "rt.tangent"))
        st.primals[np++] = st.in[k];
    nt = st.nin - np;
    if (timed_run(s->split, ff, &s->split_run, s->repeat, c, st.primals, np, &st.F, &st.nf,
                  &rs[RUN_FWD]))
      goto fail_run;
    nsaved = st.nf - (int)num_out;
    if (nsaved < 0) {
      remat_error_add(err, "'@%s' returns fewer values than the %lld outputs", fwd_name,
                      (long long)num_out);
      goto fail_run;
    }
    st.bargs = xcalloc((size_t)(nsaved + nt) + 1, sizeof *st.bargs);
    for (int k = 0; k < nsaved; k++)
      st.bargs[k] = st.F[num_out + k];
    for (int k = 0, t = 0; k < st.nin; k++)
      if (rt_func_arg_has_attr(jf, k, "rt.tangent"))
        st.bargs[nsaved + t++] = st.in[k];
    if (timed_run(s->split, bf, &s->split_run, s->repeat, c, st.bargs, nsaved + nt, &st.B, &st.nb,
                  &rs[RUN_BWD]))
      goto fail_run;
    if (st.nb != ngrads) {
      remat_error_add(err, "'@%s' returns %d gradients, the joint function %d", bwd_name, st.nb,
                      ngrads);
      goto fail_run;
    }
  }

  /* 4. Everything to every rank: statistics, the inputs (for the shards), the results. */
  blob b = {0};
  blob_put(&b, rs, sizeof rs);
  size_t in_off = b.len;
  for (int k = 0; k < st.nin; k++)
    blob_put(&b, st.in[k]->data, buf_bytes(st.in[k]));
  checked *cks = xcalloc((size_t)(2 * nres) + 1, sizeof *cks);
  int ncks = 0;
  for (int k = 0; k < nres; k++) {
    cks[ncks++] = (checked){
        "joint", k < num_out ? "output" : "gradient", k < num_out ? k : k - (int)num_out, k, b.len,
        true};
    blob_put(&b, st.J[k]->data, buf_bytes(st.J[k]));
  }
  for (int k = 0; split && k < nres; k++) {
    const rtr_buffer *v = k < num_out ? st.F[k] : st.B[k - num_out];
    cks[ncks++] = (checked){
        "fwd/bwd", k < num_out ? "output" : "gradient", k < num_out ? k : k - (int)num_out, k,
        b.len,     rtr_buffer_same_type(v, st.J[k])};
    blob_put(&b, v->data, buf_bytes(v));
  }
  unsigned char *all = xmalloc((size_t)n * b.len);
  if (c->exchange(c, b.data, b.len, all)) {
    remat_error_add(err, "rank %d: cannot exchange results", me);
    free(all);
    free(b.data);
    free(cks);
    goto fail_run;
  }

  /* 5. Rank 0: the unsharded model on the concatenated shards, and the comparisons. */
  int verdict = 0;
  if (me == 0) {
    FILE *r = o->report;
    rtr_buffer **uin = xcalloc((size_t)st.nin + 1, sizeof *uin), **U = NULL;
    int nu = 0;
    bool oom = false; /* a copy of an argument did not fit in memory */
    fprintf(r, "check-sharded @%s: sharded on %d rank%s (%s), unsharded on rank 0\n", s->name, n,
            n == 1 ? "" : "s", c->name);
    if (split)
      fprintf(r, "  split: @%s and @%s\n", fwd_name, bwd_name);
    size_t off = in_off;
    for (int k = 0; k < st.nin; k++) {
      rtr_buffer_type_str(st.in[k], tb, sizeof tb);
      if (arg_dim[k] < 0) {
        /* Replicated: every rank must hold the same value (the unsharded model has one). */
        if (!(uin[k] = rtr_buffer_clone(st.in[k])))
          oom = true;
        int differ = -1;
        for (int q = 1; q < n && differ < 0; q++)
          if (memcmp(all + off, all + (size_t)q * b.len + off, buf_bytes(st.in[k])))
            differ = q;
        if (differ >= 0) {
          fprintf(r,
                  "  argument #%d %s: replicated, but rank %d holds another value: "
                  "MISMATCH\n",
                  k, tb, differ);
          bad++;
        } else if (!o->quiet)
          fprintf(r, "  argument #%d %s: replicated\n", k, tb);
      } else {
        rtr_buffer *parts = xcalloc((size_t)n, sizeof *parts);
        const rtr_buffer **pp = xcalloc((size_t)n, sizeof *pp);
        for (int q = 0; q < n; q++) {
          parts[q] = view_at(all, b.len, q, off, st.in[k]);
          pp[q] = &parts[q];
        }
        if (!(uin[k] = rtr_buffer_for_type(arg_type(uf, k))))
          oom = true;
        else
          rtr_concat(uin[k], pp, n, arg_dim[k]);
        free(pp);
        free(parts);
        if (!o->quiet && uin[k])
          fprintf(r, "  argument #%d %s: shard along dim %d of %s\n", k, tb, arg_dim[k],
                  rtr_buffer_type_str(uin[k], ub, sizeof ub));
      }
      off += buf_bytes(st.in[k]);
    }
    rtr_interp_options ref = {.promote_f64 = false};
    if (oom) {
      remat_error_add(err, "out of memory for the unsharded '@%s''s arguments", s->name);
      verdict = 2;
    } else if (rtr_interp_run(s->unsharded, uf, &ref, uin, st.nin, &U, &nu) || nu != nres) {
      remat_error_add(err, "the unsharded '@%s' did not run", s->name);
      verdict = 2;
    } else {
      int i = 0;
      for (; i < ncks; i++) {
        if (!cks[i].same_type) {
          fprintf(r, "  %s %s #%d: its type differs from the joint function's: MISMATCH\n",
                  cks[i].what, cks[i].kind, cks[i].index);
          bad++;
          continue;
        }
        int differ = compare_result(o, &cks[i], U[cks[i].result], res_dim[cks[i].result], all,
                                    b.len, n, st.J[cks[i].result], err);
        if (differ < 0)
          break;
        bad += differ;
      }
      verdict = i < ncks ? 2 : bad ? 1 : 0;
    }
    rtr_buffers_free(U, nu);
    rtr_buffers_free(uin, st.nin);
    /* What the collectives did, per run and per rank. */
    fprintf(r, "  collectives per rank:");
    for (int k = 0; k < RUNS; k++) {
      if (k != RUN_JOINT && !split)
        continue;
      fprintf(r, "%s %s: all_gather %lld, reduce_scatter %lld, all_reduce %lld", k ? ";" : "",
              run_name[k], (long long)rs[k].started[RTR_COLL_ALL_GATHER],
              (long long)rs[k].started[RTR_COLL_REDUCE_SCATTER],
              (long long)rs[k].started[RTR_COLL_ALL_REDUCE]);
    }
    fputc('\n', r);
    for (int q = 0; q < n; q++) {
      run_stats qs[RUNS];
      memcpy(qs, all + (size_t)q * b.len, sizeof qs);
      fprintf(r, "  rank %d: joint sent %llu B, received %llu B, %.3f ms", q,
              (unsigned long long)qs[RUN_JOINT].sent, (unsigned long long)qs[RUN_JOINT].received,
              qs[RUN_JOINT].ms);
      if (split)
        fprintf(r, "; fwd+bwd sent %llu B, received %llu B, %.3f + %.3f ms",
                (unsigned long long)(qs[RUN_FWD].sent + qs[RUN_BWD].sent),
                (unsigned long long)(qs[RUN_FWD].received + qs[RUN_BWD].received), qs[RUN_FWD].ms,
                qs[RUN_BWD].ms);
      fputc('\n', r);
    }
    if (verdict == 0)
      fprintf(r, "ok: sharded on %d rank%s equals unsharded: %d values %s\n", n, n == 1 ? "" : "s",
              ncks, o->max_ulp ? "within tolerance" : "bit-exact");
    else if (verdict == 1)
      remat_error_add(err,
                      "the sharded '@%s' differs from the unsharded one "
                      "(%d mismatches; values counted once per rank)",
                      s->name, bad);
    fflush(r);
  }
  free(all);
  free(b.data);
  free(cks);
  /* 6. Rank 0's verdict to every rank. */
  {
    int *v = xcalloc((size_t)n, sizeof *v);
    if (c->exchange(c, &verdict, sizeof verdict, v))
      goto fail_run;
    rc = v[0];
    free(v);
  }
  goto out;

fail_run:
  rc = 2;
  if (c->size > 1) { /* the caller ends the job */
    remat_error_add(err,
                    "rank %d: the check failed while the ranks "
                    "communicate; aborting every rank",
                    me);
    rc = 3;
  }
out:
  state_free(&st);
  free(arg_dim);
  free(res_dim);
  return rc;
}
