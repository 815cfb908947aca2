// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-dynamic-shape.mlir:[[@LINE-1]]:1: error: function '@f' argument #0 has a dynamic shape 'tensor<?x8xf32>'
  // CHECK: verify-dynamic-shape.mlir:[[@LINE+1]]:8: error: 'rt.exp' operand #0 has a dynamic shape 'tensor<?x8xf32>': only static shapes are supported
  %0 = "rt.exp"(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}
