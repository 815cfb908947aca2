// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-philox-bounds.mlir:[[@LINE+1]]:8: error: 'rt.uniform_philox' needs float attributes lo <= hi
  %0 = "rt.uniform_philox"(%i, %i) {lo = 1.0 : f64, hi = 0.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  return
}
