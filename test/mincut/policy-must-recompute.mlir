// rt.policy = "must_recompute": never saved, and it lifts the ban on a matmul.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// o = tanh(x w); the backward reads 1 - o^2, w^T and x. Bytes: 4x8 f32 = 128, w = 256
// (rt.param, weight 0).
// @untagged: x is read (128), w is free; y = x w is banned and the output needs it, so
//   source -> y_in: one of y, o, 1 - o^2 (128 each) is cut, the one closest to the sink:
//   saved {x, w, 1 - o^2}, flow 256, rt.saved_bytes = 128 + 256 + 128 = 512.
// @tagged (the matmul must_recompute): no ban, y_in -> sink; x and w are saved anyway, so
//   the backward recomputes matmul, tanh, o^2, 1 - o^2 for free: saved {x, w}, flow 128,
//   rt.saved_bytes = 384.

// REPORT-LABEL: remat-mincut: @untagged -> @untagged_fwd, @untagged_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal   policy-must-recompute.mlir:
// REPORT-NEXT:    1  %arg1                tensor<8x8xf32>                   256  primal   policy-must-recompute.mlir:
// REPORT-NEXT:    2  rt.sub               tensor<4x8xf32>                   128  cut      policy-must-recompute.mlir:
// REPORT-NEXT:  saved bytes: 512 (rt.param: 256; no-remat baseline: 512, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 1)
// REPORT-NEXT:  max-flow value: 256
// REPORT-LABEL: remat-mincut: @tagged -> @tagged_fwd, @tagged_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal   policy-must-recompute.mlir:
// REPORT-NEXT:    1  %arg1                tensor<8x8xf32>                   256  primal   policy-must-recompute.mlir:
// REPORT-NEXT:  saved bytes: 384 (rt.param: 256; no-remat baseline: 512, 75.0%)
// REPORT-NEXT:  recomputed ops: 2 (moved to the backward: 3)
// REPORT-NEXT:  max-flow value: 128

func.func @untagged(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param},
                    %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %one = arith.constant 1.000000e+00 : f32
  %y = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %o = "rt.tanh"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %oo = "rt.mul"(%o, %o) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %om = "rt.sub"(%one, %oo) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gy = "rt.mul"(%g, %om) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %gx = "rt.matmul"(%gy, %wt) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %gyt = "rt.transpose"(%gy) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %gwt = "rt.matmul"(%gyt, %x) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %gw = "rt.transpose"(%gwt) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o, %gx, %gw : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

func.func @tagged(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param},
                    %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %one = arith.constant 1.000000e+00 : f32
  %y = "rt.matmul"(%x, %w) {rt.policy = "must_recompute"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %o = "rt.tanh"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %oo = "rt.mul"(%o, %o) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %om = "rt.sub"(%one, %oo) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gy = "rt.mul"(%g, %om) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %gx = "rt.matmul"(%gy, %wt) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %gyt = "rt.transpose"(%gy) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %gwt = "rt.matmul"(%gyt, %x) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %gw = "rt.transpose"(%gwt) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o, %gx, %gw : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @untagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 512 : i64} {
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.tanh"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.sub"(%[[CST]], %[[V2]]) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]], %[[ARG1]], %[[V3]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @untagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x8xf32>) attributes {rt.forward = @untagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG3]], %[[ARG2]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.transpose"(%[[ARG1]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.matmul"(%[[V0]], %[[V1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.transpose"(%[[V0]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.matmul"(%[[V3]], %[[ARG0]]) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.transpose"(%[[V4]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  return %[[V2]], %[[V5]] : tensor<4x8xf32>, tensor<8x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 384 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) {rt.policy = "must_recompute"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.tanh"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]], %[[ARG1]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x8xf32>) attributes {rt.forward = @tagged_fwd} {
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) {rt.policy = "must_recompute"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.tanh"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.sub"(%[[CST]], %[[V2]]) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.transpose"(%[[ARG1]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.matmul"(%[[V4]], %[[V5]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.transpose"(%[[V4]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.matmul"(%[[V7]], %[[ARG0]]) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.transpose"(%[[V8]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  return %[[V6]], %[[V9]] : tensor<4x8xf32>, tensor<8x8xf32>
// CHECK-NEXT:  }
