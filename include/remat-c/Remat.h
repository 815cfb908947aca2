/* remat-c/Remat.h: the public C API of remat.
 *
 * What a host compiler needs to embed remat: load the rt dialect into its MlirContext,
 * verify rt IR, and build remat's passes (with options given as a struct or in the textual
 * syntax remat-opt uses) to add to its own MlirPassManager.
 *
 * Conventions
 * - Handles (MlirContext, MlirOperation, MlirPass) follow the MLIR C API: a pass returned
 *   by a constructor is owned by the caller until handed to mlirPassManagerAddOwnedPass or
 *   mlirOpPassManagerAddOwnedPass.
 * - Option structs are plain values owned by the caller; constructors copy them.
 * - Errors in IR are reported as MLIR diagnostics (at the op's location) through the
 *   context's diagnostic handlers; functions then return a failed MlirLogicalResult.
 *   rematAttachDiagnosticPrinter installs a handler that prints them compiler-style.
 *   Errors in option text are written into the caller's buffer (error, error_cap; always
 *   NUL-terminated) and nothing is emitted.
 * - A `char *` returned by remat (e.g. by rematTranslate) is owned by the caller and freed
 *   with rematStringFree. MlirStringRef results point into remat's static data or into
 *   MLIR objects and are never freed by the caller.
 * - Internal bugs abort() with the file and line; they are never reported as errors.
 *
 * Linking: libremat.so (SONAME libremat.so.0) contains remat and the MLIR C API (the
 * functions of the mlir-c headers) and needs libMLIR.so.22.1 and libLLVM.so.22.1, so a
 * host that already links MLIR 22 keeps one copy of it. Use the remat::remat CMake target
 * (find_package(remat)) or `pkg-config --cflags --libs remat`. The API is what the
 * remat-c/ headers declare (REMAT_API); the library exports nothing else of remat's.
 */
#ifndef REMAT_C_REMAT_H
#define REMAT_C_REMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the API: libremat.so is built with -fvisibility=hidden and exports these alone
 * (and the MLIR C API it carries). */
#define REMAT_API __attribute__((visibility("default")))

/* The library version (CMake's project version is read from these lines). The SONAME
 * changes with the major version. */
#define REMAT_VERSION_MAJOR 0
#define REMAT_VERSION_MINOR 1
#define REMAT_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" of the library actually loaded (static string). */
REMAT_API const char *rematVersion(void);

/* Frees a string returned by remat; NULL is allowed. */
REMAT_API void rematStringFree(char *string);

/* ---- dialect ------------------------------------------------------------------------ */

/* Loads the rt dialect (and the func, arith and irdl dialects it is used with) into ctx.
 * Idempotent: a second call on the same context does nothing and succeeds. */
REMAT_API MlirLogicalResult rematLoadDialects(MlirContext ctx);

/* The IRDL source of the rt dialect (the text of rt.irdl.mlir), NUL-terminated, static. */
REMAT_API MlirStringRef rematRtDialectIRDL(void);

/* remat's semantic verifier: what IRDL cannot check (shapes of every rt op, static shapes,
 * joint-function conventions). Emits one diagnostic per problem. */
REMAT_API MlirLogicalResult rematVerify(MlirOperation module);

/* Attaches a diagnostic handler to ctx that prints every diagnostic (with its notes) to
 * out as compilers do, "file:line:col: error: message", and adds the number of errors to
 * *errors (NULL: not counted). The handler lives as long as ctx; out must outlive it. */
REMAT_API void rematAttachDiagnosticPrinter(MlirContext ctx, FILE *out, int *errors);

/* The file location LOC points at, as the printer shows it: through name and call-site
 * locations (the callee) and fused ones (the first file location inside). False when
 * there is none (FILE then borrows nothing). FILE points into the context. */
REMAT_API bool rematLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file, int *line,
                                           int *col);

/* A context set up for rt IR as remat's tools set theirs up: every upstream dialect
 * registered (so IR of any dialect parses), the rt dialect loaded (rematLoadDialects),
 * and, when DIAGNOSTICS is not NULL, rematAttachDiagnosticPrinter(ctx, DIAGNOSTICS,
 * errors). A null context (nothing left to destroy) if the rt dialect cannot be loaded.
 * The caller destroys it with mlirContextDestroy. */
REMAT_API MlirContext rematContextCreate(FILE *diagnostics, int *errors);

/* ---- reading untrusted text --------------------------------------------------------- */

/* The deepest nesting rematCheckNesting accepts. MLIR's parser, printer and verifier
 * recurse once per level, so deeper text could overflow the stack. */
#define REMAT_MAX_NESTING 256

/* Checks, without parsing, that SOURCE nests no deeper than REMAT_MAX_NESTING levels:
 * open brackets ( [ { <, chains of expression operators (affine `a + b + c`, `- - x`)
 * and references to attribute or type aliases (a reference weighs its definition's
 * depth). On deeper text emits "NAME:LINE:COL: error: nesting deeper than ..." at the
 * first place past the limit and fails. Linear in the length of SOURCE. */
REMAT_API MlirLogicalResult rematCheckNesting(MlirContext ctx, MlirStringRef source,
                                              MlirStringRef name);

/* Reads the file PATH ("-": stdin, whose locations are then named "-"), checks it with
 * rematCheckNesting, and parses it as mlirModuleCreateParseFromFile does. Errors (a file
 * that cannot be read, nesting, syntax) are emitted as diagnostics; returns a null module
 * then. */
REMAT_API MlirModule rematParseFile(MlirContext ctx, const char *path);

/* ---- passes and their options ------------------------------------------------------- */

typedef enum RematOptionType {
  REMAT_OPTION_BOOL,   /* bool: true|false|1|0 */
  REMAT_OPTION_INT,    /* int64_t */
  REMAT_OPTION_DOUBLE, /* double */
  REMAT_OPTION_STRING, /* char[REMAT_OPTION_STRING_MAX]; a comma list is kept as written */
  REMAT_OPTION_FILE,   /* a STRING that names a file ("-": stderr, where the help says so;
                          "": none); a value that reads as a number or a boolean
                          (report=1) is refused: ./1 names a file "1" */
} RematOptionType;

#define REMAT_OPTION_STRING_MAX 256

typedef struct RematOptionInfo {
  const char *name; /* kebab-case: "scalar-factor" */
  RematOptionType type;
  size_t offset; /* of the field in the pass's options struct */
  const char *help;
  const char *default_value; /* in the textual syntax ("0.1", "true", ""); what the
                                pass's init function sets */
} RematOptionInfo;

typedef struct RematPassInfo {
  const char *argument; /* "remat-mincut": the flag and the pipeline name */
  const char *summary;  /* one line */
  const char *contract; /* requires / keeps / breaks; printed by --help */
  const RematOptionInfo *options;
  int num_options;
  size_t options_size;
  void (*init_options)(void *options);
  /* Checks values after parsing; 0 if fine, else writes a message. May be NULL. */
  int (*check_options)(const void *options, char *error, size_t error_cap);
  /* Builds the pass from a checked options struct (never NULL). */
  MlirPass (*create)(const void *options);
} RematPassInfo;

/* Every pass remat knows, in pipeline order; NULL past the end. */
REMAT_API const RematPassInfo *rematGetPassInfo(intptr_t index);
/* The pass with this argument ("remat-mincut"), or NULL. */
REMAT_API const RematPassInfo *rematLookupPass(const char *argument);

/* Parses option text into an options struct of the pass (initialise it first with the
 * pass's init function). Accepted syntax, as remat-opt and mlir-opt pipelines write it:
 * "name=value" items separated by ',' or spaces; an item without '=' continues the list
 * value of the previous string option ("save-ops=rt.matmul,rt.sum"); a value in double
 * quotes is taken as written, commas and spaces included (report="my file.txt"). A later
 * item overrides an earlier one. Returns 0, or -1 with a message for an unknown option,
 * a malformed value or a failed check. */
REMAT_API int rematParsePassOptions(const RematPassInfo *pass, const char *text, void *options,
                                    char *error, size_t error_cap);

/* Builds a pass from its argument and option text (NULL or "" for defaults). Returns a
 * null MlirPass with a message on failure. */
REMAT_API MlirPass rematCreatePass(const char *argument, const char *options, char *error,
                                   size_t error_cap);

/* Builds a pass from an options struct of its type (set with the pass's init function,
 * then edited): checks the values as the text parser does. Returns a null MlirPass with a
 * message for invalid options. The typed constructors of remat-c/Passes.h are this
 * function for each pass. */
REMAT_API MlirPass rematCreatePassFromOptions(const RematPassInfo *pass, const void *options,
                                              char *error, size_t error_cap);

/* ---- hosts in other languages (tools/remat_torch/binding.py) ------------------------ */

/* Parses SOURCE, rt text held in memory, after rematCheckNesting (NAME names the text in
 * its diagnostics; the ops' own loc(...) attributes locate them). Errors are emitted as
 * diagnostics; returns a null module then. The module is the caller's
 * (mlirModuleDestroy); SOURCE is not kept and need not be NUL-terminated (MLIR's
 * parser, which needs the NUL, reads a terminated copy). */
REMAT_API MlirModule rematParseString(MlirContext ctx, MlirStringRef source, MlirStringRef name);

/* Runs PM on OP as mlirPassManagerRunOnOp does. When REPORT is not NULL, what remat's
 * passes write to the report destination "-" during this run (their `report` option;
 * stderr otherwise) is collected instead and returned in *REPORT, NUL-terminated and
 * owned by the caller (rematStringFree); "" when nothing was reported, and set on failure
 * too. Holds for the passes run on the calling thread (remat's passes run on the
 * builtin.module, so all of them); other destinations (a file) are unchanged. */
REMAT_API MlirLogicalResult rematRunPasses(MlirPassManager pm, MlirOperation op, char **report);

/* The saved sets of the splits in MODULE (a builtin.module after --remat-mincut): for each
 * func.func carrying rt.num_outputs and rt.saved_bytes (a forward @f_fwd), one line per
 * result after its forward outputs, in order:
 *   "FORWARD\tINDEX\tNAME\tTYPE\tBYTES\n"
 * NAME is the name of the value's name location (an argument's loc("x"), an op's
 * loc("mm_3"(...)): the importer writes the fx node names there), else argN for an
 * argument or the op's name (rt.matmul; an rt.extern's name attribute,
 * aten.convolution.default) for a result; "#K" is appended for result K of an op with
 * several. BYTES as the min-cut weighs them (numel x element size). The text is the
 * caller's (rematStringFree); "" when MODULE has no split. */
REMAT_API char *rematSplitSavedValues(MlirOperation module);

#ifdef __cplusplus
}
#endif

#endif
