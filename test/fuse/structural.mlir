// Reshape, transpose, slice, concat and iota join the group of their result shape; their
// sources are kernel arguments. One whose result has another shape than its consumer's
// group belongs to another group.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// A [4x8] kernel (exp) and a [32] kernel (reshape of its result, add): the reshape
// reads the [4x8] value as an argument.
// CHECK-LABEL: func.func @reshape(%arg0: tensor<4x8xf32>, %arg1: tensor<32xf32>) -> tensor<32xf32> {
// CHECK-NEXT: %0 = call @reshape_k0(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = call @reshape_k1(%0, %arg1) : (tensor<4x8xf32>, tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %1 : tensor<32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @reshape_k0(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %0 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @reshape_k1(%arg0: tensor<4x8xf32>, %arg1: tensor<32xf32>) -> tensor<32xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.reshape"(%arg0) : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: %1 = "rt.add"(%0, %arg1) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %1 : tensor<32xf32>
// CHECK-NEXT: }
func.func @reshape(%x: tensor<4x8xf32>, %y: tensor<32xf32>) -> tensor<32xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  %s = "rt.add"(%r, %y) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %s : tensor<32xf32>
}

// Transpose of an argument fused into its consumer; a transpose back to the source
// shape is a separate [4x8] consumer of the [8x4] kernel's value.
// CHECK-LABEL: func.func @transpose(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %0 = call @transpose_k0(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %1 = call @transpose_k1(%0) : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_k0(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %1 = "rt.mul"(%0, %arg1) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %1 : tensor<8x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_k1(%arg0: tensor<8x4xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "rt.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @transpose(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %t = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %m = "rt.mul"(%t, %y) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %u = "rt.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %n = "rt.neg"(%u) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// Slice and concat are consumers too; iota is a source of its own shape.
// CHECK-LABEL: func.func @slice_concat(%arg0: tensor<4x8xf32>, %arg1: tensor<2x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT: %0 = call @slice_concat_k0(%arg0) : (tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %1 = call @slice_concat_k1(%0, %arg1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %1 : tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @slice_concat_k0(%arg0: tensor<4x8xf32>) -> tensor<2x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.slice"(%arg0) {limit = array<i64: 4, 8>, start = array<i64: 0, 0>, stride = array<i64: 2, 2>} : (tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %0 : tensor<2x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @slice_concat_k1(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.concat"(%arg0, %arg1) {dim = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %1 = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xf32>
// CHECK-NEXT: %2 = "rt.add"(%0, %1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %2 : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @slice_concat(%x: tensor<4x8xf32>, %c: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %s = "rt.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 4, 8>, stride = array<i64: 2, 2>} : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %k = "rt.concat"(%s, %c) {dim = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %i = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xf32>
  %y = "rt.add"(%k, %i) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
