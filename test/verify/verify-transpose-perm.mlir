// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-transpose-perm.mlir:[[@LINE+1]]:8: error: 'rt.transpose' perm is not a permutation of 0..1
  %0 = "rt.transpose"(%a) {perm = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}
