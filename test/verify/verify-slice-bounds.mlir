// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-slice-bounds.mlir:[[@LINE+1]]:8: error: 'rt.slice' bounds of dimension 1 are invalid: need 0 <= start (2) <= limit (9) <= 8 and stride (1) >= 1
  %0 = "rt.slice"(%a) {start = array<i64: 0, 2>, limit = array<i64: 4, 9>, stride = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x7xf32>
  return
}
