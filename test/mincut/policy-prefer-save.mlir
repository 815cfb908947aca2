// rt.policy = "prefer_save": like must_save, the tagged op is never recomputed (the
// partitioner has no reason to override the preference: saving is always possible).
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Bytes: every tensor is 4x8 f32 = 128. The backward reads e2 * e1 and x.
// @untagged: x is read anyway (128) and e1, e2 hang off it: saved {x}, flow 128; the
//   backward recomputes exp, exp.
// @tagged (e2 prefer_save): source -> e2_in, and the backward reads e2, so e2 is cut too:
//   saved {x, e2}, flow 256; the backward recomputes only e1 = exp(x).

// REPORT-LABEL: remat-mincut: @untagged -> @untagged_fwd, @untagged_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal   policy-prefer-save.mlir:
// REPORT-NEXT:  saved bytes: 128 (rt.param: 0; no-remat baseline: 384, 33.3%)
// REPORT-NEXT:  recomputed ops: 2 (moved to the backward: 0)
// REPORT-LABEL: remat-mincut: @tagged -> @tagged_fwd, @tagged_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal   policy-prefer-save.mlir:
// REPORT-NEXT:    1  rt.exp               tensor<4x8xf32>                   128  policy   policy-prefer-save.mlir:36:9
// REPORT-NEXT:  saved bytes: 256 (rt.param: 0; no-remat baseline: 384, 66.7%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 0)

func.func @untagged(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = "rt.exp"(%e1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %e2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = "rt.mul"(%t1, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t3 = "rt.mul"(%g, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.add"(%t2, %t3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e2, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @tagged(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = "rt.exp"(%e1) {rt.policy = "prefer_save"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %e2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = "rt.mul"(%t1, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t3 = "rt.mul"(%g, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.add"(%t2, %t3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e2, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @untagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @untagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @untagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[ARG1]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[ARG1]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.add"(%[[V3]], %[[V4]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V5]] : tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 256 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) {rt.policy = "prefer_save"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]], %[[V1]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> tensor<4x8xf32> attributes {rt.forward = @tagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.add"(%[[V2]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V4]] : tensor<4x8xf32>
// CHECK-NEXT:  }
