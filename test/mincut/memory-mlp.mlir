// The peak-memory estimate (docs/design.md "Memory estimate") of a two-layer tanh MLP,
// checked against a hand computation. Every tensor is 4x4xf32 = 64 bytes = 1 T; the
// parameters w1, w2 (2 T) are live at every step; out and ga2 are reshapes (aliases of a2
// and g: no bytes of their own, and they keep a2 and g alive).
//
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s
//
// The backward reads d2, a1t, w2t, d1, xt: no remat saves those 5 T = 320.
// Forward steps 0..11 = h1 a1 h2 a2 out s2 d2 a1t w2t s1 d1 xt (T live, params included):
//   4 5 5 6 5 6 7 7 8 9 9 9   (h1 freed after a1, h2 after a2, s2 after d2, a1 after s1,
//                              s1 after d1; x lives to xt, a2 to the forward's end)
// backward steps 12..17 = ga2 gh2 gw2 ga1 gh1 gw1, from 2 + 5 saved = 7 T:
//   8 9 8 8 7 6   (g arrives with ga2; each saved value is freed after its last read)
// Peak 9 T = 576 first at step 9, s1 = a1 * a1 (line 60).
//
// The split saves w2 (a parameter, weight 0), a1, d2 and xt: 4 T = 256. Forward steps
// 0..7 = h1 a1 h2 a2 out s2 d2 xt: 4 5 5 6 5 6 7 7. The backward moves a1t, w2t, s1, d1
// into itself, each just before its first user: steps 8..17 = ga2 gh2 a1t gw2 w2t ga1 s1
// d1 gh1 gw1, from 2 + a1 + d2 + xt = 5 T:
//   6 7 6 7 7 8 7 7 7 6
// Peak 8 T = 512 at step 13, ga1 = gh2 @ w2t (line 59): g, a1, gw2, gh2, w2t, ga1 + 2.
//
// Recompute all saves the inputs the backward needs, x w1 w2: 3 T = 192. Forward steps
// 0..4 = h1 a1 h2 a2 out: 4 5 5 5 4 (a1 is not kept). Backward steps 5..21 = ga2, then
// h1 a1 h2 a2 s2 d2 recomputed for gh2, gh2, a1t gw2, w2t ga1, s1 d1 gh1, xt gw1,
// from 2 + x = 3 T:
//   4 5 6 6 7 7 7 7 6 7 7 8 7 7 7 6 6
// Peak 8 T = 512 at step 16, ga1 again. It recomputes h1 a1 h2 a2: bytes moved
// 3 T + 2 T + 3 T + 2 T = 640, two 4x4x4 matmuls 2*4*4*4 = 128 flops each = 256.
// The split recomputes nothing (the 4 ops it moves run once).

// CHECK-LABEL: remat-mincut: @mlp2
// CHECK:       saved bytes: 256 (rt.param: 64; no-remat baseline: 320, 80.0%)
// CHECK-NEXT:  recomputed ops: 0 (moved to the backward: 4)
// CHECK:       peak memory (estimate)
// CHECK-NEXT:  no remat 576 320 12+6 step 9 (forward) rt.mul memory-mlp.mlir:60:9
// CHECK-NEXT:  this split 512 256 8+10 step 13 (backward) rt.matmul memory-mlp.mlir:59:10
// CHECK-NEXT:  recompute all 512 192 5+17 step 16 (backward) rt.matmul memory-mlp.mlir:59:10
// CHECK-NEXT:  recompute cost (this split): 0 ops, 0 bytes moved, 0 matmul flops
// CHECK-NEXT:  recompute cost (recompute all): 4 ops, 640 bytes moved, 256 matmul flops

func.func @mlp2(%x: tensor<4x4xf32>, %w1: tensor<4x4xf32> {rt.param},
                %w2: tensor<4x4xf32> {rt.param}, %g: tensor<16xf32> {rt.tangent})
    -> (tensor<16xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %one = arith.constant 1.000000e+00 : f32
  %h1 = "rt.matmul"(%x, %w1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %a1 = "rt.tanh"(%h1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %h2 = "rt.matmul"(%a1, %w2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %a2 = "rt.tanh"(%h2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %out = "rt.reshape"(%a2) : (tensor<4x4xf32>) -> tensor<16xf32>
  %ga2 = "rt.reshape"(%g) : (tensor<16xf32>) -> tensor<4x4xf32>
  %s2 = "rt.mul"(%a2, %a2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %d2 = "rt.sub"(%one, %s2) : (f32, tensor<4x4xf32>) -> tensor<4x4xf32>
  %gh2 = "rt.mul"(%ga2, %d2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %a1t = "rt.transpose"(%a1) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %gw2 = "rt.matmul"(%a1t, %gh2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2t = "rt.transpose"(%w2) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %ga1 = "rt.matmul"(%gh2, %w2t) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s1 = "rt.mul"(%a1, %a1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %d1 = "rt.sub"(%one, %s1) : (f32, tensor<4x4xf32>) -> tensor<4x4xf32>
  %gh1 = "rt.mul"(%ga1, %d1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %xt = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %gw1 = "rt.matmul"(%xt, %gh1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %out, %gw1, %gw2 : tensor<16xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
