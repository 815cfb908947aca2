// A forward output that depends on a tangent cannot be computed by @f_fwd.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
func.func @leak(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %e = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %d = "rt.mul"(%g, %e) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: bad-forward-uses-tangent.mlir:[[@LINE+1]]:3: error: forward output #0 of '@leak' depends on a tangent: forward outputs must be computable without the cotangents
  return %d, %e : tensor<4xf32>, tensor<4xf32>
}
