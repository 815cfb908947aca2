// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-reduce-scatter-divisible.mlir:[[@LINE+1]]:8: error: 'rt.reduce_scatter' dimension 0 (4) is not divisible by group_size 3
  %0 = "rt.reduce_scatter"(%a) {group = "dp", group_size = 3 : i64, dim = 0 : i64, reduce = "sum"} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return
}
