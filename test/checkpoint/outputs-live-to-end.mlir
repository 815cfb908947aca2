// Forward outputs stay live to the end of the forward in the stage walk's live sets
// (docs/design.md, "Deviations from AutoParallel's pass"): the forward returns them, so
// their memory is held until it ends. AutoParallel counts a node dead after its last
// recomputable user.
//
// @f: o = exp(xb) (1024 x f32, 4096 bytes, forward output #0, no forward user),
// b = sin(x), c = cos(b), d = tanh(c) (256 x f32, 1024 bytes each; d is output #1).
// The backward reads o, c and d. The walk visits o b c d; ac = 6144 bytes
// (6144 / 2^30 GiB): stage 1 = o b c (the sum reaches 6144 at c), stage 2 = d.
// Live bytes after each point, o live to the end:
//   o: {o} 4096   b: {o, b} 5120   c: {o, c} 5120   d: {o, d} 5120
// Stage 1 cuts at o: o must_save, b and c prefer_recompute; stage 2 at d, where o (of
// stage 1) and d are live: both must_save, o keeping its region 1.
// AutoParallel's rule (o dead at once) gives o: {} 0, b: {b} 1024, c: {c} 1024: the cut
// would also be o, with nothing live: o would be prefer_recompute.
// RUN: remat-opt --remat-checkpoint=ac=5.7220458984375e-06 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=ac=5.7220458984375e-06 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @f(
// CHECK-NEXT: "rt.exp"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// CHECK-NEXT: %[[B:.*]] = "rt.sin"(%arg1) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: %[[C:.*]] = "rt.cos"(%[[B]]) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.tanh"(%[[C]]) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "must_save"}

// REPORT: stage 1: 3 ops, 6144 bytes; point rt.exp {{.*}}, 4096 bytes live
// REPORT-NEXT: stage 2: 1 op, 1024 bytes; point rt.tanh {{.*}}, 5120 bytes live

func.func @f(%xb: tensor<1024xf32>, %x: tensor<256xf32>, %go: tensor<1024xf32> {rt.tangent},
             %gd: tensor<256xf32> {rt.tangent})
    -> (tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<256xf32>)
    attributes {rt.num_outputs = 2 : i64} {
  %o = "rt.exp"(%xb) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "rt.sin"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %c = "rt.cos"(%b) : (tensor<256xf32>) -> tensor<256xf32>
  %d = "rt.tanh"(%c) : (tensor<256xf32>) -> tensor<256xf32>
  // backward
  %t1 = "rt.mul"(%go, %o) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t2 = "rt.mul"(%gd, %d) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %t3 = "rt.mul"(%t2, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %o, %d, %t1, %t3 : tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<256xf32>
}
