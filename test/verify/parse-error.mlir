// Malformed IR: a located parse error and exit 1, no crash.
// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: parse-error.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = "rt.exp"(%a) : (tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
