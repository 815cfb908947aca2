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

// CHECK-LABEL: func.func @mlp_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG2:[a-z0-9_]+]]: tensor<16x8xf32> {rt.param}, %[[ARG3:[a-z0-9_]+]]: i64, %[[ARG4:[a-z0-9_]+]]: i64) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>, i64, i64, tensor<4x16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 1424 : i64} {
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %[[CST_0:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %[[CST_1:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[CST_2:[a-z0-9_]+]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:  %[[CST_3:[a-z0-9_]+]] = arith.constant 0.797884583 : f32
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V0]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V0]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[CST_2]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.add"(%[[V0]], %[[V3]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %[[CST_3]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.tanh"(%[[V5]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.add"(%[[V6]], %[[CST_0]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V7]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.mul"(%[[V8]], %[[CST]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V10:[a-z0-9_]+]] = "rt.matmul"(%[[V9]], %[[ARG2]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V11:[a-z0-9_]+]] = "rt.uniform_philox"(%[[ARG3]], %[[ARG4]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V12:[a-z0-9_]+]] = "rt.lt"(%[[V11]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %[[V13:[a-z0-9_]+]] = "rt.convert"(%[[V12]]) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V14:[a-z0-9_]+]] = "rt.mul"(%[[V10]], %[[V13]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V15:[a-z0-9_]+]] = "rt.mul"(%[[V14]], %[[CST_1]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V15]], %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]], %[[ARG4]], %[[V0]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>, i64, i64, tensor<4x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @mlp_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8x16xf32> {rt.param}, %[[ARG2:[a-z0-9_]+]]: tensor<16x8xf32> {rt.param}, %[[ARG3:[a-z0-9_]+]]: i64, %[[ARG4:[a-z0-9_]+]]: i64, %[[ARG5:[a-z0-9_]+]]: tensor<4x16xf32>, %[[ARG6:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>) attributes {rt.forward = @mlp_fwd} {
// CHECK-NEXT:  %[[CST:[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG6]], %[[CST]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[CST_0:[a-z0-9_]+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.uniform_philox"(%[[ARG3]], %[[ARG4]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.lt"(%[[V1]], %[[CST_0]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.convert"(%[[V2]]) : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.transpose"(%[[ARG2]]) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.matmul"(%[[V4]], %[[V5]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[CST_1:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %[[CST_2:[a-z0-9_]+]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:  %[[CST_3:[a-z0-9_]+]] = arith.constant 0.797884583 : f32
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.mul"(%[[ARG5]], %[[ARG5]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V8:[a-z0-9_]+]] = "rt.mul"(%[[V7]], %[[ARG5]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V9:[a-z0-9_]+]] = "rt.mul"(%[[V8]], %[[CST_2]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V10:[a-z0-9_]+]] = "rt.add"(%[[ARG5]], %[[V9]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V11:[a-z0-9_]+]] = "rt.mul"(%[[V10]], %[[CST_3]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V12:[a-z0-9_]+]] = "rt.tanh"(%[[V11]]) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V13:[a-z0-9_]+]] = "rt.add"(%[[V12]], %[[CST_1]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V14:[a-z0-9_]+]] = "rt.mul"(%[[ARG5]], %[[V13]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V15:[a-z0-9_]+]] = "rt.mul"(%[[V14]], %[[CST_0]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V16:[a-z0-9_]+]] = "rt.transpose"(%[[V15]]) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:  %[[V17:[a-z0-9_]+]] = "rt.matmul"(%[[V16]], %[[V4]]) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %[[CST_4:[a-z0-9_]+]] = arith.constant 1.341450e-01 : f32
// CHECK-NEXT:  %[[V18:[a-z0-9_]+]] = "rt.mul"(%[[V12]], %[[V12]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V19:[a-z0-9_]+]] = "rt.sub"(%[[CST_1]], %[[V18]]) : (f32, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V20:[a-z0-9_]+]] = "rt.mul"(%[[V7]], %[[CST_4]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V21:[a-z0-9_]+]] = "rt.add"(%[[V20]], %[[CST_1]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V22:[a-z0-9_]+]] = "rt.mul"(%[[V21]], %[[CST_3]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V23:[a-z0-9_]+]] = "rt.mul"(%[[V19]], %[[V22]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V24:[a-z0-9_]+]] = "rt.mul"(%[[V23]], %[[ARG5]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V25:[a-z0-9_]+]] = "rt.mul"(%[[V24]], %[[CST_0]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V26:[a-z0-9_]+]] = "rt.mul"(%[[V13]], %[[CST_0]]) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V27:[a-z0-9_]+]] = "rt.add"(%[[V26]], %[[V25]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V28:[a-z0-9_]+]] = "rt.mul"(%[[V6]], %[[V27]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:  %[[V29:[a-z0-9_]+]] = "rt.transpose"(%[[ARG1]]) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %[[V30:[a-z0-9_]+]] = "rt.matmul"(%[[V28]], %[[V29]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V31:[a-z0-9_]+]] = "rt.transpose"(%[[V28]]) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:  %[[V32:[a-z0-9_]+]] = "rt.matmul"(%[[V31]], %[[ARG0]]) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:  %[[V33:[a-z0-9_]+]] = "rt.transpose"(%[[V32]]) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %[[V30]], %[[V33]], %[[V17]] : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>
// CHECK-NEXT:  }
