// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4611686018427387904x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-size-overflow.mlir:[[@LINE+1]]:8: error: 'rt.neg' operand #0: size of 'tensor<4611686018427387904x8xf32>' overflows 64 bits
  %0 = "rt.neg"(%a) : (tensor<4611686018427387904x8xf32>) -> tensor<4611686018427387904x8xf32>
  return
}
