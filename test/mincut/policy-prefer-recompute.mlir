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

// CHECK-LABEL: func.func @untagged_fwd(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%0, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %1, %0 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @untagged_bwd(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @untagged_fwd} {
// CHECK-NEXT:  %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %0 = "rt.mul"(%arg1, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = "rt.mul"(%1, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %2 : tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_fwd(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %0 = "rt.exp"(%arg0) {rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%0, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %1, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_bwd(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @tagged_fwd} {
// CHECK-NEXT:  %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %0 = "rt.exp"(%arg0) {rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%arg1, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = "rt.mul"(%1, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %3 = "rt.mul"(%2, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %3 : tensor<4x8xf32>
// CHECK-NEXT:  }
