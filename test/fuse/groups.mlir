// Several groups: one per iteration space (result shape), and a new group of a shape
// once an op outside the group (here rt.sum) has used one of its values.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// Two shapes interleaved: [4x8] ops form one kernel, [8] ops another. Kernels are numbered
// by their first op; each call stands at the place of its group's last op.
// CHECK-LABEL: func.func @two_shapes(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = call @two_shapes_k1(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @two_shapes_k0(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %1, %0 : tensor<4x8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_shapes_k0(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "rt.mul"(%0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = "rt.tanh"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %2 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_shapes_k1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.neg"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = "rt.abs"(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
func.func @two_shapes(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.neg"(%v) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "rt.mul"(%a, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "rt.abs"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %e = "rt.tanh"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e, %d : tensor<4x8xf32>, tensor<8xf32>
}

// Softmax: exp, then a reduction, then the division. The sum uses %e, so the [4x8] group
// of %mb, %s, %e is sealed; the broadcast of the sum and the division form a second [4x8]
// kernel that reads %e as an argument.
// CHECK-LABEL: func.func @softmax(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %0 = "rt.amax"(%arg0) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = call @softmax_k0(%0, %arg0) : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = "rt.sum"(%1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = call @softmax_k1(%2, %1) : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %3 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @softmax_k0(%arg0: tensor<4xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.broadcast"(%arg0) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "rt.sub"(%arg1, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = "rt.exp"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %2 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @softmax_k1(%arg0: tensor<4xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.broadcast"(%arg0) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "rt.div"(%arg1, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = "rt.amax"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %mb = "rt.broadcast"(%m) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %s = "rt.sub"(%x, %mb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "rt.exp"(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = "rt.sum"(%e) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %zb = "rt.broadcast"(%z) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %y = "rt.div"(%e, %zb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Numbering counts per host function, and every host function's kernels follow it.
// CHECK-LABEL: func.func @second(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: %0 = call @second_k0(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @second_k0(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.exp"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
// CHECK-NEXT: }
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = "rt.exp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %a : tensor<2xf32>
}
