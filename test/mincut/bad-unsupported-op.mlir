// Ops the pass does not understand (here a call, whose effects it cannot see) are refused.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func @calls(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  // CHECK: bad-unsupported-op.mlir:[[@LINE+1]]:8: error: 'func.call' is not supported by --remat-mincut: a joint function may hold only rt and arith ops
  %e = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %d = "rt.mul"(%g, %e) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %e, %d : tensor<4xf32>, tensor<4xf32>
}
