/* remat-opt: parse rt IR, verify it, run remat's passes (and upstream ones) in the order
 * of the flags, print the result. Exit 1 on any error, with a located diagnostic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "remat-c/Remat.h"
#include "support.h"
#include "verify_diagnostics.h"

static void usage(FILE *f) {
  fprintf(f, "usage: remat-opt [options] [input.mlir | -]\n\n"
             "Reads rt IR (a file or stdin), verifies it, runs the selected passes in the\n"
             "order given and prints the result.\n\n"
             "options (a value as --opt VALUE or --opt=VALUE; a pass's options only as\n"
             "--remat-NAME=OPTIONS):\n"
             "  -o FILE                   write the output to FILE (default: stdout)\n"
             "  --pass-pipeline=PIPELINE  upstream MLIR passes, e.g.\n"
             "                            'builtin.module(canonicalize,cse)'\n"
             "  --print-ir-after-all      print the IR after each pass (stderr)\n"
             "  --print-debuginfo         print locations\n"
             "  --timing                  per-pass wall time on stderr\n"
             "  --threads                 let MLIR verify functions and run upstream\n"
             "                            function passes on its thread pool (default:\n"
             "                            one thread)\n"
             "  --remat-report            passes that report (see their 'report' option)\n"
             "                            write what they decided to stderr\n"
             "  --report=FILE             the same, into FILE (truncated first)\n"
             "  --split-input-file        process each part of the input between\n"
             "                            '// -----' lines as a module of its own\n"
             "  --verify-diagnostics      check the diagnostics against the input's\n"
             "                            expected-error/-warning/-note/-remark\n"
             "                            annotations (exit 0 when they match)\n"
             "  --remat-dot=FILE          passes with a 'dot' option (--remat-mincut) draw\n"
             "                            what they decided as Graphviz into FILE\n"
             "  --remat-timeline=FILE     passes with a 'timeline' option (--remat-mincut)\n"
             "                            chart live bytes per step as SVG into FILE\n"
             "  --help                    this text\n\npasses:\n");
  for (intptr_t i = 0; rematGetPassInfo(i); i++) {
    const RematPassInfo *p = rematGetPassInfo(i);
    fprintf(f, "  --%-24s %s\n", p->argument, p->summary);
    if (p->contract && *p->contract)
      fprintf(f, "      %s\n", p->contract);
    for (int k = 0; k < p->num_options; k++) {
      const RematOptionInfo *o = &p->options[k];
      fprintf(f, "      %-22s %s", o->name, o->help);
      if (o->default_value && *o->default_value)
        fprintf(f, " (default %s)", o->default_value);
      fputc('\n', f);
    }
  }
}

static void write_to_file(MlirStringRef s, void *f) { fwrite(s.data, 1, s.length, f); }

/* One pipeline flag, in command-line order: a pass flag ("remat-mincut=OPTIONS", the
 * flag without its dashes) or the text of a --pass-pipeline. */
typedef struct step {
  const char *pass, *pipeline;
} step;

typedef struct options {
  const char *input, *output;
  bool ir_after_all, debuginfo, timing, split_input, verify_diagnostics, threads;
  const char *report;         /* NULL: none; "-": stderr; else a file */
  const char *dot, *timeline; /* --remat-dot=FILE, --remat-timeline=FILE, or NULL */
  step *steps;
  int nsteps;
} options;

/* Builds a remat pass from its option text with rematCreatePass; each string option
 * "report", "dot" and "timeline" of the pass takes the tool's flag unless the text sets
 * it (a later item overrides an earlier one). Returns a null pass after printing an
 * error. */
static MlirPass create_pass(const RematPassInfo *p, const char *text, const options *tool) {
  char err[512];
  MlirPass none = {NULL};
  size_t n = strlen(text) + 1;
  for (int k = 0; k < p->num_options; k++)
    n += REMAT_OPTION_STRING_MAX + 32;
  char *full = malloc(n), *at = full;
  if (!full) {
    fprintf(stderr, "remat-opt: error: out of memory\n");
    return none;
  }
  *at = 0;
  for (int k = 0; k < p->num_options; k++) {
    const RematOptionInfo *o = &p->options[k];
    const char *v = !strcmp(o->name, "report")     ? tool->report
                    : !strcmp(o->name, "dot")      ? tool->dot
                    : !strcmp(o->name, "timeline") ? tool->timeline
                                                   : NULL;
    if (!v || o->type != REMAT_OPTION_FILE)
      continue;
    if (strchr(v, '"') || strlen(v) >= REMAT_OPTION_STRING_MAX) {
      fprintf(stderr,
              "remat-opt: error: the file name '%s' cannot be passed to option '%s' "
              "of --%s\n",
              v, o->name, p->argument);
      free(full);
      return none;
    }
    at += sprintf(at, "%s=\"%s\",", o->name, v);
  }
  strcpy(at, text);
  MlirPass pass = rematCreatePass(p->argument, full, err, sizeof err);
  if (!pass.ptr)
    fprintf(stderr, "remat-opt: error: --%s: %s\n", p->argument, err);
  free(full);
  return pass;
}

/* Hands TEXT[0..n) (upstream passes, comma-separated) to MLIR's pipeline parser. */
static int add_upstream(MlirPassManager pm, const char *text, size_t n, const char *pipe) {
  while (n && (*text == ',' || *text == ' ' || *text == '\t'))
    text++, n--;
  while (n && (text[n - 1] == ',' || text[n - 1] == ' ' || text[n - 1] == '\t'))
    n--;
  if (!n)
    return 0;
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreate(text, n), write_to_file, stderr);
  if (mlirLogicalResultIsSuccess(r))
    return 0;
  fprintf(stderr, "\nremat-opt: error: invalid pass pipeline '%s'\n", pipe);
  if (strstr(pipe, "remat")) {
    fprintf(stderr, "remat-opt: note: remat's passes in a pipeline:");
    for (intptr_t i = 0; rematGetPassInfo(i); i++)
      fprintf(stderr, "%s %s", i ? "," : "", rematGetPassInfo(i)->argument);
    fprintf(stderr, "; options in braces, as remat-mincut{scalar-factor=0.1}; each is "
                    "also a --remat-* flag\n");
  }
  return -1;
}

/* --pass-pipeline=PIPE. The pass manager is anchored on builtin.module, so that anchor
 * is stripped if given. MLIR's registry does not know remat's passes (the C API cannot
 * register them): the top-level items naming one are built here, with their options in
 * braces, and the runs of other items between them go to MLIR's parser, in order. */
static int add_pipeline(MlirPassManager pm, const char *pipe, const options *tool) {
  size_t n = strlen(pipe);
  const char *s = pipe, *end = pipe + n;
  if (!strncmp(pipe, "builtin.module(", 15) && n > 16 && pipe[n - 1] == ')')
    s += 15, end--;
  const char *run = s; /* the upstream items not yet handed over */
  while (s < end) {
    /* one item: up to a comma outside brackets and strings */
    const char *item = s;
    int depth = 0;
    for (; s < end && (depth > 0 || *s != ','); s++)
      if (*s == '"')
        while (s + 1 < end && *++s != '"')
          ;
      else if (*s == '(' || *s == '{' || *s == '[')
        depth++;
      else if (*s == ')' || *s == '}' || *s == ']')
        depth--;
    const char *item_end = s;
    while (item < item_end && (*item == ' ' || *item == '\t'))
      item++;
    while (item_end > item && (item_end[-1] == ' ' || item_end[-1] == '\t'))
      item_end--;
    size_t len = 0;
    while (item + len < item_end && item[len] != '{' && item[len] != '(')
      len++;
    char name[64];
    const RematPassInfo *info = NULL;
    if (len < sizeof name) {
      memcpy(name, item, len);
      name[len] = 0;
      info = rematLookupPass(name);
    }
    if (info) {
      const char *opts = item + len;
      if (opts < item_end && (*opts != '{' || item_end[-1] != '}')) {
        fprintf(stderr,
                "remat-opt: error: --pass-pipeline: '%.*s' takes its options in "
                "braces, as %s{name=value ...}\n",
                (int)(item_end - item), item, name);
        return -1;
      }
      char *text = strndup(opts < item_end ? opts + 1 : opts,
                           opts < item_end ? (size_t)(item_end - opts - 2) : 0);
      if (!text) {
        fprintf(stderr, "remat-opt: error: out of memory\n");
        return -1;
      }
      if (add_upstream(pm, run, (size_t)(item - run), pipe)) {
        free(text);
        return -1;
      }
      MlirPass pass = create_pass(info, text, tool);
      free(text);
      if (!pass.ptr)
        return -1;
      mlirPassManagerAddOwnedPass(pm, pass);
      run = s < end ? s + 1 : s;
    }
    if (s < end)
      s++; /* the comma */
  }
  return add_upstream(pm, run, (size_t)(end - run), pipe);
}

/* Adds one pipeline flag to pm. Returns 0, or -1 after printing an error. */
static int add_flag(MlirPassManager pm, const step *st, const options *tool) {
  if (st->pipeline)
    return add_pipeline(pm, st->pipeline, tool);
  const char *name = st->pass, *eq = strchr(name, '=');
  char *pass_name = strndup(name, eq ? (size_t)(eq - name) : strlen(name));
  if (!pass_name) {
    fprintf(stderr, "remat-opt: error: out of memory\n");
    return -1;
  }
  const RematPassInfo *info = rematLookupPass(pass_name);
  free(pass_name);
  if (!info) {
    fprintf(stderr, "remat-opt: error: unknown option '--%s' (see --help)\n", name);
    return -1;
  }
  MlirPass pass = create_pass(info, eq ? eq + 1 : "", tool);
  if (!pass.ptr)
    return -1;
  mlirPassManagerAddOwnedPass(pm, pass);
  return 0;
}

/* The pipeline flags of the command line, in order. 0, or 1 after an error. */
static int add_passes(MlirPassManager pm, const options *o) {
  for (int i = 0; i < o->nsteps; i++)
    if (add_flag(pm, &o->steps[i], o))
      return 1;
  return 0;
}

/* Where the modules go: opened at the first module printed, so a failed run leaves an
 * existing output file alone. */
typedef struct sink {
  const char *path;
  FILE *f;
  int printed;
} sink;

static FILE *sink_file(sink *s) {
  if (!s->f) {
    s->f = stdout;
    if (s->path && strcmp(s->path, "-") && !(s->f = fopen(s->path, "w"))) {
      fprintf(stderr, "remat-opt: error: cannot open '%s' for writing: %s\n", s->path,
              strerror(errno));
      s->f = NULL;
    }
  }
  return s->f;
}

/* Every write is checked (a full disk, a closed pipe): losing output is an error. */
static int sink_close(sink *s) {
  if (!s->f)
    return 0;
  int failed = fflush(s->f) != 0 || ferror(s->f);
  int err = errno;
  if (s->f != stdout && fclose(s->f) && !failed)
    failed = 1, err = errno;
  if (failed) {
    fprintf(stderr, "remat-opt: error: cannot write the output to '%s': %s\n",
            s->f == stdout ? "<stdout>" : s->path, strerror(err));
    return 1;
  }
  return 0;
}

/* Verifies MODULE, runs the pipeline the flags give on it and prints it to OUT. */
static int process(MlirContext ctx, MlirModule module, const options *o, sink *out) {
  MlirOperation top = mlirModuleGetOperation(module);
  if (mlirLogicalResultIsFailure(rematVerify(top)))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->debuginfo)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  if (o->ir_after_all) {
    mlirContextEnableMultithreading(ctx, false); /* module-scope printing needs it */
    mlirPassManagerEnableIRPrinting(pm, false, true, true, false, false, flags,
                                    mlirStringRefCreate(NULL, 0));
  }
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  int rc = add_passes(pm, o);
  if (rc == 0 && mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, top)))
    rc = 1;
  mlirPassManagerDestroy(pm); /* prints the timing report */
  FILE *f = rc == 0 ? sink_file(out) : NULL;
  if (rc == 0 && !f)
    rc = 1;
  if (f) {
    if (out->printed++)
      fputs("// -----\n", f);
    mlirOperationPrintWithFlags(top, flags, write_to_file, f);
    fputc('\n', f);
  }
  mlirOpPrintingFlagsDestroy(flags);
  return rc;
}

/* The whole input, NUL-terminated; NULL after an error message. */
static char *read_input(const char *path) {
  FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
  char *s = f ? remat_read_all(f, NULL) : NULL;
  if (f && f != stdin)
    fclose(f);
  if (!s)
    fprintf(stderr, "remat-opt: error: cannot read '%s'\n", path);
  return s;
}

/* Parses the LEN bytes of CHUNK, which start at line FIRST of the input NAME, as a module:
 * it is put in a module that opens on the line before it (line FIRST keeps its number;
 * on line 1, columns shift by the 8 characters of "module {"), and a chunk that is one
 * module is taken out of it again. */
static MlirModule parse_chunk(MlirContext ctx, const char *name, const char *chunk, size_t len,
                              int first) {
  size_t pad = first > 1 ? (size_t)first - 1 : 0, n = 9 + pad + len + 3;
  char *text = malloc(n), *p = text;
  if (!text) {
    fprintf(stderr, "remat-opt: error: out of memory\n");
    return (MlirModule){NULL};
  }
  p += sprintf(p, "module {");
  for (size_t i = 0; i < pad; i++)
    *p++ = '\n';
  memcpy(p, chunk, len);
  p += len;
  p += sprintf(p, "\n}");
  MlirOperation op = mlirOperationCreateParse(ctx, mlirStringRefCreate(text, (size_t)(p - text)),
                                              mlirStringRefCreateFromCString(name));
  free(text);
  if (mlirOperationIsNull(op))
    return (MlirModule){NULL};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation only = mlirBlockGetFirstOperation(body);
  if (!mlirOperationIsNull(only) && mlirOperationIsNull(mlirOperationGetNextInBlock(only)) &&
      mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(only)),
                         mlirStringRefCreateFromCString("builtin.module"))) {
    mlirOperationRemoveFromParent(only);
    mlirOperationDestroy(op);
    op = only;
  }
  return mlirModuleFromOperation(op);
}

static bool is_split_line(const char *line) { return !strncmp(line, "// -----", 8); }

/* --split-input-file and --verify-diagnostics: the input read whole, parsed part by part.
 */
static int run_parts(MlirContext ctx, const options *o, sink *out) {
  char *input = read_input(o->input);
  if (!input)
    return 1;
  const char *name = strcmp(o->input, "-") ? o->input : "<stdin>";
  /* The nesting limit on the whole input, before MLIR's parser sees any part of it. */
  if (mlirLogicalResultIsFailure(rematCheckNesting(ctx, mlirStringRefCreateFromCString(input),
                                                   mlirStringRefCreateFromCString(name)))) {
    free(input);
    return 1;
  }
  diag_log log = {NULL, 0, 0};
  MlirDiagnosticHandlerID handler = 0;
  if (o->verify_diagnostics)
    handler = diag_log_attach(ctx, &log);
  int rc = 0, line = 1, first = 1;
  const char *start = input;
  for (const char *p = input;; p++) {
    bool at_line_start = p == input || p[-1] == '\n';
    bool split = o->split_input && at_line_start && is_split_line(p);
    if (!split && *p) {
      line += *p == '\n';
      continue;
    }
    MlirModule m = parse_chunk(ctx, name, start, (size_t)(p - start), first);
    rc |= mlirModuleIsNull(m) ? 1 : process(ctx, m, o, out);
    if (!mlirModuleIsNull(m))
      mlirModuleDestroy(m);
    if (!*p)
      break;
    while (*p && *p != '\n') /* the separator line */
      p++;
    if (!*p)
      break;
    start = p + 1;
    first = ++line;
  }
  if (o->verify_diagnostics) {
    mlirContextDetachDiagnosticHandler(ctx, handler);
    rc = diag_log_verify(&log, name, input) ? 1 : 0;
  }
  free(input);
  diag_log_free(&log);
  return rc;
}

static int run(MlirContext ctx, const options *o) {
  /* Bad pass options are reported before the input is read: parsing 10^6 ops takes
   * seconds. The check's manager is thrown away; each module gets a fresh one. */
  MlirPassManager check = mlirPassManagerCreate(ctx);
  int bad = add_passes(check, o);
  mlirPassManagerDestroy(check);
  if (bad)
    return 1;
  if (o->report && strcmp(o->report, "-")) {
    /* Passes append to the file: start it empty, and fail early if it cannot be written
     * (after the passes' options accepted its name: report=123 creates no file). */
    FILE *f = fopen(o->report, "w");
    if (!f || fclose(f)) {
      fprintf(stderr, "remat-opt: error: cannot open '%s' for writing: %s\n", o->report,
              strerror(errno));
      return 1;
    }
  }
  sink out = {o->output, NULL, 0};
  int rc;
  if (o->split_input || o->verify_diagnostics)
    rc = run_parts(ctx, o, &out);
  else {
    MlirModule module = rematParseFile(ctx, o->input); /* nesting checked first */
    rc = mlirModuleIsNull(module) ? 1 : process(ctx, module, o, &out);
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
  }
  return sink_close(&out) ? 1 : rc;
}

/* Whether paths A and B name one existing file. */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The input and output files make sense together: stdin is not a terminal or empty when
 * no input file is named, and no output overwrites the input. 0, or -1 after an error. */
static int check_files(const options *o, bool input_named) {
  if (!input_named) {
    if (isatty(STDIN_FILENO)) {
      fprintf(stderr, "remat-opt: error: no input file (stdin is a terminal; name a file, "
                      "or '-' to type the input)\n");
      return -1;
    }
    int c = getc(stdin);
    if (c == EOF) {
      fprintf(stderr, "remat-opt: error: no input file, and stdin is empty\n");
      return -1;
    }
    ungetc(c, stdin);
  }
  bool from_file = strcmp(o->input, "-");
  const char *outs[] = {o->output, o->report, o->dot, o->timeline};
  const char *what[] = {"-o", "--report", "--remat-dot", "--remat-timeline"};
  for (int k = 0; k < 4; k++)
    if (from_file && outs[k] && strcmp(outs[k], "-") && same_file(o->input, outs[k])) {
      fprintf(stderr,
              "remat-opt: error: %s '%s' names the input file; refusing to overwrite "
              "it\n",
              what[k], outs[k]);
      return -1;
    }
  return 0;
}

/* Reads the command line into O (O->steps has room for argc steps). 0, 1 after an
 * error, or -1 for --help (printed). */
static int parse_args(int argc, char **argv, options *o) {
  int inputs = 0;
  bool draws = false; /* a pass that writes --remat-dot and --remat-timeline files */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
#define VALUE(flag) cli_value(argc, argv, &i, flag, &v)
    if (cli_flag(a, "--help") || cli_flag(a, "-h")) {
      usage(stdout);
      return -1;
    } else if (VALUE("-o"))
      o->output = v;
    else if (cli_flag(a, "--print-ir-after-all"))
      o->ir_after_all = true;
    else if (cli_flag(a, "--print-debuginfo"))
      o->debuginfo = true;
    else if (cli_flag(a, "--timing"))
      o->timing = true;
    else if (cli_flag(a, "--threads"))
      o->threads = true;
    else if (cli_flag(a, "--split-input-file"))
      o->split_input = true;
    else if (cli_flag(a, "--verify-diagnostics"))
      o->verify_diagnostics = true;
    else if (cli_flag(a, "--remat-report")) {
      if (!o->report)
        o->report = "-";
    } else if (VALUE("--report"))
      o->report = v;
    else if (VALUE("--remat-dot"))
      o->dot = v;
    else if (VALUE("--remat-timeline"))
      o->timeline = v;
    else if (VALUE("--pass-pipeline")) {
      o->steps[o->nsteps++] = (step){NULL, v};
      draws |= strstr(v, "remat-mincut") != NULL;
    } else if (!strncmp(a, "--remat-", 8)) {
      /* a pass: its options only as --remat-NAME=OPTIONS, as getopt_long takes an
       * optional value (a next argument would be the input file) */
      o->steps[o->nsteps++] = (step){a + 2, NULL};
      draws |= !strcmp(a, "--remat-mincut") || !strncmp(a, "--remat-mincut=", 15);
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "remat-opt: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else {
      o->input = a;
      inputs++;
    }
#undef VALUE
  }
  if (inputs > 1) {
    fprintf(stderr, "remat-opt: error: more than one input file\n");
    return 1;
  }
  if ((o->dot || o->timeline) && !draws) {
    fprintf(stderr,
            "remat-opt: error: --remat-%s draws what --remat-mincut decides: add "
            "--remat-mincut\n",
            o->dot ? "dot" : "timeline");
    return 1;
  }
  return check_files(o, inputs == 1) ? 1 : 0;
}

int main(int argc, char **argv) {
  options o = {.input = "-", .steps = calloc((size_t)argc, sizeof(step))};
  cli_prog = "remat-opt";
  if (!o.steps) {
    fprintf(stderr, "remat-opt: error: out of memory\n");
    return 1;
  }
  int rc = parse_args(argc, argv, &o);
  if (rc) {
    free(o.steps);
    return rc < 0 ? 0 : 1;
  }
  mlirRegisterAllPasses(); /* upstream passes for --pass-pipeline */
  MlirContext ctx = rematContextCreate(stderr, NULL);
  if (mlirContextIsNull(ctx)) {
    fprintf(stderr, "remat-opt: error: cannot load the rt dialect\n");
    free(o.steps);
    return 1;
  }
  /* remat's passes run on the whole module; MLIR's threads would only verify the
   * functions in parallel (after parsing and after each pass). Starting its pool took 1-10
   * ms inside the first pass, 5-50x the split of a small graph (bench/RESULTS.md, "Pass
   * speed"), so one thread unless asked. */
  mlirContextEnableMultithreading(ctx, o.threads);
  rc = run(ctx, &o);
  mlirContextDestroy(ctx);
  free(o.steps);
  return rc;
}
