// An MLP block: matmul -> gelu (tanh approximation, written out in rt ops) -> matmul ->
// dropout, with its hand-written backward.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
//
// Bytes: x, y, the f32 mask = 128; h and everything of gelu = 256 (4x16 f32); w1, w2 = 512
// but rt.param (weight 0); seed, offset = 8 x 0.1; the i1 mask = 32.
// The backward reads x, w1^T, w2^T, gl^T, gelu'(h) and the f32 mask (baseline
// 128 + 512 + 512 + 256 + 256 + 128 = 1792). gl and gelu'(h) both derive from h alone
// (256) — saving them costs 512; h is banned (a matmul the output needs), so the cut saves
// h itself. x is read directly (128); w1, w2 cost 0 and cover their transposes (512 each);
// the mask comes back from seed and offset (1.6 < 32 < 128).
// Saved {x, w1, w2, seed, offset, h}: flow 128 + 1.6 + 256 = 385.6,
// rt.saved_bytes = 128 + 512 + 512 + 8 + 8 + 256 = 1424. The backward recomputes gelu from
// h and the mask from the seed; neither forward matmul appears in @mlp_bwd.

func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32> {rt.param},
               %w2: tensor<16x8xf32> {rt.param}, %seed: i64, %offset: i64,
               %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %k = arith.constant 4.471500e-02 : f32
  %k3 = arith.constant 1.341450e-01 : f32
  %s = arith.constant 0.797884583 : f32
  // forward: h = x w1; gl = gelu(h) (tanh approximation); y = gl w2; out = dropout(y)
  %h = "rt.matmul"(%x, %w1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %h2 = "rt.mul"(%h, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %h3 = "rt.mul"(%h2, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = "rt.mul"(%h3, %k) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %b = "rt.add"(%h, %a) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = "rt.mul"(%b, %s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %t = "rt.tanh"(%c) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = "rt.add"(%t, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %v = "rt.mul"(%h, %u) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gl = "rt.mul"(%v, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %y = "rt.matmul"(%gl, %w2) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %m = "rt.lt"(%r, %half) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %mf = "rt.convert"(%m) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %z = "rt.mul"(%y, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = "rt.mul"(%z, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  // backward
  %gz = "rt.mul"(%g, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %gy = "rt.mul"(%gz, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2t = "rt.transpose"(%w2) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %ggl = "rt.matmul"(%gy, %w2t) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %glt = "rt.transpose"(%gl) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %gw2 = "rt.matmul"(%glt, %gy) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  // gelu'(h) = 0.5 u + 0.5 h (1 - t^2) s (1 + 3 k h^2)
  %tt = "rt.mul"(%t, %t) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %omt = "rt.sub"(%one, %tt) : (f32, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p1 = "rt.mul"(%h2, %k3) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p2 = "rt.add"(%p1, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p3 = "rt.mul"(%p2, %s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p4 = "rt.mul"(%omt, %p3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p5 = "rt.mul"(%p4, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p6 = "rt.mul"(%p5, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %u2 = "rt.mul"(%u, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %dg = "rt.add"(%u2, %p6) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gh = "rt.mul"(%ggl, %dg) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %w1t = "rt.transpose"(%w1) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %gx = "rt.matmul"(%gh, %w1t) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %ght = "rt.transpose"(%gh) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %gw1t = "rt.matmul"(%ght, %x) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  %gw1 = "rt.transpose"(%gw1t) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  return %out, %gx, %gw1, %gw2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>
}

// CHECK-LABEL: func.func @mlp_fwd(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}, %arg2: tensor<16x8xf32> {rt.param}, %arg3: i64, %arg4: i64) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>, i64, i64, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 1424 : i64} {
// CHECK-NEXT:  %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %cst_2 = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 0.797884583 : f32
// CHECK-NEXT:  %0 = "rt.matmul"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%0, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %2 = "rt.mul"(%1, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %3 = "rt.mul"(%2, %cst_2) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %4 = "rt.add"(%0, %3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %5 = "rt.mul"(%4, %cst_3) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %6 = "rt.tanh"(%5) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %7 = "rt.add"(%6, %cst_0) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %8 = "rt.mul"(%0, %7) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %9 = "rt.mul"(%8, %cst) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %10 = "rt.matmul"(%9, %arg2) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %11 = "rt.uniform_philox"(%arg3, %arg4) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %12 = "rt.lt"(%11, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %13 = "rt.convert"(%12) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %14 = "rt.mul"(%10, %13) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %15 = "rt.mul"(%14, %cst_1) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %15, %arg0, %arg1, %arg2, %arg3, %arg4, %0 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>, i64, i64, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @mlp_bwd(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}, %arg2: tensor<16x8xf32> {rt.param}, %arg3: i64, %arg4: i64, %arg5: tensor<4x16xf32>, %arg6: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>) attributes {rt.forward = @mlp_fwd} {
// CHECK-NEXT:  %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %cst_2 = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 1.341450e-01 : f32
// CHECK-NEXT:  %cst_4 = arith.constant 0.797884583 : f32
// CHECK-NEXT:  %0 = "rt.mul"(%arg5, %arg5) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %1 = "rt.mul"(%0, %arg5) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %2 = "rt.mul"(%1, %cst_2) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %3 = "rt.add"(%arg5, %2) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %4 = "rt.mul"(%3, %cst_4) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %5 = "rt.tanh"(%4) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %6 = "rt.add"(%5, %cst_0) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %7 = "rt.mul"(%arg5, %6) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %8 = "rt.mul"(%7, %cst) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %9 = "rt.uniform_philox"(%arg3, %arg4) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %10 = "rt.lt"(%9, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %11 = "rt.convert"(%10) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %12 = "rt.mul"(%arg6, %cst_1) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %13 = "rt.mul"(%12, %11) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %14 = "rt.transpose"(%arg2) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %15 = "rt.matmul"(%13, %14) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %16 = "rt.transpose"(%8) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:  %17 = "rt.matmul"(%16, %13) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %18 = "rt.mul"(%5, %5) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %19 = "rt.sub"(%cst_0, %18) : (f32, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %20 = "rt.mul"(%0, %cst_3) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %21 = "rt.add"(%20, %cst_0) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %22 = "rt.mul"(%21, %cst_4) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %23 = "rt.mul"(%19, %22) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %24 = "rt.mul"(%23, %arg5) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %25 = "rt.mul"(%24, %cst) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %26 = "rt.mul"(%6, %cst) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %27 = "rt.add"(%26, %25) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %28 = "rt.mul"(%15, %27) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %29 = "rt.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %30 = "rt.matmul"(%28, %29) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %31 = "rt.transpose"(%28) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:  %32 = "rt.matmul"(%31, %arg0) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %33 = "rt.transpose"(%32) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %30, %33, %17 : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>
// CHECK-NEXT:  }
