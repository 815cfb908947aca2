// RUN: not remat-opt %s 2>&1 | FileCheck %s
// CHECK: verify-num-outputs-type.mlir:[[@LINE+1]]:1: error: 'rt.num_outputs' of '@j' must be an integer
func.func @j(%a: tensor<4xf32>) -> tensor<4xf32> attributes {rt.num_outputs = "one"} {
  return %a : tensor<4xf32>
}
