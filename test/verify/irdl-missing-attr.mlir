// IRDL's own constraints: declared attributes are required.
// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // CHECK: irdl-missing-attr.mlir:[[@LINE+1]]:8: error: 'rt.transpose' op attribute "perm" is expected but not provided
  %0 = "rt.transpose"(%a) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
