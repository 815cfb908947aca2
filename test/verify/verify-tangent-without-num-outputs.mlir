// RUN: not remat-opt %s 2>&1 | FileCheck %s
// CHECK: verify-tangent-without-num-outputs.mlir:[[@LINE+1]]:1: error: argument #1 of '@j' is marked 'rt.tangent' but the function has no 'rt.num_outputs'
func.func @j(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> tensor<4xf32> {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
