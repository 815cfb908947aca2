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

// CHECK-LABEL: func.func @chain_fwd(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}) -> (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 896 : i64} {
// CHECK-NEXT:  %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = "rt.exp"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %3 = "rt.matmul"(%2, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %4 = "rt.exp"(%3) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  return %4, %arg1, %0, %4 : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_bwd(%arg0: tensor<8x16xf32> {rt.param}, %arg1: tensor<4x8xf32>, %arg2: tensor<4x16xf32>, %arg3: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_fwd} {
// CHECK-NEXT:  %0 = "rt.exp"(%arg1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = "rt.mul"(%arg3, %arg2) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %3 = "rt.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %4 = "rt.matmul"(%2, %3) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %5 = "rt.transpose"(%1) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %6 = "rt.matmul"(%5, %2) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %7 = "rt.mul"(%4, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %8 = "rt.mul"(%7, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %9 = "rt.mul"(%8, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %9, %6 : tensor<4x8xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_dropout_fwd(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}, %arg2: i64, %arg3: i64) -> (tensor<4x16xf32>, tensor<8x16xf32>, i64, i64, tensor<4x8xf32>, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 912 : i64} {
// CHECK-NEXT:  %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.uniform_philox"(%arg2, %arg3) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %2 = "rt.lt"(%1, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %3 = "rt.convert"(%2) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %4 = "rt.mul"(%0, %3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %5 = "rt.mul"(%4, %cst_0) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %6 = "rt.exp"(%5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %7 = "rt.exp"(%6) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %8 = "rt.matmul"(%7, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %9 = "rt.exp"(%8) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  return %9, %arg1, %arg2, %arg3, %0, %9 : tensor<4x16xf32>, tensor<8x16xf32>, i64, i64, tensor<4x8xf32>, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @chain_dropout_bwd(%arg0: tensor<8x16xf32> {rt.param}, %arg1: i64, %arg2: i64, %arg3: tensor<4x8xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_dropout_fwd} {
// CHECK-NEXT:  %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %0 = "rt.uniform_philox"(%arg1, %arg2) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %1 = "rt.lt"(%0, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %2 = "rt.convert"(%1) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %3 = "rt.mul"(%arg3, %2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %4 = "rt.mul"(%3, %cst_0) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %5 = "rt.exp"(%4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %6 = "rt.exp"(%5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %7 = "rt.mul"(%arg5, %arg4) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %8 = "rt.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %9 = "rt.matmul"(%7, %8) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %10 = "rt.transpose"(%6) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:  %11 = "rt.matmul"(%10, %7) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %12 = "rt.mul"(%9, %6) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %13 = "rt.mul"(%12, %5) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %14 = "rt.mul"(%13, %cst_0) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %15 = "rt.mul"(%14, %2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %16 = "rt.mul"(%15, %arg3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %16, %11 : tensor<4x8xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }

// NOBAN-LABEL: func.func @chain_fwd(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}) -> (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 640 : i64} {
// NOBAN-NEXT:  %0 = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %1 = "rt.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %2 = "rt.exp"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %3 = "rt.matmul"(%2, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %4 = "rt.exp"(%3) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  return %4, %arg1, %0 : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>
// NOBAN-NEXT:  }
// NOBAN-LABEL: func.func @chain_bwd(%arg0: tensor<8x16xf32> {rt.param}, %arg1: tensor<4x8xf32>, %arg2: tensor<4x16xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>) attributes {rt.forward = @chain_fwd} {
// NOBAN-NEXT:  %0 = "rt.exp"(%arg1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %1 = "rt.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %2 = "rt.matmul"(%1, %arg0) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %3 = "rt.exp"(%2) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %4 = "rt.mul"(%arg2, %3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// NOBAN-NEXT:  %5 = "rt.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// NOBAN-NEXT:  %6 = "rt.matmul"(%4, %5) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %7 = "rt.transpose"(%1) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// NOBAN-NEXT:  %8 = "rt.matmul"(%7, %4) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// NOBAN-NEXT:  %9 = "rt.mul"(%6, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %10 = "rt.mul"(%9, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  %11 = "rt.mul"(%10, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// NOBAN-NEXT:  return %11, %8 : tensor<4x8xf32>, tensor<8x16xf32>
// NOBAN-NEXT:  }
