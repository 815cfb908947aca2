/* fuzz_options: libFuzzer harness over pass-option strings.
 *
 * Each input is "PASS=OPTIONS" as remat-opt's flags write it without the dashes
 * ("remat-checkpoint=ac=auto,fsdp=save"). The options go through rematParsePassOptions
 * and rematCreatePassFromOptions; a pass that builds then runs on a copy of
 * test/fuzz/Inputs/options-module.mlir (joint functions with FSDP gathers, matmuls,
 * dropout), so every accepted value is exercised. Invalid options must end in a message,
 * never in a crash. As in fuzz_ir, a run that succeeds must leave IR that verifies and
 * parses back (else abort: a finding).
 *
 * Options that name files (REMAT_OPTION_FILE: report, budget-dump, dot, timeline,
 * dump-network) are set to /dev/null after parsing when they are set at
 * all: the writers run, but the fuzzer must not create files wherever its inputs say
 * (a run that only cleared report and dump-network filled the working directory with
 * files named by fuzzed dot= values). The module is parsed once into a context
 * kept for the whole run; each input runs on its own copy, destroyed afterwards. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Remat.h"

static MlirContext ctx;
static MlirModule module;
static int diagnostics;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  ctx = fuzz_context();
  rematAttachDiagnosticPrinter(ctx, stderr, NULL);
  module = rematParseFile(ctx, REMAT_FUZZ_OPTIONS_MODULE);
  if (mlirModuleIsNull(module) ||
      mlirLogicalResultIsFailure(rematVerify(mlirModuleGetOperation(module))))
    abort();
  /* From here on diagnostics are expected (a budget too small, ...): count them only. */
  mlirContextAttachDiagnosticHandler(ctx, fuzz_swallow, &diagnostics, NULL);
  return 0;
}

static void run(MlirPass pass, const char *input) {
  MlirOperation copy = mlirOperationClone(mlirModuleGetOperation(module));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, copy));
  mlirPassManagerDestroy(pm);
  if (ok)
    fuzz_check_output(ctx, copy, "fuzz_options: '%s'", input);
  mlirOperationDestroy(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *input = malloc(size + 1);
  if (!input)
    abort();
  memcpy(input, data, size);
  input[size] = 0;
  if (strlen(input) != size) { /* a NUL inside: not a command-line string */
    free(input);
    return 0;
  }
  char *eq = strchr(input, '=');
  if (eq)
    *eq = 0;
  const RematPassInfo *info = rematLookupPass(input);
  if (!info || !info->create) {
    free(input);
    return 0;
  }
  MlirPass pass = fuzz_build_pass(info, eq ? eq + 1 : "", NULL, NULL);
  if (pass.ptr) {
    if (eq)
      *eq = '=';
    run(pass, input);
  }
  free(input);
  return 0;
}
