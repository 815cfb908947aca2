/* embed.c: remat inside a host compiler, through the installed public C API only.
 *
 * Builds the joint forward+backward function of a tanh layer in memory with the MLIR C
 * API, runs remat's checkpoint and min-cut passes in the host's own pass manager, and
 * prints the split (the forward, the backward and what the forward saves for it), then
 * the module.
 *
 *   forward : y = tanh(x @ w)
 *   backward: dh = g * (1 - y*y);  dx = dh @ transpose(w);  dw = transpose(x) @ dh
 *
 * Build: see CMakeLists.txt (find_package(remat)) or Makefile (pkg-config). */
#include <stdio.h>
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "remat-c/Passes.h"

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static void print_to_stdout(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

/* Appends op NAME(operands) -> result to block and returns its result. */
static MlirValue build(MlirBlock block, MlirLocation loc, const char *name, intptr_t n,
                       const MlirValue *operands, MlirType result, intptr_t n_attrs,
                       const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(str(name), loc);
  mlirOperationStateAddOperands(&st, n, operands);
  mlirOperationStateAddResults(&st, 1, &result);
  mlirOperationStateAddAttributes(&st, n_attrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return mlirOperationGetResult(op, 0);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), value);
}

/* The location of an op is the line of this file that builds it. */
#define HERE mlirLocationFileLineColGet(ctx, str("embed.c"), __LINE__, 3)

static MlirType tensor(MlirContext ctx, int64_t rows, int64_t cols) {
  int64_t shape[2] = {rows, cols};
  return mlirRankedTensorTypeGet(2, shape, mlirF32TypeGet(ctx), mlirAttributeGetNull());
}

/* func.func @layer(%x: 4x8, %w: 8x8 {rt.param}, %g: 4x8 {rt.tangent}) -> (y, dx, dw)
 * with rt.num_outputs = 1: y is the forward output, dx and dw are gradients. */
static MlirOperation build_layer(MlirContext ctx) {
  MlirLocation loc = HERE;
  MlirType x_t = tensor(ctx, 4, 8), w_t = tensor(ctx, 8, 8), xt_t = tensor(ctx, 8, 4);
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType args[3] = {x_t, w_t, x_t}, results[3] = {x_t, x_t, w_t};
  MlirLocation locs[3] = {loc, loc, loc};
  MlirBlock body = mlirBlockCreate(3, args, locs);
  MlirValue x = mlirBlockGetArgument(body, 0), w = mlirBlockGetArgument(body, 1),
            g = mlirBlockGetArgument(body, 2);

  MlirNamedAttribute one_attr = named(ctx, "value", mlirFloatAttrDoubleGet(ctx, f32, 1.0));
  MlirNamedAttribute perm = named(ctx, "perm", mlirDenseI64ArrayGet(ctx, 2, (int64_t[]){1, 0}));
  MlirValue h = build(body, HERE, "rt.matmul", 2, (MlirValue[]){x, w}, x_t, 0, NULL);
  MlirValue y = build(body, HERE, "rt.tanh", 1, &h, x_t, 0, NULL);
  MlirValue one = build(body, HERE, "arith.constant", 0, NULL, f32, 1, &one_attr);
  MlirValue yy = build(body, HERE, "rt.mul", 2, (MlirValue[]){y, y}, x_t, 0, NULL);
  MlirValue d = build(body, HERE, "rt.sub", 2, (MlirValue[]){one, yy}, x_t, 0, NULL);
  MlirValue dh = build(body, HERE, "rt.mul", 2, (MlirValue[]){g, d}, x_t, 0, NULL);
  MlirValue wt = build(body, HERE, "rt.transpose", 1, &w, w_t, 1, &perm);
  MlirValue dx = build(body, HERE, "rt.matmul", 2, (MlirValue[]){dh, wt}, x_t, 0, NULL);
  MlirValue xt = build(body, HERE, "rt.transpose", 1, &x, xt_t, 1, &perm);
  MlirValue dw = build(body, HERE, "rt.matmul", 2, (MlirValue[]){xt, dh}, w_t, 0, NULL);
  MlirOperationState ret = mlirOperationStateGet(str("func.return"), HERE);
  mlirOperationStateAddOperands(&ret, 3, (MlirValue[]){y, dx, dw});
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&ret));

  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirAttribute empty = mlirDictionaryAttrGet(ctx, 0, NULL);
  MlirNamedAttribute param = named(ctx, "rt.param", mlirUnitAttrGet(ctx));
  MlirNamedAttribute tangent = named(ctx, "rt.tangent", mlirUnitAttrGet(ctx));
  MlirAttribute arg_attrs[3] = {empty, mlirDictionaryAttrGet(ctx, 1, &param),
                                mlirDictionaryAttrGet(ctx, 1, &tangent)};
  MlirNamedAttribute func_attrs[4] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, str("layer"))),
      named(ctx, "function_type", mlirTypeAttrGet(mlirFunctionTypeGet(ctx, 3, args, 3, results))),
      named(ctx, "arg_attrs", mlirArrayAttrGet(ctx, 3, arg_attrs)),
      named(ctx, "rt.num_outputs", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 1)),
  };
  MlirOperationState func = mlirOperationStateGet(str("func.func"), loc);
  mlirOperationStateAddAttributes(&func, 4, func_attrs);
  mlirOperationStateAddOwnedRegions(&func, 1, &region);
  return mlirOperationCreate(&func);
}

/* The host's pipeline: remat's checkpoint tagging, then the min-cut split, with options
 * set in structs (remat-c/Passes.h). 0, or -1 with a message. */
static int add_remat_passes(MlirPassManager pm) {
  char error[256];
  RematCheckpointOptions checkpoint;
  rematCheckpointOptionsInit(&checkpoint);
  /* Of the forward's tanh and sub, save every second one: tanh is tagged must_save, the
   * sub (1 - y*y) prefer_recompute, so the backward recomputes it. */
  snprintf(checkpoint.save_ops, sizeof checkpoint.save_ops, "rt.tanh,rt.sub");
  checkpoint.save_every = 2;
  MlirPass p = rematCreateCheckpointPass(&checkpoint, error, sizeof error);
  if (!p.ptr) {
    fprintf(stderr, "embed: remat-checkpoint: %s\n", error);
    return -1;
  }
  mlirPassManagerAddOwnedPass(pm, p);

  RematMincutOptions mincut;
  rematMincutOptionsInit(&mincut);
  mincut.scalar_factor = 0.1; /* scalars weigh a tenth of their bytes (the default) */
  p = rematCreateMincutPass(&mincut, error, sizeof error);
  if (!p.ptr) {
    fprintf(stderr, "embed: remat-mincut: %s\n", error);
    return -1;
  }
  mlirPassManagerAddOwnedPass(pm, p);
  return 0;
}

/* What a saved value is: "argument N" or the op that computes it. */
static void print_value(MlirValue v) {
  if (mlirValueIsABlockArgument(v)) {
    printf("argument %ld", (long)mlirBlockArgumentGetArgNumber(v));
  } else {
    MlirIdentifier name = mlirOperationGetName(mlirOpResultGetOwner(v));
    MlirStringRef s = mlirIdentifierStr(name);
    printf("%.*s", (int)s.length, s.data);
  }
  printf(" : ");
  mlirTypePrint(mlirValueGetType(v), print_to_stdout, NULL);
}

/* One line per function, its name and type; for the forward, what it saves. */
static void print_split(MlirModule module) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, str("sym_name")));
    MlirType type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, str("function_type")));
    printf("@%.*s : ", (int)name.length, name.data);
    mlirTypePrint(type, print_to_stdout, NULL);
    printf("\n");
    MlirAttribute outputs = mlirOperationGetAttributeByName(f, str("rt.num_outputs"));
    MlirAttribute saved = mlirOperationGetAttributeByName(f, str("rt.saved_bytes"));
    if (mlirAttributeIsNull(outputs) || mlirAttributeIsNull(saved))
      continue;
    /* The forward returns its outputs, then the values saved for the backward. */
    MlirOperation ret = mlirBlockGetTerminator(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)));
    intptr_t first = mlirIntegerAttrGetValueInt(outputs), n = mlirOperationGetNumOperands(ret);
    printf("  saves %ld values, %ld bytes:\n", (long)(n - first),
           (long)mlirIntegerAttrGetValueInt(saved));
    for (intptr_t i = first; i < n; i++) {
      printf("    ");
      print_value(mlirOperationGetOperand(ret, i));
      printf("\n");
    }
  }
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  rematAttachDiagnosticPrinter(ctx, stderr, NULL);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx))) {
    fprintf(stderr, "embed: cannot load the rt dialect\n");
    mlirContextDestroy(ctx);
    return 1;
  }
  MlirModule module = mlirModuleCreateEmpty(HERE);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), build_layer(ctx));
  MlirOperation top = mlirModuleGetOperation(module);

  int rc = 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirOperationVerify(top) && mlirLogicalResultIsSuccess(rematVerify(top)) &&
      add_remat_passes(pm) == 0 &&
      mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, top))) {
    print_split(module);
    printf("\n");
    mlirOperationPrint(top, print_to_stdout, NULL);
    printf("\n");
    rc = 0;
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return rc;
}
