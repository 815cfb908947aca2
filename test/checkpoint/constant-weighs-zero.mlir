// Constants weigh 0 in the stage walk's live sets (docs/design.md, "Deviations from
// AutoParallel's pass"): they are cloned where used, never saved. AutoParallel counts
// every live node.
//
// @f: k = rt.full (512 x f32, 2048 bytes, a constant), b = sin(x), c = cos(b) (256 x f32,
// 1024 bytes each), e = add(k, y) (512 x f32, 2048 bytes, the forward output). The
// backward reads c and e. The walk visits b c e (k is a constant); ac = 4096 bytes
// (4096 / 2^30 GiB): one stage b c e.
// Live bytes after each point, k weighing 0 (c has no forward user after it; e is an
// output and stays live):
//   b: {b} 1024   c: {} 0   e: {e} 2048
// The cut is c: nothing is live there, so nothing is must_save; b c e prefer_recompute.
// Counting k (AutoParallel) gives b: {k, b} 3072, c: {k} 2048, e: {e} 2048: the cut
// would be e (the later tie) and e must_save.
// RUN: remat-opt --remat-checkpoint=ac=3.814697265625e-06 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=ac=3.814697265625e-06 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %[[K:.*]] = "rt.full"() {value = 1.000000e+00 : f32}
// CHECK-NEXT: %[[B:.*]] = "rt.sin"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.cos"(%[[B]]) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.add"(%[[K]], %arg1) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}

// REPORT: stage 1: 3 ops, 4096 bytes; point rt.cos {{.*}}, 0 bytes live
// REPORT-NOT: stage 2

func.func @f(%x: tensor<256xf32>, %y: tensor<512xf32>, %g: tensor<512xf32> {rt.tangent})
    -> (tensor<512xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %k = "rt.full"() {value = 1.0 : f32} : () -> tensor<512xf32>
  %b = "rt.sin"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %c = "rt.cos"(%b) : (tensor<256xf32>) -> tensor<256xf32>
  %e = "rt.add"(%k, %y) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  // backward
  %t1 = "rt.mul"(%g, %e) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %t2 = "rt.slice"(%t1) {start = array<i64: 0>, limit = array<i64: 256>, stride = array<i64: 1>} : (tensor<512xf32>) -> tensor<256xf32>
  %t3 = "rt.mul"(%t2, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e, %t3 : tensor<512xf32>, tensor<256xf32>
}
