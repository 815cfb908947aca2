// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-broadcast-dims.mlir:[[@LINE+1]]:8: error: 'rt.broadcast' dims[0] = 2 must be increasing and within the result rank 2
  %0 = "rt.broadcast"(%v) {dims = array<i64: 2>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}
