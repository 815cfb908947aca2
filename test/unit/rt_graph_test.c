/* rt_graph_test: what rt_graph's two modes view (dialect-c/rt_graph.h). The strict load
 * refuses a function of other ops and blocks with its one diagnostic; RT_GRAPH_ANY_OPS
 * views its entry block anyway, with operands as value indices, ret as ops[nops], and
 * the use lists of RT_GRAPH_USES: a use inside a nested region names the op holding it,
 * a use in another block -1, the terminator nops. rt_graph_load_block views the second
 * block, whose operands from the entry block are -1. Driven by test/unit/rt_graph.test. */
#include <stdio.h>

#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"
#include "rt_graph.h"

static const char text[] =
    "func.func @f(%x: tensor<4xf32>, %p: i1) -> (tensor<4xf32>, tensor<4xf32>) {\n"
    "  %a = \"rt.exp\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %t = math.exp %a : tensor<4xf32>\n"
    "  %r = scf.if %p -> tensor<4xf32> {\n"
    "    %n = \"rt.neg\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "    scf.yield %n : tensor<4xf32>\n"
    "  } else {\n"
    "    scf.yield %t : tensor<4xf32>\n"
    "  }\n"
    "  cf.br ^bb1(%r : tensor<4xf32>)\n"
    "^bb1(%b: tensor<4xf32>):\n"
    "  %c = \"rt.add\"(%b, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %c, %t : tensor<4xf32>, tensor<4xf32>\n"
    "}\n";

static void print_name(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  printf("%.*s", (int)n.length, n.data);
}

static MlirOperation nested; /* the rt.neg inside the scf.if */

static void print_view(const char *title, const rt_graph *g) {
  printf("%s: nargs=%d nops=%d nvals=%d nret=%d ret=", title, g->nargs, g->nops, g->nvals, g->nret);
  print_name(g->ops[g->nops]);
  printf("\n");
  for (int i = 0; i < g->nops; i++) {
    printf("  op %d ", i);
    print_name(g->ops[i]);
    printf(" id=%s operands", g->opid[i] ? rt_op_name(g->opid[i]) : "none");
    for (int k = g->opnd_start[i]; k < g->opnd_start[i + 1]; k++)
      printf(" %d", g->opnd[k]);
    printf(" results %d..%d\n", g->op_res[i], g->op_res[i + 1]);
  }
  printf("  ret operands");
  for (int r = 0; r < g->nret; r++)
    printf(" %d", g->ret_val[r]);
  printf("\n");
  if (!g->use_start)
    return;
  for (int v = 0; v < g->nvals; v++) {
    printf("  uses of %d:", v);
    for (int u = g->use_start[v]; u < g->use_start[v + 1]; u++)
      printf(" %d", g->use[u]);
    printf("\n");
  }
  printf("  op index of ret %d, of op 0 %d, of the nested rt.neg %d\n",
         rt_graph_op_index(g, g->ret), rt_graph_op_index(g, g->ops[0]),
         rt_graph_op_index(g, nested));
}

int main(void) {
  MlirContext ctx = rematContextCreate(stdout, NULL);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) {
    printf("FAIL: parse\n");
    return 1;
  }
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirOperation scf_if = mlirOperationGetNextInBlock(
      mlirOperationGetNextInBlock(mlirBlockGetFirstOperation(rt_func_entry_block(f))));
  nested = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(scf_if, 0)));
  rt_graph g;
  printf("strict: %d\n", rt_graph_load(&g, f, 0, "--test", "test function"));
  if (rt_graph_load(&g, f, RT_GRAPH_ANY_OPS, "--test", "test function"))
    return 1;
  print_view("any ops", &g);
  rt_graph_free(&g);
  if (rt_graph_load(&g, f, RT_GRAPH_ANY_OPS | RT_GRAPH_USES, "--test", "test function"))
    return 1;
  print_view("any ops, uses", &g);
  rt_graph_free(&g);
  MlirBlock second = mlirBlockGetNextInRegion(rt_func_entry_block(f));
  rt_graph_load_block(&g, second, RT_GRAPH_USES);
  print_view("second block", &g);
  rt_graph_free(&g);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  return 0;
}
