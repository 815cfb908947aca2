// A recompute tag lifts the ban on a matmul, prefer_recompute as well as must_recompute
// (as in PyTorch's partitioner; --remat-checkpoint's save list and memory budget rely on
// it). o = exp(x w) is the output and the backward reads o (4x4 f32 = 64 bytes each).
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// @untagged: the matmul is banned and the output needs it (source -> y_in): y or o (64,
//   a tie) is saved, o being closer to the sink; flow 64.
// @tagged (matmul prefer_recompute, exp must_recompute): y and o are never saved, so the
//   backward recomputes both from x and w: saved {x, w}, flow 128.

func.func @untagged(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %g: tensor<4x4xf32> {rt.tangent})
    -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %y = "rt.matmul"(%x, %w) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = "rt.exp"(%y) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%g, %o) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o, %d : tensor<4x4xf32>, tensor<4x4xf32>
}

func.func @tagged(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %g: tensor<4x4xf32> {rt.tangent})
    -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %y = "rt.matmul"(%x, %w) {rt.policy = "prefer_recompute"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = "rt.exp"(%y) {rt.policy = "must_recompute"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%g, %o) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o, %d : tensor<4x4xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @untagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x4xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 64 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  return %[[V1]], %[[V1]] : tensor<4x4xf32>, tensor<4x4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @untagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x4xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x4xf32> {rt.tangent}) -> tensor<4x4xf32> attributes {rt.forward = @untagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG1]], %[[ARG0]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  return %[[V0]] : tensor<4x4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x4xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) {rt.policy = "prefer_recompute"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) {rt.policy = "must_recompute"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  return %[[V1]], %[[ARG0]], %[[ARG1]] : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @tagged_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x4xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x4xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x4xf32> {rt.tangent}) -> tensor<4x4xf32> attributes {rt.forward = @tagged_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) {rt.policy = "prefer_recompute"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) {rt.policy = "must_recompute"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  return %[[V2]] : tensor<4x4xf32>
// CHECK-NEXT:  }
