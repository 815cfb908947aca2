// Forward-only ops are outside the checkpoint problem (AutoParallel's recomputable forward
// nodes are those at a finite distance from the backward).
//
// @shift: h1 = matmul(x, w1), a1 = tanh(h1), p = matmul(a1, wp) (a second forward output
// that the backward never reads: the gradient of a matmul needs its inputs, not its
// result), h2 = matmul(a1, w2), a2 = tanh(h2), h3 = matmul(a2, w3), a3 = tanh(h3),
// y = h4 = matmul(a3, w4) (the output: forward-only as well). The backward reads a1, a2,
// a3, x and the weights.
//
// The save list (default save-ops=mm, save-every=2) counts only the matmuls the backward
// needs: h1 h2 h3 -> h1 must_save, h2 prefer_recompute, h3 must_save; p and h4 carry no
// tag. Counting p and h4 (as before) shifted the alternation: h1, h2, h4 saved and p, h3
// recomputed.
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Then the min-cut: the backward recomputes h2 = matmul(a1, w2) and a2 = tanh(h2) from
// the saved a1 (the recompute tag lifts the matmul's ban), so the forward saves a1 and a3
// (the values the backward reads next to the saved matmuls) and x^T, and no a2.
// RUN: remat-opt --remat-checkpoint --remat-mincut %s | FileCheck %s --check-prefix=SPLIT

// REPORT: save-ops: 3 matched; saved the 1st of every 2

// CHECK-LABEL: func.func @shift(
// CHECK-NEXT: %[[H1:.*]] = "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// CHECK-NEXT: %[[A1:.*]] = "rt.tanh"(%[[H1]]) :
// CHECK-NEXT: "rt.matmul"(%[[A1]], %arg2) : (
// CHECK-NEXT: %[[H2:.*]] = "rt.matmul"(%[[A1]], %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: %[[A2:.*]] = "rt.tanh"(%[[H2]]) :
// CHECK-NEXT: %[[H3:.*]] = "rt.matmul"(%[[A2]], %arg4) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// CHECK-NEXT: %[[A3:.*]] = "rt.tanh"(%[[H3]]) :
// CHECK-NEXT: "rt.matmul"(%[[A3]], %arg5) : (
// CHECK-NOT: rt.policy

// SPLIT-LABEL: func.func @shift_fwd(
// SPLIT: %[[A1:.*]] = "rt.tanh"
// SPLIT: "rt.tanh"
// SPLIT: %[[A3:.*]] = "rt.tanh"
// SPLIT: %[[XT:.*]] = "rt.transpose"(%arg0)
// SPLIT-NEXT: return %{{[0-9]+}}, %{{[0-9]+}}, %arg3, %arg4, %arg5, %[[A1]], %[[A3]], %[[XT]] :
// SPLIT-LABEL: func.func @shift_bwd(
// SPLIT-SAME: %[[W2:[a-z0-9]+]]: tensor<16x16xf32> {rt.param}, %{{[a-z0-9]+}}: tensor<16x16xf32> {rt.param}, %{{[a-z0-9]+}}: tensor<16x16xf32> {rt.param}, %[[SA1:[a-z0-9]+]]: tensor<8x16xf32>,
// The recomputed h2 and a2 run just before their first backward use:
// SPLIT: "rt.sub"
// SPLIT-NEXT: %[[RH2:.*]] = "rt.matmul"(%[[SA1]], %[[W2]]) {{.*}}rt.policy = "prefer_recompute"
// SPLIT-NEXT: %[[RA2:.*]] = "rt.tanh"(%[[RH2]])
// SPLIT-NEXT: "rt.transpose"(%[[RA2]])
// SPLIT-NOT: "rt.matmul"(%{{.*}}) {rt.ac_reason

func.func @shift(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32> {rt.param}, %wp: tensor<16x16xf32> {rt.param},
                 %w2: tensor<16x16xf32> {rt.param}, %w3: tensor<16x16xf32> {rt.param}, %w4: tensor<16x16xf32> {rt.param},
                 %g: tensor<8x16xf32> {rt.tangent})
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>)
    attributes {rt.num_outputs = 2 : i64} {
  %h1 = "rt.matmul"(%x, %w1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a1 = "rt.tanh"(%h1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = "rt.matmul"(%a1, %wp) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %h2 = "rt.matmul"(%a1, %w2) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a2 = "rt.tanh"(%h2) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %h3 = "rt.matmul"(%a2, %w3) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a3 = "rt.tanh"(%h3) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %h4 = "rt.matmul"(%a3, %w4) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  // backward
  %a3t = "rt.transpose"(%a3) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dw4 = "rt.matmul"(%a3t, %g) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %w4t = "rt.transpose"(%w4) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %da3 = "rt.matmul"(%g, %w4t) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %u3 = "rt.mul"(%da3, %a3) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %v3 = "rt.mul"(%u3, %a3) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dh3 = "rt.sub"(%da3, %v3) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %a2t = "rt.transpose"(%a2) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dw3 = "rt.matmul"(%a2t, %dh3) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %w3t = "rt.transpose"(%w3) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %da2 = "rt.matmul"(%dh3, %w3t) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %u2 = "rt.mul"(%da2, %a2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %v2 = "rt.mul"(%u2, %a2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dh2 = "rt.sub"(%da2, %v2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %a1t = "rt.transpose"(%a1) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dw2 = "rt.matmul"(%a1t, %dh2) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %w2t = "rt.transpose"(%w2) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %da1 = "rt.matmul"(%dh2, %w2t) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %u1 = "rt.mul"(%da1, %a1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %v1 = "rt.mul"(%u1, %a1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dh1 = "rt.sub"(%da1, %v1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %xt = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dw1 = "rt.matmul"(%xt, %dh1) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %h4, %p, %dw1, %dw2, %dw3, %dw4 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// @head: the stages walk only ops the backward needs. a = exp(x), b = tanh(a) (the
// backward reads both), l = neg(b): the forward output, a loss head the backward never
// reads. All values 256 x f32 = 1024 bytes; ac = 1024 bytes (2^-20 GiB), one op per
// stage. The walk visits a and b: stage 1 = a (live after a: {a}, b reads it: 1024),
// stage 2 = b (live after b: nothing; l reads b but l is forward-only). a must_save
// (region 1), b prefer_recompute (region 2), l no tag. Walking l as well (as before) made
// a third stage whose point l, a forward output live to the end, was must_save, and
// counted l's bytes in the stage sizes.
// RUN: remat-opt --remat-checkpoint=ac=9.5367431640625e-07 %s | FileCheck %s --check-prefix=STAGE
// RUN: remat-opt --remat-checkpoint=ac=9.5367431640625e-07 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGE-REPORT
// Then the min-cut saves a; the backward recomputes b from it; l stays in the forward.
// RUN: remat-opt --remat-checkpoint=ac=9.5367431640625e-07 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=STAGE-SPLIT

// STAGE-LABEL: func.func @head(
// STAGE-NEXT: %[[A:.*]] = "rt.exp"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// STAGE-NEXT: %[[B:.*]] = "rt.tanh"(%[[A]]) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// STAGE-NEXT: "rt.neg"(%[[B]]) : (
// STAGE-NOT: rt.policy

// STAGE-REPORT-LABEL: remat-checkpoint: @head
// STAGE-REPORT: stages: 2 of 9.53674e-07 GiB
// STAGE-REPORT-NEXT: stage 1: 1 op, 1024 bytes; point rt.exp {{.*}}, 1024 bytes live
// STAGE-REPORT-NEXT: stage 2: 1 op, 1024 bytes; point rt.tanh {{.*}}, 0 bytes live

// STAGE-SPLIT-LABEL: remat-mincut: @head -> @head_fwd, @head_bwd
// STAGE-SPLIT-NEXT: #  value
// STAGE-SPLIT-NEXT: 0  rt.exp               tensor<256xf32>                  1024  stage 1
// STAGE-SPLIT-NEXT: saved bytes: 1024
// STAGE-SPLIT-LABEL: func.func @head_fwd(
// STAGE-SPLIT: %[[L:.*]] = "rt.neg"
// STAGE-SPLIT-NEXT: return %[[L]], %{{.*}} :
// STAGE-SPLIT-LABEL: func.func @head_bwd(
// STAGE-SPLIT-SAME: %[[SA:[a-z0-9]+]]: tensor<256xf32>, %{{.*}}: tensor<256xf32> {rt.tangent}
// STAGE-SPLIT-NEXT: %[[T:.*]] = "rt.mul"(%{{.*}}, %[[SA]])
// STAGE-SPLIT-NEXT: %[[RB:.*]] = "rt.tanh"(%[[SA]])
// STAGE-SPLIT-NEXT: "rt.mul"(%[[T]], %[[RB]])

func.func @head(%x: tensor<256xf32>, %g: tensor<256xf32> {rt.tangent})
    -> (tensor<256xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a = "rt.exp"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %b = "rt.tanh"(%a) : (tensor<256xf32>) -> tensor<256xf32>
  %l = "rt.neg"(%b) : (tensor<256xf32>) -> tensor<256xf32>
  // backward: reads a and b, not l
  %d = "rt.mul"(%g, %a) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %d2 = "rt.mul"(%d, %b) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %l, %d2 : tensor<256xf32>, tensor<256xf32>
}
