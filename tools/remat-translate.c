/* remat-translate: lower the rt.kernel functions (and the reductions of host functions)
 * of a module to LLVM IR or PTX, and optionally write a manifest for a runtime. Exit 1 on
 * any error, with a located diagnostic for errors in the IR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "remat-c/Translate.h"

static void usage(FILE *f) {
  fprintf(f, "usage: remat-translate [options] [input.mlir | -]\n\n"
             "Lowers every rt.kernel function and every rt.sum/rt.amax of the host functions\n"
             "of a module through LLVM, into one LLVM IR or PTX module.\n\n"
             "options (a value as --opt VALUE or --opt=VALUE):\n"
             "  --emit=llvm|ptx           output LLVM IR or PTX (default: ptx for nvptx64,\n"
             "                            llvm for host)\n"
             "  --target=nvptx64|host     target (default: nvptx64; ptx needs nvptx64)\n"
             "  --sm=NN                   compute capability (default: 90)\n"
             "  -O0 | -O3                 -O0: the IR as built, no libdevice, no passes;\n"
             "                            -O3 (default): libdevice linked, O3\n"
             "  --manifest=FILE           write the manifest (one line per function:\n"
             "                            kind name numel=N in0:type ... out0:type ...)\n"
             "  -j N                      compile on N threads (default: one per core); the\n"
             "                            output is the same whatever N\n"
             "  --cache-dir=DIR           reuse functions compiled before from the cache in\n"
             "                            DIR (default: $REMAT_CACHE_DIR, else no cache)\n"
             "  --no-cache                no cache, even with $REMAT_CACHE_DIR set\n"
             "  --stats                   print functions, threads and cache results to\n"
             "                            stderr\n"
             "  -o FILE                   write the output to FILE (default: stdout)\n"
             "  --help                    this text\n");
}

typedef struct options {
  const char *input, *output, *manifest;
  bool emit_given, no_cache, stats;
  RematTranslateOptions cg;
} options;

/* Whether paths A and B name one existing file. */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int parse_args(int argc, char **argv, options *o) {
  int inputs = 0;
  bool sm_given = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
#define VALUE(flag) cli_value(argc, argv, &i, flag, &v)
    if (cli_flag(a, "--help") || cli_flag(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (VALUE("-o"))
      o->output = v;
    else if (VALUE("--emit")) {
      if (strcmp(v, "llvm") && strcmp(v, "ptx")) {
        fprintf(stderr,
                "remat-translate: error: invalid --emit value '%s' (expected llvm "
                "or ptx)\n",
                v);
        return -1;
      }
      o->cg.emit = !strcmp(v, "ptx") ? REMAT_TRANSLATE_PTX : REMAT_TRANSLATE_LLVM_IR;
      o->emit_given = true;
    } else if (VALUE("--target")) {
      if (strcmp(v, "nvptx64") && strcmp(v, "host")) {
        fprintf(stderr,
                "remat-translate: error: invalid --target value '%s' (expected "
                "nvptx64 or host)\n",
                v);
        return -1;
      }
      o->cg.target = !strcmp(v, "host") ? REMAT_TRANSLATE_HOST : REMAT_TRANSLATE_NVPTX64;
    } else if (cli_flag(a, "-O0") || cli_flag(a, "-O3"))
      o->cg.opt_level = a[2] - '0';
    else if (VALUE("--manifest"))
      o->manifest = v;
    else if (VALUE("-j")) {
      unsigned long long j;
      if (!cli_u64(v, &j) || j < 1 || j > 1024) {
        fprintf(stderr,
                "remat-translate: error: invalid -j value '%s' (expected a number "
                "of threads from 1 to 1024)\n",
                v);
        return -1;
      }
      o->cg.jobs = (int)j;
    } else if (VALUE("--cache-dir"))
      o->cg.cache_dir = v;
    else if (cli_flag(a, "--no-cache"))
      o->no_cache = true;
    else if (cli_flag(a, "--stats"))
      o->stats = true;
    else if (VALUE("--sm")) {
      unsigned long long sm;
      if (!cli_u64(v, &sm) || sm > 1000 || !rematTranslateSmIsValid((int)sm)) {
        fprintf(stderr,
                "remat-translate: error: invalid --sm value '%s' (expected a "
                "compute capability such as 80, 89, 90)\n",
                v);
        return -1;
      }
      o->cg.sm = (int)sm;
      sm_given = true;
    } else if (a[0] == '-' && a[1] != 0) {
      fprintf(stderr, "remat-translate: error: unknown option '%s' (see --help)\n", a);
      return -1;
    } else {
      o->input = a;
      inputs++;
    }
#undef VALUE
  }
  if (inputs > 1) {
    fprintf(stderr, "remat-translate: error: more than one input file\n");
    return -1;
  }
  cli_check_cache_dir(o->no_cache ? NULL : o->cg.cache_dir, "--cache-dir");
  if (!o->cg.cache_dir && getenv("REMAT_CACHE_DIR") && *getenv("REMAT_CACHE_DIR")) {
    o->cg.cache_dir = getenv("REMAT_CACHE_DIR");
    cli_check_cache_dir(o->no_cache ? NULL : o->cg.cache_dir, "$REMAT_CACHE_DIR");
  }
  if (o->no_cache)
    o->cg.cache_dir = NULL;
  if (!o->emit_given)
    o->cg.emit = o->cg.target == REMAT_TRANSLATE_NVPTX64 ? REMAT_TRANSLATE_PTX
                                                         : REMAT_TRANSLATE_LLVM_IR;
  if (o->cg.emit == REMAT_TRANSLATE_PTX && o->cg.target != REMAT_TRANSLATE_NVPTX64) {
    fprintf(stderr, "remat-translate: error: --emit=ptx needs --target=nvptx64\n");
    return -1;
  }
  if (sm_given && o->cg.target != REMAT_TRANSLATE_NVPTX64) {
    fprintf(stderr, "remat-translate: error: --sm applies only to --target=nvptx64\n");
    return -1;
  }
  const char *outs[] = {o->output, o->manifest};
  for (int k = 0; k < 2; k++)
    if (strcmp(o->input, "-") && outs[k] && strcmp(outs[k], "-") && same_file(o->input, outs[k])) {
      fprintf(stderr,
              "remat-translate: error: %s '%s' names the input file; refusing to "
              "overwrite it\n",
              k ? "--manifest" : "-o", outs[k]);
      return -1;
    }
  return 0;
}

static int write_text(const char *path, const char *text) {
  FILE *f = stdout;
  if (path && strcmp(path, "-") && !(f = fopen(path, "w"))) {
    fprintf(stderr, "remat-translate: error: cannot open '%s' for writing\n", path);
    return 1;
  }
  fputs(text, f);
  /* Every write is checked: a full disk must not look like success. */
  int failed = fflush(f) || ferror(f);
  if (f != stdout && fclose(f))
    failed = 1;
  if (failed) {
    fprintf(stderr, "remat-translate: error: cannot write '%s': %s\n",
            f == stdout ? "<stdout>" : path, strerror(errno));
    return 1;
  }
  return 0;
}

static int translate(MlirContext ctx, const options *o) {
  MlirModule module = rematParseFile(ctx, o->input);
  if (mlirModuleIsNull(module))
    return 1;
  char err[512], *manifest = NULL;
  RematTranslateStats st = {0};
  RematTranslateOptions cg = o->cg;
  cg.stats = &st;
  char *text = rematTranslate(mlirModuleGetOperation(module), &cg, o->manifest ? &manifest : NULL,
                              err, sizeof err);
  if (text && o->stats)
    fprintf(stderr,
            "remat-translate: %d functions compiled on %d threads; cache: %s%d hits, "
            "%d misses, %d corrupt entries rebuilt\n",
            st.functions, st.jobs, cg.cache_dir ? "" : "off, ", st.cache_hits, st.cache_misses,
            st.cache_corrupt);
  /* A module that was not fused has nothing to lower: say so, as an output that holds
   * only a header looks like success. (Host ops the codegen lowers, as indexing and conv
   * ops, are code too.) */
  if (text && st.functions == 0)
    fprintf(stderr,
            "remat-translate: warning: '%s' has no rt.kernel function and no "
            "reduction: the output holds no code (outline kernels first with "
            "remat-opt --remat-fuse)\n",
            o->input);
  int rc = 1;
  if (!text) {
    if (*err) /* else the diagnostics have said it */
      fprintf(stderr, "remat-translate: error: %s\n", err);
  } else {
    rc = write_text(o->output, text);
    if (rc == 0 && manifest)
      rc = write_text(o->manifest, manifest);
  }
  rematStringFree(text);
  rematStringFree(manifest);
  mlirModuleDestroy(module);
  return rc;
}

int main(int argc, char **argv) {
  options o = {.input = "-"};
  cli_prog = "remat-translate";
  rematTranslateOptionsInit(&o.cg);
  if (parse_args(argc, argv, &o))
    return 1;
  MlirContext ctx = rematContextCreate(stderr, NULL);
  if (mlirContextIsNull(ctx)) {
    fprintf(stderr, "remat-translate: error: cannot load the rt dialect\n");
    return 1;
  }
  int rc = translate(ctx, &o);
  mlirContextDestroy(ctx);
  return rc;
}
