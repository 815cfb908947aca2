// Broadcasts are index maps inside the kernel that reads them: their result is in the
// kernel's iteration space, their operand (another shape) is read through index
// arithmetic, from an argument or computed in place.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// Bias add and relu after a matmul: the 1-D parameter is an argument of the kernel.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x16xf32> {rt.param}, %[[ARG2:[^:]*]]: tensor<16xf32> {rt.param}) -> tensor<4x16xf32> {
// CHECK-NEXT: %[[V0:.*]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @bias_relu_k0(%[[ARG2]], %[[V0]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bias_relu_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[ARG1]], %[[V0]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.max"(%[[V1]], %[[CST]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @bias_relu(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {rt.param}, %b: tensor<16xf32> {rt.param}) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %h = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %y = "rt.add"(%h, %bb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.max"(%y, %zero) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// The broadcast written before the matmul: the matmul does not use the group, so the
// add still joins it, and the call stands after the matmul.
// CHECK-LABEL: func.func @bias_first(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x16xf32>, %[[ARG2:[^:]*]]: tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT: %[[V0:.*]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @bias_first_k0(%[[ARG2]], %[[V0]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bias_first_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[ARG1]], %[[V0]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @bias_first(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %h = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %y = "rt.add"(%h, %bb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// A broadcast of a value computed from another shape: the exp has one consumer, so the
// [4x16] kernel computes it at the index the broadcast maps to (no [16] kernel, no round
// trip through memory).
// CHECK-LABEL: func.func @broadcast_of_kernel(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @broadcast_of_kernel_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_of_kernel_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[ARG1]], %[[V1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @broadcast_of_kernel(%v: tensor<16xf32>, %x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = "rt.exp"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  %eb = "rt.broadcast"(%e) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %y = "rt.mul"(%x, %eb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// An expensive value read by two kernels through broadcasts is not recomputed per
// element of each: the exp is a [16] kernel, both consumers read its result.
// CHECK-LABEL: func.func @broadcast_shared(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<16x2xf32>) -> (tensor<4x16xf32>, tensor<16x2xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @broadcast_shared_k0(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @broadcast_shared_k1(%[[V0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = call @broadcast_shared_k2(%[[V0]], %[[ARG2]]) : (tensor<16xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4x16xf32>, tensor<16x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_shared_k0(%[[ARG0:[^:]*]]: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_shared_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[ARG1]], %[[V0]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_shared_k2(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16x2xf32>) -> tensor<16x2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[ARG1]], %[[V0]]) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x2xf32>
// CHECK-NEXT: }
func.func @broadcast_shared(%v: tensor<16xf32>, %x: tensor<4x16xf32>, %y: tensor<16x2xf32>) -> (tensor<4x16xf32>, tensor<16x2xf32>) {
  %e = "rt.exp"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  %eb = "rt.broadcast"(%e) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %a = "rt.mul"(%x, %eb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ec = "rt.broadcast"(%e) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x2xf32>
  %b = "rt.add"(%y, %ec) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
  return %a, %b : tensor<4x16xf32>, tensor<16x2xf32>
}

// A cheap one is recomputed in both: the neg costs a load either way.
// CHECK-LABEL: func.func @broadcast_cheap(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<16x2xf32>) -> (tensor<4x16xf32>, tensor<16x2xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @broadcast_cheap_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @broadcast_cheap_k1(%[[ARG0]], %[[ARG2]]) : (tensor<16xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x16xf32>, tensor<16x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_cheap_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[ARG1]], %[[V1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_cheap_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16x2xf32>) -> tensor<16x2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.add"(%[[ARG1]], %[[V1]]) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return %[[V2]] : tensor<16x2xf32>
// CHECK-NEXT: }
func.func @broadcast_cheap(%v: tensor<16xf32>, %x: tensor<4x16xf32>, %y: tensor<16x2xf32>) -> (tensor<4x16xf32>, tensor<16x2xf32>) {
  %e = "rt.neg"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  %eb = "rt.broadcast"(%e) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %a = "rt.mul"(%x, %eb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ec = "rt.broadcast"(%e) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x2xf32>
  %b = "rt.add"(%y, %ec) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
  return %a, %b : tensor<4x16xf32>, tensor<16x2xf32>
}
