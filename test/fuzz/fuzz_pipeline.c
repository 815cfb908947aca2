/* fuzz_pipeline: libFuzzer harness over whole pipelines (issue 44: fuzz_options varies
 * one pass's options at a time, so it never met the aborts that come from two passes'
 * options together).
 *
 * An input is lines of text:
 *   MODULE [unit|wide|special]
 *   PASS[=OPTIONS]            (up to 8 lines, run in order)
 * MODULE is a decimal index (taken modulo the number of modules) or the path of one, as
 * the list below names it: every .mlir of examples/, test/autodiff/Inputs/,
 * test/checkpoint/, test/fuzz/Inputs/ (remat-gen graphs drawn with --values=wide and
 * special among them) and test/mincut/ that parses, verifies and holds at most MAX_OPS
 * ops (examples/gpt-joint.mlir, 600, takes 5 s a run here), sorted by path (an index
 * means the same module from run to run while the tree does not change). As in fuzz_ir,
 * each input gets a fresh context into which its module is parsed, so a finding
 * reproduces from its input alone and the attributes a run adds do not pile up. A PASS line is as fuzz_options reads it
 * ("remat-mincut=objective=peak,peak-budget=4096"); options naming files are sent to
 * /dev/null.
 *
 * Each pass runs on its own pass manager on a copy of the module; before the first
 * remat-mincut the module is copied again: that is the joint module the split is
 * checked against. A run ends in one of:
 *   - a rejected option (a message, else abort) or a failed pass (a diagnostic, else
 *     abort): a located error, as remat-opt reports it;
 *   - success: the IR verifies and parses back (fuzz_check_output), and every joint
 *     function the min-cut split runs, with inputs drawn from seed 0 and the first
 *     line's distribution on the reference interpreter, to the same bits as its
 *     @f_fwd/@f_bwd do (rtr_check_split, what remat-run --check-split-all checks), else
 *     abort. A joint function that cannot run on those inputs (an index out of range, an
 *     op the runtime does not execute) is not checked, nor are the modules with a value
 *     above CHECKED_BYTES (the checkpoint tests' GiB-sized stages: seconds per run).
 * An internal error (remat_fatal) aborts too: each is a finding.
 *
 * peak-search=exact and enumerate are exponential by design (refused above 40 and 20
 * candidate values); on a module of more than EXHAUSTIVE_OPS ops when the min-cut runs
 * (after autodiff: test/autodiff/Inputs/mlp-forward.mlir grows from 21 to 47 ops, and
 * enumerate took 15 s there under the sanitizers) they run as auto, so one input cannot
 * take minutes. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_common.h"
#include "interp.h"
#include "io.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Remat.h"
#include "rt.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

enum { MAX_PASSES = 8, EXHAUSTIVE_OPS = 24, CHECKED_BYTES = 1 << 20, MAX_OPS = 300 };

typedef struct fuzz_module {
  char *path; /* relative to the source tree */
  long ops;
  uint64_t largest; /* bytes of its largest value */
} fuzz_module;

static fuzz_module *mods;
static int nmods;
static int diagnostics;
static FILE *devnull;

static void weigh(fuzz_module *fm, MlirType t) {
  uint64_t bytes;
  if (rt_type_bytes(t, &bytes) == 0 && bytes > fm->largest)
    fm->largest = bytes;
}

/* Counts the ops of a module and weighs their results and block arguments. */
static MlirWalkResult measure(MlirOperation op, void *user) {
  fuzz_module *fm = user;
  fm->ops++;
  for (intptr_t k = 0; k < mlirOperationGetNumResults(op); k++)
    weigh(fm, mlirValueGetType(mlirOperationGetResult(op, k)));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t k = 0; k < mlirBlockGetNumArguments(b); k++)
        weigh(fm, mlirValueGetType(mlirBlockGetArgument(b, k)));
  return MlirWalkResultAdvance;
}

static int is_mlir(const struct dirent *e) {
  size_t n = strlen(e->d_name);
  return n > 5 && !strcmp(e->d_name + n - 5, ".mlir");
}

/* Adds the .mlir files of DIR that parse and verify in CTX. */
static void add_dir(MlirContext ctx, const char *dir) {
  char *full = NULL;
  struct dirent **names;
  int n = scandir(dir, &names, is_mlir, alphasort);
  for (int k = 0; k < n; k++) {
    size_t len = strlen(dir) + strlen(names[k]->d_name) + 2;
    full = malloc(len);
    if (!full)
      abort();
    snprintf(full, len, "%s/%s", dir, names[k]->d_name);
    free(names[k]);
    MlirModule m = rematParseFile(ctx, full);
    if (mlirModuleIsNull(m) || mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(m)))) {
      if (!mlirModuleIsNull(m))
        mlirModuleDestroy(m);
      free(full);
      continue;
    }
    fuzz_module *grown = realloc(mods, (size_t)(nmods + 1) * sizeof *mods);
    if (!grown)
      abort();
    mods = grown;
    mods[nmods] = (fuzz_module){full, 0, 0};
    mlirOperationWalk(mlirModuleGetOperation(m), measure, &mods[nmods], MlirWalkPreOrder);
    mlirModuleDestroy(m);
    if (mods[nmods].ops <= MAX_OPS)
      nmods++;
    else
      free(full);
  }
  free(names);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  static const char *const dirs[] = {"examples", "test/autodiff/Inputs", "test/checkpoint",
                                     "test/fuzz/Inputs", "test/mincut"};
  if (chdir(REMAT_FUZZ_SOURCE_DIR))
    abort();
  MlirContext ctx = fuzz_context();
  mlirContextAttachDiagnosticHandler(ctx, fuzz_swallow, &diagnostics, NULL);
  for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++)
    add_dir(ctx, dirs[k]);
  mlirContextDestroy(ctx);
  devnull = fopen("/dev/null", "w");
  if (nmods < 10 || !devnull)
    abort(); /* the tree is not where REMAT_FUZZ_SOURCE_DIR says */
  return 0;
}

/* The module a first line names: a decimal index, or a path of the list. NULL: none. */
static fuzz_module *find_module(const char *word) {
  if (*word && strspn(word, "0123456789") == strlen(word))
    return &mods[strtoull(word, NULL, 10) % (unsigned long long)nmods];
  for (int k = 0; k < nmods; k++)
    if (!strcmp(mods[k].path, word))
      return &mods[k];
  return NULL;
}

static MlirOperation find_func(MlirOperation module, const char *name) {
  return rtr_interp_lookup(module, name);
}

/* Every joint function of JOINT that SPLIT holds as NAME_fwd/NAME_bwd runs to the same
 * bits both ways (abort otherwise), when it runs at all. */
static void check_splits(MlirOperation joint, MlirOperation split, rtr_values values,
                         const char *input) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(joint, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    int64_t nout;
    if (!rt_str_eq(mlirIdentifierStr(mlirOperationGetName(f)), "func.func") ||
        !rt_func_num_outputs(f, &nout))
      continue;
    MlirStringRef n = rt_func_name(f);
    char name[512], fwd[520], bwd[520];
    if (n.length >= sizeof name)
      continue;
    snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
    snprintf(fwd, sizeof fwd, "%s_fwd", name);
    snprintf(bwd, sizeof bwd, "%s_bwd", name);
    if (mlirOperationIsNull(find_func(split, fwd)) || mlirOperationIsNull(find_func(split, bwd)))
      continue;
    /* first the joint function alone: inputs it cannot run on are no split's fault */
    char *err = NULL;
    int nin = 0, nres = 0;
    rtr_buffer **in = rtr_inputs_random(f, 0, values, &nin, &err), **res = NULL;
    rtr_interp_options ref = {.promote_f64 = false};
    bool runs = in && rtr_interp_run(joint, f, &ref, in, nin, &res, &nres) == 0;
    rtr_buffers_free(res, nres);
    rtr_buffers_free(in, nin);
    free(err);
    err = NULL;
    if (!runs)
      continue;
    rtr_check_options co = {
        .seed = 0, .run = ref, .report = devnull, .quiet = true, .values = values};
    if (rtr_check_split(joint, split, name, &co, NULL, &err)) {
      fprintf(stderr, "fuzz_pipeline: the split of '@%s' differs from it: %s\ninput:\n%s\n", name,
              err ? err : "", input);
      abort();
    }
    free(err);
  }
}

/* fuzz_build_pass's ADJUST: exact and enumerate as auto on a module of more than
 * EXHAUSTIVE_OPS ops (*(long *)OPS). */
static void tame_search(const RematOptionInfo *o, void *value, void *ops) {
  if (!strcmp(o->name, "peak-search") && *(long *)ops > EXHAUSTIVE_OPS &&
      (!strcmp(value, "exact") || !strcmp(value, "enumerate")))
    strcpy(value, "auto");
}

/* Parses PASS[=OPTIONS] and builds the pass for a module of OPS ops; a null pass when the
 * options are rejected (with a message, else abort) or the pass is not one of remat's. */
static MlirPass build(char *line, long ops, bool *is_mincut) {
  char *eq = strchr(line, '=');
  if (eq)
    *eq = 0;
  const RematPassInfo *info = rematLookupPass(line);
  if (!info || !info->create)
    return (MlirPass){NULL};
  *is_mincut = !strcmp(info->argument, "remat-mincut");
  return fuzz_build_pass(info, eq ? eq + 1 : "", tame_search, &ops);
}

/* ---- the mutator: combinations, not only bytes ------------------------------------ */

/* Values each option takes in the generated lines: the edges (0, -1, 1e9, tiny stages,
 * budgets below and above the graphs' bytes) and the ordinary. */
typedef struct option_values {
  const char *pass, *name, *values[8];
} option_values;

static const option_values TABLE[] = {
    {"remat-checkpoint", "ac", {"none", "auto", "1e-9", "1e-6", "0.001", "1", "1e-300"}},
    {"remat-checkpoint", "fsdp", {"recompute", "save", "off"}},
    {"remat-checkpoint",
     "save-ops",
     {"mm", "bmm", "none", "rt.matmul", "rt.mul,rt.exp", "rt.tanh"}},
    {"remat-checkpoint", "always-save", {"none", "bmm", "rt.tanh", "rt.matmul"}},
    {"remat-checkpoint", "save-every", {"1", "2", "3", "1000"}},
    {"remat-checkpoint", "memory-budget", {"-1", "0", "1", "100", "4096", "100000", "1000000"}},
    {"remat-checkpoint", "budget-greedy", {"true", "false"}},
    {"remat-mincut", "scalar-factor", {"0", "0.1", "1", "1e9", "1e-300"}},
    {"remat-mincut", "params-free", {"true", "false"}},
    {"remat-mincut",
     "ban",
     {"none", "matmul", "elementwise", "rt.full", "random,compare", "structural,reduction",
      "indexing", "matmul,reduction,collective"}},
    {"remat-mincut", "ban-random", {"true", "false"}},
    {"remat-mincut", "objective", {"bytes", "peak", "peak", "peak"}},
    {"remat-mincut", "peak-budget", {"0", "1", "100", "4096", "100000"}},
    {"remat-mincut", "peak-search", {"auto", "exact", "heuristic", "enumerate"}},
    {"remat-fuse", "max-ops", {"0", "1", "2", "3", "8"}},
    {"remat-fuse", "grouping", {"index", "shape"}},
    {"remat-fuse", "duplicate", {"true", "false"}},
    {"remat-fuse", "dedup", {"true", "false"}},
};
static const char *const PASSES[] = {"remat-autodiff", "remat-checkpoint", "remat-mincut",
                                     "remat-fuse"};

static unsigned next_rand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

/* Appends to OUT (of CAP bytes, NUL-terminated) a random line for PASS. */
static void random_pass(char *out, size_t cap, const char *pass, unsigned *r) {
  size_t n = strlen(out);
  n += (size_t)snprintf(out + n, cap - n, "%s", pass);
  const char *sep = "=";
  for (size_t k = 0; k < sizeof TABLE / sizeof *TABLE && n < cap; k++) {
    if (strcmp(TABLE[k].pass, pass) || next_rand(r) % 3)
      continue;
    int nv = 0;
    while (nv < 8 && TABLE[k].values[nv])
      nv++;
    n += (size_t)snprintf(out + n, cap - n, "%s%s=%s", sep, TABLE[k].name,
                          TABLE[k].values[next_rand(r) % (unsigned)nv]);
    sep = ",";
  }
  if (n < cap)
    snprintf(out + n, cap - n, "\n");
}

/* Half the time libFuzzer's byte mutations (option syntax, odd values); else a pipeline
 * drawn from TABLE on a random module and distribution, or one line of the input redrawn:
 * libFuzzer's mutations alone seldom turn one valid combination into another. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed) {
  unsigned r = seed;
  if (next_rand(&r) % 2)
    return LLVMFuzzerMutate(data, size, max);
  static const char *const dists[] = {"unit", "wide", "special"};
  char out[2048] = "";
  snprintf(out, sizeof out, "%u %s\n", next_rand(&r) % (unsigned)nmods, dists[next_rand(&r) % 3]);
  /* the input's own pass lines, one of them redrawn or dropped, or a new pipeline */
  char *text = malloc(size + 1);
  if (!text)
    abort();
  memcpy(text, data, size);
  text[size] = 0;
  bool keep = next_rand(&r) % 2, first = true;
  int redraw = (int)(next_rand(&r) % 6), line = 0;
  for (char *s = text, *next; keep && s; s = next, first = false) {
    next = strchr(s, '\n');
    if (next)
      *next++ = 0;
    if (first) { /* the module: kept half the time */
      if (next_rand(&r) % 2 && strlen(s) + 2 < sizeof out)
        snprintf(out, sizeof out, "%s\n", s);
      continue;
    }
    if (!*s || line++ == redraw)
      continue; /* dropped, or redrawn below */
    size_t n = strlen(out);
    if (n + strlen(s) + 2 < sizeof out)
      snprintf(out + n, sizeof out - n, "%s\n", s);
  }
  free(text);
  if (!keep) /* a new pipeline, in the passes' order, each pass present or not */
    for (int k = 0; k < 4; k++) {
      if (next_rand(&r) % 4)
        random_pass(out, sizeof out, PASSES[k], &r);
    }
  else if (line < MAX_PASSES)
    random_pass(out, sizeof out, PASSES[next_rand(&r) % 4], &r);
  size_t n = strlen(out);
  if (n > max)
    return LLVMFuzzerMutate(data, size, max);
  memcpy(data, out, n);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *input = malloc(size + 1), *text = malloc(size + 1);
  if (!input || !text)
    abort();
  memcpy(input, data, size);
  input[size] = 0;
  memcpy(text, input, size + 1);
  MlirContext ctx = {NULL};
  MlirModule m = {NULL};
  MlirOperation cur = {NULL}, joint = {NULL};
  char *lines[MAX_PASSES + 1];
  int nlines = 0;
  for (char *s = text, *next; s && nlines <= MAX_PASSES; s = next) {
    next = strchr(s, '\n');
    if (next)
      *next++ = 0;
    if (*s)
      lines[nlines++] = s;
  }
  /* the first line: MODULE [VALUES] */
  char *word = nlines && strlen(input) == size ? strtok(lines[0], " ") : NULL;
  fuzz_module *fm = word ? find_module(word) : NULL;
  char *dist = fm ? strtok(NULL, " ") : NULL;
  rtr_values values = RTR_VALUES_UNIT;
  if (!fm || (dist && (!rtr_values_parse(dist, &values) || strtok(NULL, " "))))
    goto done;
  ctx = fuzz_context();
  mlirContextAttachDiagnosticHandler(ctx, fuzz_swallow, &diagnostics, NULL);
  m = rematParseFile(ctx, fm->path);
  if (mlirModuleIsNull(m))
    abort(); /* it parsed at the start */
  cur = mlirModuleGetOperation(m);
  for (int k = 1; k < nlines; k++) {
    bool is_mincut = false;
    fuzz_module now = {NULL, 0, 0};
    mlirOperationWalk(cur, measure, &now, MlirWalkPreOrder);
    MlirPass pass = build(lines[k], now.ops, &is_mincut);
    if (!pass.ptr)
      goto done;
    if (is_mincut && mlirOperationIsNull(joint))
      joint = mlirOperationClone(cur);
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    mlirPassManagerAddOwnedPass(pm, pass);
    int before = diagnostics;
    bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, cur));
    mlirPassManagerDestroy(pm);
    if (!ok) {
      if (diagnostics == before) {
        fprintf(stderr, "fuzz_pipeline: a pass failed without a diagnostic\ninput:\n%s\n", input);
        abort();
      }
      goto done;
    }
  }
  fuzz_check_output(ctx, cur, "fuzz_pipeline: '%s'", input);
  if (!mlirOperationIsNull(joint) && fm->largest <= CHECKED_BYTES)
    check_splits(joint, cur, values, input);
done:
  if (!mlirOperationIsNull(joint))
    mlirOperationDestroy(joint);
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);
  if (!mlirContextIsNull(ctx))
    mlirContextDestroy(ctx);
  free(text);
  free(input);
  return 0;
}
