// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-elementwise-no-tensor.mlir:[[@LINE+1]]:8: error: 'rt.add' needs at least one tensor operand
  %0 = "rt.add"(%s, %s) : (f32, f32) -> tensor<4x8xf32>
  return
}
