// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // CHECK: verify-philox-f64.mlir:[[@LINE+1]]:8: error: 'rt.uniform_philox' result must be f32, f16 or bf16
  %0 = "rt.uniform_philox"(%i, %i) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf64>
  return
}
