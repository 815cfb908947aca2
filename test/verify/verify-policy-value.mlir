// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-policy-value.mlir:[[@LINE+1]]:8: error: 'rt.policy' must be one of "must_save", "prefer_save", "must_recompute", "prefer_recompute"
  %0 = "rt.exp"(%a) {rt.policy = "always"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
