// transpose_a / transpose_b on rt.matmul are unit attributes; the shapes are checked as
// the product reads the operands (last two dims swapped).
// RUN: not remat-opt %s 2>&1 | FileCheck %s
func.func @f(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x8x3xf32>) {
  // CHECK-NOT: verify-matmul-transpose.mlir:[[@LINE+1]]
  %0 = "rt.matmul"(%a, %w) {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // CHECK-NOT: verify-matmul-transpose.mlir:[[@LINE+1]]
  %1 = "rt.matmul"(%b, %c) {transpose_a} : (tensor<2x8x4xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: verify-matmul-transpose.mlir:[[@LINE+1]]:8: error: 'rt.matmul' shapes do not agree: 4x8^T x 16x8 -> 4x16
  %2 = "rt.matmul"(%a, %w) {transpose_a} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // CHECK: verify-matmul-transpose.mlir:[[@LINE+1]]:8: error: 'rt.matmul' transpose_a and transpose_b must be unit attributes
  %3 = "rt.matmul"(%a, %w) {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return
}
