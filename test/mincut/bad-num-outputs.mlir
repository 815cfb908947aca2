// rt.num_outputs beyond the results is caught by the verifier before the pass runs.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
// CHECK: bad-num-outputs.mlir:[[@LINE+1]]:1: error: 'rt.num_outputs' = 3 of '@j' is out of range: the function has 2 results
func.func @j(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 3 : i64} {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %0 : tensor<4xf32>, tensor<4xf32>
}
