// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-convert-shape.mlir:[[@LINE+1]]:8: error: 'rt.convert' changes the shape
  %0 = "rt.convert"(%a) : (tensor<4x8xf32>) -> tensor<8x4xf16>
  return
}
