// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: unknown-op.mlir:[[@LINE+1]]:8: error: unregistered operation 'rt.softmax' found in dialect ('rt')
  %0 = "rt.softmax"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
