// A banned op runs once: never in both functions.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// s = sum(x) (banned, 16 bytes) feeds c = broadcast(s) + x w; the output is d = x w
// (banned, so source -> d_in); the backward reads c, s and x (128 + 16 + 128).
// docs/design.md's network ("Min-cut") alone finds two cuts of 256: {x, c} and {x, d}. With {x, c} the
// forward computes c, hence s, and the backward, which reads s, would compute the sum again.
// The run-once nodes (A(u) -> ... -> s_in for every value computed from s) make c on the
// source side pull s_in there too, so {x, c} costs 272 (s saved as well) and the cut is
// {x, d}: flow 256, the backward computes sum, broadcast and add once ("moved").
// @once_c_saved: c is tagged must_save, so the forward computes c and therefore s; s is
// saved for the backward instead of summed twice: {x, s, c}, flow 272.

// REPORT-LABEL: remat-mincut: @once -> @once_fwd, @once_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<4x8xf32>                   128  primal   banned-once.mlir:
// REPORT-NEXT:    1  rt.matmul            tensor<4x8xf32>                   128  cut      banned-once.mlir:
// REPORT-NEXT:  saved bytes: 256 (rt.param: 0; no-remat baseline: 272, 94.1%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 3)
// REPORT-NEXT:  max-flow value: 256
// REPORT-LABEL: remat-mincut: @once_c_saved -> @once_c_saved_fwd, @once_c_saved_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<4x8xf32>                   128  primal   banned-once.mlir:
// REPORT-NEXT:    1  rt.sum               tensor<4xf32>                      16  cut      banned-once.mlir:
// REPORT-NEXT:    2  rt.add               tensor<4x8xf32>                   128  policy   banned-once.mlir:
// REPORT-NEXT:  saved bytes: 272 (rt.param: 0; no-remat baseline: 272, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 0)
// REPORT-NEXT:  max-flow value: 272

func.func @once(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param}, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %s = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %sb = "rt.broadcast"(%s) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%sb, %d) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gv = "rt.sum"(%t1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %t3 = "rt.mul"(%gv, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t4 = "rt.mul"(%g, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d, %t3, %t4 : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}

func.func @once_c_saved(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param}, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %s = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %sb = "rt.broadcast"(%s) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%sb, %d) {rt.policy = "must_save"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gv = "rt.sum"(%t1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %t3 = "rt.mul"(%gv, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t4 = "rt.mul"(%g, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d, %t3, %t4 : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @once_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 256 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V0]], %[[ARG0]], %[[V0]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @once_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4x8xf32>) attributes {rt.forward = @once_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.sum"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.add"(%[[V1]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V2]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.sum"(%[[V3]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %[[V0]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V5]], %[[V6]] : tensor<4xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @once_c_saved_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x8xf32> {rt.param}) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 272 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.sum"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.add"(%[[V1]], %[[V2]]) {rt.policy = "must_save"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V2]], %[[ARG0]], %[[V0]], %[[V3]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @once_c_saved_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4x8xf32>) attributes {rt.forward = @once_c_saved_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG3]], %[[ARG2]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.sum"(%[[V0]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[ARG1]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[ARG3]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V2]], %[[V3]] : tensor<4xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
