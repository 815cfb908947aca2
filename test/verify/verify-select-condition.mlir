// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-select-condition.mlir:[[@LINE+1]]:8: error: 'rt.select' operand shapes differ
  %0 = "rt.select"(%a, %a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  return
}
