// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-elementwise-result-shape.mlir:[[@LINE+1]]:8: error: 'rt.mul' result shape 8x4 differs from the operand shape 4x8
  %0 = "rt.mul"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}
