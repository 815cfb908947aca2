// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-reshape-count.mlir:[[@LINE+1]]:8: error: 'rt.reshape' changes the element count from 32 to 30
  %0 = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<30xf32>
  return
}
