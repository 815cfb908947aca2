// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-compare-result-i1.mlir:[[@LINE+1]]:8: error: 'rt.lt' result must have element type i1, got 'f32'
  %0 = "rt.lt"(%a, %s) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return
}
