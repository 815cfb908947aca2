// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-concat-shape.mlir:[[@LINE+1]]:8: error: 'rt.concat' operand #1 does not match the result outside dimension 0
  %0 = "rt.concat"(%a, %b) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<12x8xf32>
  return
}
