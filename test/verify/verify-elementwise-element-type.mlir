// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-elementwise-element-type.mlir:[[@LINE+1]]:8: error: 'rt.add' tensor operands have different element types 'f32' and 'i32'
  %0 = "rt.add"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  return
}
