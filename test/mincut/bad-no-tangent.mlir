// A joint function without rt.tangent arguments has no backward: located error, exit 1.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
// CHECK: bad-no-tangent.mlir:[[@LINE+1]]:1: error: joint function '@no_tangent' has no 'rt.tangent' argument: nothing depends on the outputs' cotangents, there is no backward to split
func.func @no_tangent(%x: tensor<4xf32>, %g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %e = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %d = "rt.mul"(%g, %e) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %e, %d : tensor<4xf32>, tensor<4xf32>
}
