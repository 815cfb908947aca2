// @f_fwd already exists: the split would clash, so the pass refuses.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
func.func @f_fwd(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK: bad-symbol-clash.mlir:[[@LINE+1]]:1: error: cannot split '@f': the symbol '@f_fwd' already exists
func.func @f(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %0 : tensor<4xf32>, tensor<4xf32>
}
