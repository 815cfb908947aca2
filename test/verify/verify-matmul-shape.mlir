// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-matmul-shape.mlir:[[@LINE+1]]:8: error: 'rt.matmul' shapes do not agree: 4x8 x 4x8 -> 4x8
  %0 = "rt.matmul"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
