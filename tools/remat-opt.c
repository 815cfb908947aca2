/* remat-opt: parse rt IR, verify it, run remat's passes (and upstream ones) in the order
 * of the flags, print the result. Exit 1 on any error, with a located diagnostic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "remat-c/Remat.h"

static void usage(FILE *f) {
  fprintf(f, "usage: remat-opt [options] [input.mlir | -]\n\n"
             "Reads rt IR (a file or stdin), verifies it, runs the selected passes in the\n"
             "order given and prints the result.\n\n"
             "options:\n"
             "  -o FILE                   write the output to FILE (default: stdout)\n"
             "  --pass-pipeline=PIPELINE  upstream MLIR passes, e.g.\n"
             "                            'builtin.module(canonicalize,cse)'\n"
             "  --print-ir-after-all      print the IR after each pass (stderr)\n"
             "  --print-debuginfo         print locations\n"
             "  --timing                  per-pass wall time on stderr\n"
             "  --remat-report            passes that report (see their 'report' option)\n"
             "                            write what they decided to stderr\n"
             "  --report=FILE             the same, into FILE (truncated first)\n"
             "  --remat-dot=FILE          passes with a 'dot' option (--remat-mincut) draw\n"
             "                            what they decided as Graphviz into FILE\n"
             "  --remat-timeline=FILE     passes with a 'timeline' option (--remat-mincut)\n"
             "                            chart live bytes per step as SVG into FILE\n"
             "  --help                    this text\n\npasses:\n");
  for (intptr_t i = 0; rematGetPassInfo(i); i++) {
    const RematPassInfo *p = rematGetPassInfo(i);
    fprintf(f, "  --%-24s %s\n", p->argument, p->create ? p->summary : "not implemented yet");
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

typedef struct options {
  const char *input, *output;
  bool ir_after_all, debuginfo, timing;
  const char *report; /* NULL: none; "-": stderr; else a file */
  const char *dot, *timeline; /* --remat-dot=FILE, --remat-timeline=FILE, or NULL */
} options;

/* Tool flags that set a pass's string option of the same name when the pass's own
 * option text leaves it empty. */
static bool is_tool_flag(const char *a) {
  return !strcmp(a, "--remat-report") || !strncmp(a, "--remat-dot=", 12) ||
         !strncmp(a, "--remat-timeline=", 17);
}

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
    if (!v || o->type != REMAT_OPTION_STRING)
      continue;
    if (strchr(v, '"') || strlen(v) >= REMAT_OPTION_STRING_MAX) {
      fprintf(stderr, "remat-opt: error: the file name '%s' cannot be passed to option '%s' "
                      "of --%s\n", v, o->name, p->argument);
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

/* Adds one pipeline flag to pm. Returns 0, or -1 after printing an error. */
static int add_flag(MlirPassManager pm, const char *arg, const options *tool) {
  if (!strncmp(arg, "--pass-pipeline=", 16)) {
    const char *pipe = arg + 16;
    size_t n = strlen(pipe);
    /* The pass manager is anchored on builtin.module: strip that anchor if given. */
    char *inner = strdup(pipe);
    if (!inner) {
      fprintf(stderr, "remat-opt: error: out of memory\n");
      return -1;
    }
    if (!strncmp(pipe, "builtin.module(", 15) && n > 16 && pipe[n - 1] == ')') {
      memcpy(inner, pipe + 15, n - 16);
      inner[n - 16] = 0;
    }
    MlirLogicalResult r = mlirOpPassManagerAddPipeline(
        mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(inner),
        write_to_file, stderr);
    free(inner);
    if (mlirLogicalResultIsFailure(r)) {
      fprintf(stderr, "\nremat-opt: error: invalid pass pipeline '%s'\n", pipe);
      return -1;
    }
    return 0;
  }
  const char *name = arg + 2, *eq = strchr(name, '=');
  char *pass_name = strndup(name, eq ? (size_t)(eq - name) : strlen(name));
  if (!pass_name) {
    fprintf(stderr, "remat-opt: error: out of memory\n");
    return -1;
  }
  const RematPassInfo *info = rematLookupPass(pass_name);
  free(pass_name);
  if (!info) {
    fprintf(stderr, "remat-opt: error: unknown option '%s' (see --help)\n", arg);
    return -1;
  }
  MlirPass pass = create_pass(info, eq ? eq + 1 : "", tool);
  if (!pass.ptr)
    return -1;
  mlirPassManagerAddOwnedPass(pm, pass);
  return 0;
}

static int run(MlirContext ctx, const options *o, int argc, char **argv) {
  MlirModule module = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(o->input));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation top = mlirModuleGetOperation(module);
  if (mlirLogicalResultIsFailure(rematVerify(top))) {
    mlirModuleDestroy(module);
    return 1;
  }
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
  int rc = 0;
  for (int i = 1; i < argc && rc == 0; i++)
    if ((!strncmp(argv[i], "--remat-", 8) && !is_tool_flag(argv[i])) ||
        !strncmp(argv[i], "--pass-pipeline=", 16))
      rc = add_flag(pm, argv[i], o) ? 1 : 0;
  if (rc == 0 && mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, top)))
    rc = 1;
  mlirPassManagerDestroy(pm); /* prints the timing report */
  if (rc == 0) {
    FILE *out = stdout;
    if (o->output && strcmp(o->output, "-") && !(out = fopen(o->output, "w"))) {
      fprintf(stderr, "remat-opt: error: cannot open '%s' for writing\n", o->output);
      rc = 1;
    } else {
      mlirOperationPrintWithFlags(top, flags, write_to_file, out);
      fputc('\n', out);
      if (out != stdout && fclose(out)) {
        fprintf(stderr, "remat-opt: error: cannot write '%s'\n", o->output);
        rc = 1;
      }
    }
  }
  mlirOpPrintingFlagsDestroy(flags);
  mlirModuleDestroy(module);
  return rc;
}

int main(int argc, char **argv) {
  options o = {"-", NULL, false, false, false, NULL, NULL, NULL};
  int inputs = 0;
  bool draws = false; /* a pass that writes --remat-dot and --remat-timeline files */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-o") && i + 1 < argc)
      o.output = argv[++i];
    else if (!strcmp(a, "--print-ir-after-all"))
      o.ir_after_all = true;
    else if (!strcmp(a, "--print-debuginfo"))
      o.debuginfo = true;
    else if (!strcmp(a, "--timing"))
      o.timing = true;
    else if (!strcmp(a, "--remat-report")) {
      if (!o.report)
        o.report = "-";
    } else if (!strncmp(a, "--report=", 9) && a[9]) {
      o.report = a + 9;
      /* Passes append to the file: start it empty, and fail early if it cannot be written. */
      FILE *f = fopen(o.report, "w");
      if (!f) {
        fprintf(stderr, "remat-opt: error: cannot open '%s' for writing\n", o.report);
        return 1;
      }
      fclose(f);
    }
    else if (!strncmp(a, "--remat-dot=", 12) || !strncmp(a, "--remat-timeline=", 17)) {
      const char *file = strchr(a, '=') + 1;
      if (!*file) {
        fprintf(stderr, "remat-opt: error: %s needs a file name\n", a);
        return 1;
      }
      if (a[8] == 'd')
        o.dot = file;
      else
        o.timeline = file;
    } else if (!strcmp(a, "--remat-mincut") || !strncmp(a, "--remat-mincut=", 15))
      draws = true;
    else if (!strncmp(a, "--remat-", 8) || !strncmp(a, "--pass-pipeline=", 16))
      continue; /* pipeline flags: added in order once the context exists */
    else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "remat-opt: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else {
      o.input = a;
      inputs++;
    }
  }
  if (inputs > 1) {
    fprintf(stderr, "remat-opt: error: more than one input file\n");
    return 1;
  }
  if ((o.dot || o.timeline) && !draws) {
    fprintf(stderr, "remat-opt: error: --remat-%s draws what --remat-mincut decides: add "
                    "--remat-mincut\n", o.dot ? "dot" : "timeline");
    return 1;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllPasses();
  rematAttachDiagnosticPrinter(ctx, stderr, NULL);
  int rc = 1;
  if (mlirLogicalResultIsSuccess(rematLoadDialects(ctx)))
    rc = run(ctx, &o, argc, argv);
  else
    fprintf(stderr, "remat-opt: error: cannot load the rt dialect\n");
  mlirContextDestroy(ctx);
  return rc;
}
