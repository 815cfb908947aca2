// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-unary-float.mlir:[[@LINE+1]]:8: error: 'rt.exp' requires a floating-point element type
  %0 = "rt.exp"(%c) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  return
}
// CHECK: verify-unary-float.mlir:[[@LINE+2]]:8: error: 'rt.log1p' requires a floating-point element type
func.func @g(%c: tensor<4xi64>) {
  %0 = "rt.log1p"(%c) : (tensor<4xi64>) -> tensor<4xi64>
  return
}
