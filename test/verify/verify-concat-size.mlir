// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-concat-size.mlir:[[@LINE+1]]:8: error: 'rt.concat' result dimension 1 is 12, expected 16
  %0 = "rt.concat"(%a, %a) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x12xf32>
  return
}
