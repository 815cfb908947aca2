// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xi16>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-unsupported-element.mlir:[[@LINE+1]]:8: error: 'rt.neg' operand #0 has unsupported element type in 'tensor<4x8xi16>'
  %0 = "rt.neg"(%a) : (tensor<4x8xi16>) -> tensor<4x8xi16>
  return
}
