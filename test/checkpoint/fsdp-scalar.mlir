// FSDP detection with scalar and constant operands: an FX node's immediates are not
// inputs, so rt.mul(%p, %c2) (a scalar) and rt.mul(%w, %k) (a constant tensor, rt.full)
// are single-input ops of %p and %w on the chain from the parameter to the gather and
// after the wait.
//
// @scaled: p (shard, rt.param) -> mul(p, 2.0) -> all_gather -> wait -> mul(w, k) ->
// reshape = W [16x16], then y = matmul(tanh(x), W); the backward reads W and a = tanh(x).
// fsdp=recompute (default) tags the whole chain must_recompute. ac = 1024 bytes
// (2^-20 GiB): the stage walk then visits only a = tanh(x), after which nothing the
// backward needs is live in the forward (y is forward-only): no stage value is saved.
// Before, the chain was not found and the stages walked it too: mul(p, 2) (stage 1) and
// the gathered weight W (stage 2) ended up must_save.
// RUN: remat-opt --remat-checkpoint=ac=9.5367431640625e-07 %s | FileCheck %s
//
// Then the min-cut: the forward saves x and the shard only (1536 bytes); the backward
// scales, gathers, waits, scales and reshapes again, and recomputes tanh(x).
// RUN: remat-opt --remat-checkpoint=ac=9.5367431640625e-07 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT
//
// @two: the gather of rt.mul(%p, %q), two tensor inputs, is no FSDP gather: no fsdp tag,
// and the min-cut saves the gathered weight (collectives are not recomputed).

// CHECK-LABEL: func.func @scaled(
// CHECK: "rt.mul"(%arg1, %cst) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// CHECK-NEXT: "rt.all_gather"({{.*}}rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// CHECK-NEXT: "rt.wait"({{.*}}) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// CHECK-NEXT: "rt.mul"({{.*}}) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// CHECK-NEXT: "rt.reshape"({{.*}}) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// CHECK-NEXT: "rt.tanh"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NOT: rt.policy
// CHECK-LABEL: func.func @two(
// CHECK-NOT: fsdp
// CHECK: return

// SPLIT-LABEL: remat-checkpoint: @scaled
// SPLIT: fsdp: 1 parameter gather (recompute)
// SPLIT-LABEL: remat-checkpoint: @two
// SPLIT: fsdp: 0 parameter gathers (recompute)
// SPLIT-LABEL: remat-mincut: @scaled -> @scaled_fwd, @scaled_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg0                tensor<16x16xf32>                1024  primal
// SPLIT-NEXT: 1  %arg1                tensor<128xf32>                   512  primal
// SPLIT-NEXT: saved bytes: 1536
// SPLIT-LABEL: remat-mincut: @two -> @two_fwd, @two_bwd
// SPLIT: rt.wait              tensor<256xf32>                  1024  cut
// SPLIT-LABEL: func.func @scaled_bwd(
// SPLIT: "rt.mul"(%arg1, %{{.*}}) {rt.ac_reason = "fsdp"
// SPLIT-NEXT: "rt.all_gather"
// SPLIT-NEXT: "rt.wait"
// SPLIT-NEXT: "rt.mul"
// SPLIT-NEXT: "rt.reshape"
// SPLIT-NEXT: "rt.matmul"
// SPLIT-NEXT: "rt.tanh"(%arg0)

func.func @scaled(%x: tensor<16x16xf32>, %p: tensor<128xf32> {rt.param}, %g: tensor<16x16xf32> {rt.tangent})
    -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %c2 = arith.constant 2.000000e+00 : f32
  %k = "rt.full"() {value = 5.000000e-01 : f32} : () -> tensor<256xf32>
  %s = "rt.mul"(%p, %c2) : (tensor<128xf32>, f32) -> tensor<128xf32>
  %ag = "rt.all_gather"(%s) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<128xf32>) -> tensor<256xf32>
  %w = "rt.wait"(%ag) : (tensor<256xf32>) -> tensor<256xf32>
  %wk = "rt.mul"(%w, %k) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %wm = "rt.reshape"(%wk) : (tensor<256xf32>) -> tensor<16x16xf32>
  %a = "rt.tanh"(%x) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %y = "rt.matmul"(%a, %wm) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  // backward (the shapes, not the calculus, matter here)
  %dx = "rt.matmul"(%g, %wm) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %gx = "rt.mul"(%dx, %a) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %dw = "rt.matmul"(%a, %g) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %y, %gx, %dw : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

func.func @two(%x: tensor<16x16xf32>, %p: tensor<128xf32> {rt.param}, %q: tensor<128xf32> {rt.param},
               %g: tensor<16x16xf32> {rt.tangent})
    -> (tensor<16x16xf32>, tensor<16x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %s = "rt.mul"(%p, %q) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  %ag = "rt.all_gather"(%s) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<128xf32>) -> tensor<256xf32>
  %w = "rt.wait"(%ag) : (tensor<256xf32>) -> tensor<256xf32>
  %wm = "rt.reshape"(%w) : (tensor<256xf32>) -> tensor<16x16xf32>
  %y = "rt.matmul"(%x, %wm) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %dx = "rt.matmul"(%g, %wm) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %y, %dx : tensor<16x16xf32>, tensor<16x16xf32>
}
