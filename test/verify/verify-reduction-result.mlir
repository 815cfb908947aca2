// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-reduction-result.mlir:[[@LINE+1]]:8: error: 'rt.amax' result shape 8, expected 4 (the reduced dims are dropped)
  %0 = "rt.amax"(%a) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<8xf32>
  return
}
