// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-all-gather-shape.mlir:[[@LINE+1]]:8: error: 'rt.all_gather' result shape 4x8, expected 8x8
  %0 = "rt.all_gather"(%a) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
