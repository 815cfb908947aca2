// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-slice-result.mlir:[[@LINE+1]]:8: error: 'rt.slice' result dimension 1 is 2, expected 3
  %0 = "rt.slice"(%a) {start = array<i64: 0, 0>, limit = array<i64: 4, 8>, stride = array<i64: 1, 3>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return
}
