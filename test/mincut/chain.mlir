// exp -> exp -> exp -> matmul -> exp chains, without and with dropout in the middle.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// With nothing banned the matmul is recomputed like any other op:
// RUN: remat-opt --remat-mincut=ban=none %s | FileCheck %s --check-prefix=NOBAN
//
// @chain (bytes: x, e1..e3 = 128; y, o = 256; w = 512 but an rt.param: weight 0).
// The backward reads o (exp' = exp), w^T, e3^T, e3, e2, e1 (the no-remat baseline:
// 256 + 512 + 128 x 4 = 1280). Cut: w = 0; e1..e3 hang off x by infinite edges, so one
// of x or e1 (128 each, a tie) covers them, and the cut closest to the sink saves e1 and
// recomputes e2, e3 (and moves both transposes into the backward). y is banned and the
// output needs it: source -> y_in, so o costs y or o (256, a tie: o, the later one).
// Saved {w, e1, o}: flow 0 + 128 + 256 = 384; rt.saved_bytes = 512 + 128 + 256 = 896.
// Unbanned (NOBAN): saving e1 alone (128) lets the backward recompute the matmul and o.
//
// @chain_dropout: e1 -> dropout(p = 0.5) -> e2 -> e3 -> matmul -> o. The backward also
// reads the mask as f32 (128); seed and offset cost 8 x 0.1 each, the i1 mask 32, so the
// mask is recomputed from {seed, offset}: saved {w, seed, offset, e1, o}, flow
// 0 + 0.8 + 0.8 + 128 + 256 = 385.6, rt.saved_bytes = 512 + 8 + 8 + 128 + 256 = 912.
// The backward recomputes philox, lt, convert, mul, mul, exp, exp; no matmul of the
// forward appears in either backward.

func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {rt.param},
                 %g: tensor<4x16xf32> {rt.tangent})
    -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = "rt.exp"(%e1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = "rt.exp"(%e2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "rt.matmul"(%e3, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %o = "rt.exp"(%y) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %go = "rt.mul"(%g, %o) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %ge3 = "rt.matmul"(%go, %wt) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %e3t = "rt.transpose"(%e3) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %gw = "rt.matmul"(%e3t, %go) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %ge2 = "rt.mul"(%ge3, %e3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ge1 = "rt.mul"(%ge2, %e2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.mul"(%ge1, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %gx, %gw : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
}

func.func @chain_dropout(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {rt.param}, %seed: i64,
                         %offset: i64, %g: tensor<4x16xf32> {rt.tangent})
    -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %e1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %m = "rt.lt"(%r, %half) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %mf = "rt.convert"(%m) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %d0 = "rt.mul"(%e1, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "rt.mul"(%d0, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %e2 = "rt.exp"(%d) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = "rt.exp"(%e2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "rt.matmul"(%e3, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %o = "rt.exp"(%y) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %go = "rt.mul"(%g, %o) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %ge3 = "rt.matmul"(%go, %wt) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %e3t = "rt.transpose"(%e3) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %gw = "rt.matmul"(%e3t, %go) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %ge2 = "rt.mul"(%ge3, %e3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gd = "rt.mul"(%ge2, %e2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gd0 = "rt.mul"(%gd, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %ge1 = "rt.mul"(%gd0, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.mul"(%ge1, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %gx, %gw : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: func.func @chain_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}) -> (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 896 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.exp"(%[[V1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.matmul"(%[[V2]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.exp"(%[[V3]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  return %[[V4]], %[[ARG1]], %[[V0]], %[[V4]] : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x16xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG3]], %[[ARG2]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.transpose"(%[[ARG0]]) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.matmul"(%[[V0]], %[[V1]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.exp"(%[[ARG1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.exp"(%[[V3]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.transpose"(%[[V4]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.matmul"(%[[V5]], %[[V0]]) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[V4]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.mul"(%[[V7]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.mul"(%[[V8]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V9]], %[[V6]] : tensor<4x8xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_dropout_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG2:[a-z0-9_]+]]: i64, %[[ARG3:[a-z0-9_]+]]: i64) -> (tensor<4x16xf32>, tensor<8x16xf32>, i64, i64, tensor<4x8xf32>, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 912 : i64} {
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %[[CST_0:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.uniform_philox"(%[[ARG2]], %[[ARG3]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.lt"(%[[V1]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.convert"(%[[V2]]) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %[[CST_0]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.exp"(%[[V5]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.exp"(%[[V6]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.matmul"(%[[V7]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.exp"(%[[V8]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  return %[[V9]], %[[ARG1]], %[[ARG2]], %[[ARG3]], %[[V0]], %[[V9]] : tensor<4x16xf32>, tensor<8x16xf32>, i64, i64, tensor<4x8xf32>, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_dropout_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG1:[a-z0-9_]+]]: i64, %[[ARG2:[a-z0-9_]+]]: i64, %[[ARG3:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<4x16xf32>, %[[ARG5:[a-z0-9_]+]]: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_dropout_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG5]], %[[ARG4]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.transpose"(%[[ARG0]]) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.matmul"(%[[V0]], %[[V1]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %[[CST_0:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.uniform_philox"(%[[ARG1]], %[[ARG2]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.lt"(%[[V3]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.convert"(%[[V4]]) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.mul"(%[[ARG3]], %[[V5]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.mul"(%[[V6]], %[[CST_0]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.exp"(%[[V7]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.exp"(%[[V8]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V10:[a-z0-9_]+]] = "rt.transpose"(%[[V9]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %[[V11:[a-z0-9_]+]] = "rt.matmul"(%[[V10]], %[[V0]]) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %[[V12:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[V9]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V13:[a-z0-9_]+]] = "rt.mul"(%[[V12]], %[[V8]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V14:[a-z0-9_]+]] = "rt.mul"(%[[V13]], %[[CST_0]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V15:[a-z0-9_]+]] = "rt.mul"(%[[V14]], %[[V5]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V16:[a-z0-9_]+]] = "rt.mul"(%[[V15]], %[[ARG3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V16]], %[[V11]] : tensor<4x8xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }

// NOBAN-LABEL: func.func @chain_fwd(
// NOBAN-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}) -> (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 640 : i64} {
// NOBAN-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.exp"(%[[V1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.matmul"(%[[V2]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.exp"(%[[V3]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  return %[[V4]], %[[ARG1]], %[[V0]] : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>
// NOBAN-NEXT:  }
// NOBAN-LABEL: func.func @chain_bwd(
// NOBAN-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_fwd} {
// NOBAN-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.matmul"(%[[V1]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.exp"(%[[V2]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V3]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.transpose"(%[[ARG0]]) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// NOBAN-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.matmul"(%[[V4]], %[[V5]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.transpose"(%[[V1]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// NOBAN-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.matmul"(%[[V7]], %[[V4]]) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// NOBAN-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.mul"(%[[V6]], %[[V1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V10:[a-z0-9_]+]] = "rt.mul"(%[[V9]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %[[V11:[a-z0-9_]+]] = "rt.mul"(%[[V10]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  return %[[V11]], %[[V8]] : tensor<4x8xf32>, tensor<8x16xf32>
// NOBAN-NEXT:  }
