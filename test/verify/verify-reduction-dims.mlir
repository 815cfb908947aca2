// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-reduction-dims.mlir:[[@LINE+1]]:8: error: 'rt.sum' dims[0] = 2 is out of range or repeated (operand rank 2)
  %0 = "rt.sum"(%a) {dims = array<i64: 2>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}
