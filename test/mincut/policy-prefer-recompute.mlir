// rt.policy = "prefer_recompute": never saved (v_in -> sink); like must_recompute it also
// lifts a ban (policy-recompute-lifts-ban.mlir).
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// o = e * e with e = exp(x); the backward reads e (4x8 f32 = 128 bytes).
// @untagged: x or e (128, a tie): the cut closest to the sink saves e, flow 128.
// @tagged (exp prefer_recompute): e_in -> sink, so x is saved and the backward
//   recomputes exp: saved {x}, flow 128.

// REPORT-LABEL: remat-mincut: @untagged -> @untagged_fwd, @untagged_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  rt.exp               tensor<4x8xf32>                   128  cut      policy-prefer-recompute.mlir:
// REPORT-NEXT:  saved bytes: 128 (rt.param: 0; no-remat baseline: 128, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 0)
// REPORT-LABEL: remat-mincut: @tagged -> @tagged_fwd, @tagged_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<4x8xf32>                   128  primal   policy-prefer-recompute.mlir:
// REPORT-NEXT:  saved bytes: 128 (rt.param: 0; no-remat baseline: 128, 100.0%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 0)

func.func @untagged(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %two = arith.constant 2.000000e+00 : f32
  %e = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "rt.mul"(%e, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = "rt.mul"(%t1, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.mul"(%t2, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %o, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @tagged(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %two = arith.constant 2.000000e+00 : f32
  %e = "rt.exp"(%x) {rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "rt.mul"(%e, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = "rt.mul"(%t1, %e) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.mul"(%t2, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %o, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @untagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[V0]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @untagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @untagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG1]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V2]] : tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) {rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @tagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) {rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[ARG1]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V3]] : tensor<4x8xf32>
// CHECK-NEXT:  }
