/* verify.c: remat's semantic verifier as a pass (--remat-verify).
 *
 * remat-opt and hosts calling rematVerify check rt IR directly; upstream tools only get
 * IRDL's checks (operand and attribute kinds, not shapes). This pass gives them the rest
 * through the plugin: mlir-opt --load-pass-plugin=libRematPlugin.so
 * -p 'builtin.module(remat-verify)'.
 *
 * Contract: requires a module; keeps everything (changes no IR); fails with one diagnostic
 * per problem. */
#include "remat-c/Remat.h"

static void nothing(void *user_data) { (void)user_data; }
static void *clone_nothing(void *user_data) { return user_data; }

static void run(MlirOperation module, MlirExternalPass pass, void *user_data) {
  (void)user_data;
  if (mlirLogicalResultIsFailure(rematVerify(module)))
    mlirExternalPassSignalFailure(pass);
}

static void init_options(void *options) { (void)options; }

static _Alignas(8) const char verify_pass_id;

static MlirPass create(const void *options) {
  (void)options;
  MlirExternalPassCallbacks cb = {nothing, nothing, NULL, clone_nothing, run};
  return mlirCreateExternalPass(
      mlirTypeIDCreate(&verify_pass_id), mlirStringRefCreateFromCString("RematVerify"),
      mlirStringRefCreateFromCString("remat-verify"),
      mlirStringRefCreateFromCString("check rt IR beyond IRDL (shapes, joint functions)"),
      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, cb, NULL);
}

const RematPassInfo remat_verify_pass = {
    "remat-verify",
    "check rt IR beyond IRDL: shapes of every rt op, static shapes, joint functions",
    "requires a module; keeps all IR (changes nothing); fails with one diagnostic per "
    "problem",
    NULL, 0, 0, init_options, NULL, create};
