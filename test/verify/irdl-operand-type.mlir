// IRDL's own constraints: the seed of rt.uniform_philox must be i64.
// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%s: i32, %o: i64) -> tensor<4xf32> {
  // CHECK: irdl-operand-type.mlir:[[@LINE+1]]:8: error: expected 'i64' but got 'i32'
  %0 = "rt.uniform_philox"(%s, %o) {lo = 0.0 : f64, hi = 1.0 : f64} : (i32, i64) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
