// rt_extern_op.cpp: registers rt.extern, rt.attention and rt.attention_grad, the rt ops that
// IRDL cannot declare. C++ only
// because MLIR has no C entry point for defining an op (docs/design.md, "Ops remat does
// not model").
//
// IRDL binds each constraint to one type per op, so the operands of a variadic group
// share one type, and so do the results: rt.extern's differ (a convolution's input and
// weight; max_pool2d_with_indices' values and indices). rt.irdl.mlir declares it for
// upstream tools as far as IRDL can; rt_dialect.c leaves that entry out and this registers
// the op with no verifier of its own: remat's semantic verifier (rt_verify.c) checks it,
// as it checks what IRDL cannot of every rt op. The attention ops' optional operands (an i1
// or float mask, i64 seed and offset) are such a group too.
#include "mlir/CAPI/IR.h"
#include "mlir/IR/ExtensibleDialect.h"
#include "mlir/IR/MLIRContext.h"

extern "C" bool rt_register_unverified_op(MlirContext ctx, const char *name) {
  auto *rt = llvm::dyn_cast_or_null<mlir::ExtensibleDialect>(unwrap(ctx)->getLoadedDialect("rt"));
  if (!rt)
    return false;
  auto any = [](mlir::Operation *) { return mlir::success(); };
  rt->registerDynamicOp(mlir::DynamicOpDefinition::get(name, rt, any, any));
  return true;
}
