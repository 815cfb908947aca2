// rt.extern's operands and results may differ in type (a convolution's input and weight).
// IRDL binds a variadic group to one type, so the IRDL entry in rt.irdl.mlir admits only
// operands of one type and results of one type: upstream mlir-opt --irdl-file refuses the
// general form, which remat's tools accept (rt_extern_op.cpp registers the op; docs/
// design.md, "Ops remat does not model"). test/dialect/roundtrip.mlir has the form both take.
// RUN: remat-opt %s | FileCheck %s
// RUN: not mlir-opt --irdl-file=%rt_irdl %s 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// CHECK: "rt.extern"(%arg0, %arg1) {name = "aten.convolution.default"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// UPSTREAM: error: expected 'tensor<1x3x8x8xf32>' but got 'tensor<4x3x3x3xf32>'
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "rt.extern"(%x, %w) {name = "aten.convolution.default"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
