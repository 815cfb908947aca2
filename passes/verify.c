/* verify.c: remat's semantic verifier as a pass (--remat-verify).
 *
 * remat-opt and hosts calling rematVerify check rt IR directly; upstream tools only get
 * IRDL's checks (operand and attribute kinds, not shapes). This pass gives them the rest
 * through the plugin: mlir-opt --load-pass-plugin=libRematPlugin.so
 * -p 'builtin.module(remat-verify)'.
 *
 * Contract: `contract` below (the one text of it: remat-opt --help prints it). */
#include "passes.h"

/* What the pass requires, keeps and breaks. */
static const char contract[] = "requires: a module. keeps: all IR (changes nothing). breaks: "
                               "nothing; fails with one diagnostic per problem";

static void run(MlirOperation module, MlirExternalPass pass, void *state) {
  (void)state;
  if (mlirLogicalResultIsFailure(rematVerify(module)))
    mlirExternalPassSignalFailure(pass);
}

static MlirPass create(const void *options) {
  (void)options;
  return remat_pass_create(&remat_verify_pass, "RematVerify", run, NULL, 0);
}

REMAT_PASS_INFO_NO_OPTIONS(verify,
                           "check rt IR beyond IRDL: shapes of every rt op, static shapes, "
                           "joint functions",
                           contract, create)
