/* dialect_test: loading the rt dialect (twice), the op table (every row is an op the
 * loaded IRDL dialect registers), byte sizes with overflow, rt.policy, and the option
 * parser. Driven by test/dialect/load-twice.test. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"

static void print_bytes(MlirContext ctx, const char *type_text) {
  MlirType t = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(type_text));
  uint64_t b;
  if (rt_type_bytes(t, &b) == 0)
    printf("bytes %s = %llu\n", type_text, (unsigned long long)b);
  else
    printf("bytes %s = %s\n", type_text, rt_type_is_static_tensor(t) ? "overflow" : "dynamic");
}

typedef struct test_options {
  double scalar_factor;
  bool params_free;
  char save_ops[REMAT_OPTION_STRING_MAX];
} test_options;

static const RematOptionInfo test_option_table[] = {
    {"scalar-factor", REMAT_OPTION_DOUBLE, offsetof(test_options, scalar_factor), "", "0.1"},
    {"params-free", REMAT_OPTION_BOOL, offsetof(test_options, params_free), "", "true"},
    {"save-ops", REMAT_OPTION_STRING, offsetof(test_options, save_ops), "", "rt.matmul"},
};
static const RematPassInfo test_pass = {
    "test-pass", "", "", test_option_table, 3, sizeof(test_options), NULL, NULL, NULL};

static void parse(const char *text) {
  test_options o = {0.1, true, "rt.matmul"};
  char err[256];
  if (rematParsePassOptions(&test_pass, text, &o, err, sizeof err))
    printf("options: error: %s\n", err);
  else
    printf("options: scalar-factor=%g params-free=%d save-ops=%s\n", o.scalar_factor, o.params_free,
           o.save_ops);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  printf("load once: %s\n", mlirLogicalResultIsSuccess(rematLoadDialects(ctx)) ? "ok" : "failed");
  printf("load twice: %s\n", mlirLogicalResultIsSuccess(rematLoadDialects(ctx)) ? "ok" : "failed");
  /* A row of rt_ops.def without its IRDL entry (dialect-c/rt.irdl.mlir) is named here;
   * test/dialect/op-table.test checks the other direction. */
  int registered = 0;
  for (int i = 1; i < RT_OP_COUNT; i++) {
    const char *name = rt_op_name((rt_op_id)i);
    if (mlirContextIsRegisteredOperation(ctx, mlirStringRefCreateFromCString(name)))
      registered++;
    else
      printf("op table: '%s' is not an op of the loaded dialect\n", name);
  }
  printf("op table: %d of %d ops registered\n", registered, RT_OP_COUNT - 1);
  rt_op_id ids[] = {RT_OP_ADD, RT_OP_LT, RT_OP_CONCAT};
  for (int i = 0; i < 3; i++)
    printf("%s kind=%s arity=%d\n", rt_op_name(ids[i]), rt_op_kind_name(rt_op_kind_of(ids[i])),
           rt_op_arity(ids[i]));
  print_bytes(ctx, "tensor<2x3xf32>");
  print_bytes(ctx, "tensor<7xi1>");
  print_bytes(ctx, "tensor<bf16>");
  print_bytes(ctx, "i64");
  print_bytes(ctx, "tensor<4611686018427387904x4xf32>");
  print_bytes(ctx, "tensor<?x4xf32>");

  MlirModule m = mlirModuleCreateParse(
      ctx,
      mlirStringRefCreateFromCString("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                     "  %0 = \"rt.exp\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                                     "  return %0 : tensor<4xf32>\n}\n"));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirOperation exp = mlirBlockGetFirstOperation(rt_func_entry_block(func));
  printf("policy untagged=%s\n", rt_policy_name(rt_policy_get(exp)));
  rt_policy_set(exp, RT_POLICY_MUST_RECOMPUTE);
  rt_policy p = rt_policy_get(exp);
  printf("policy set must_recompute -> %s recompute=%d save=%d\n", rt_policy_name(p),
         rt_policy_is_recompute(p), rt_policy_is_save(p));
  rt_policy_set(exp, RT_POLICY_NONE);
  printf("policy removed=%s\n", rt_policy_name(rt_policy_get(exp)));
  mlirModuleDestroy(m);

  parse("scalar-factor=0.25,params-free=false save-ops=rt.matmul,rt.sum");
  parse("nope=1");
  parse("scalar-factor=x");
  parse("params-free=maybe");
  parse("stray");
  parse("save-ops=\"a, b c\",scalar-factor=2 save-ops=x,y");
  parse("save-ops=\"a, b c\" params-free=0");
  parse("save-ops=\"a");
  parse("save-ops=\"a\"b");
  mlirContextDestroy(ctx);
  return 0;
}
