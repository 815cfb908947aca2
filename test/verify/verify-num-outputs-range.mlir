// RUN: not remat-opt %s 2>&1 | FileCheck %s
// CHECK: verify-num-outputs-range.mlir:[[@LINE+1]]:1: error: 'rt.num_outputs' = 2 of '@j' is out of range: the function has 1 results
func.func @j(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> tensor<4xf32> attributes {rt.num_outputs = 2 : i64} {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
