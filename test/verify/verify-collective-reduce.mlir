// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-collective-reduce.mlir:[[@LINE+1]]:8: error: 'rt.all_reduce' reduce must be "sum", "max" or "min"
  %0 = "rt.all_reduce"(%a) {group = "dp", group_size = 2 : i64, reduce = "mean"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
