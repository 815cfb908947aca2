// Several groups: a kernel per iteration space (its output's shape), producers that one
// fused op reads computed inside their consumer's kernel, reductions as row kernels with
// their producers and epilogue.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// Two shapes interleaved: [4x8] ops form one kernel, [8] ops another. Kernels are numbered
// by their first op (k0 starts with the exp); each call stands at the place of its
// group's last member, so the [8] kernel (ending with the abs) is called first.
// CHECK-LABEL: func.func @two_shapes(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @two_shapes_k1(%[[ARG1]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = call @two_shapes_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]] : tensor<4x8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_shapes_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.tanh"(%[[V1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_shapes_k1(%[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.abs"(%[[V0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8xf32>
// CHECK-NEXT: }
func.func @two_shapes(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.neg"(%v) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "rt.mul"(%a, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "rt.abs"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %e = "rt.tanh"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e, %d : tensor<4x8xf32>, tensor<8xf32>
}

// Softmax: one row kernel. The amax, then the sum of exp(x - max) with the exp computed in
// the reduction's pass, then the division as the epilogue (the exp recomputed there): no
// intermediate is written.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @softmax_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @softmax_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.amax"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG0]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.exp"(%[[V2]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.sum"(%[[V3]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.broadcast"(%[[V4]]) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.div"(%[[V3]], %[[V5]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V6]] : tensor<4x8xf32>
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
// CHECK-LABEL: func.func @second(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @second_k0(%[[ARG0]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @second_k0(%[[ARG0:[^:]*]]: tensor<2xf32>) -> tensor<2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2xf32>
// CHECK-NEXT: }
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = "rt.exp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %a : tensor<2xf32>
}
