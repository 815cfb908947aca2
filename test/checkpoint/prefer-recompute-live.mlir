// A user prefer_recompute weighs 0 in the live sets and keeps its inputs live until its
// last user, as must_recompute does (docs/design.md, "Deviations from AutoParallel's
// pass": AutoParallel does this for MUST_RECOMPUTE only; remat's min-cut recomputes a
// value with either tag, so neither is ever saved).
//
// @f: a = exp(xb) (1024 x f32 = 4096 bytes), m = slice(a) (256 x f32, 1024 bytes;
// prefer_recompute, the user's), b = sin(x), c = cos(b), d = add(m, c), e = tanh(d) (the
// output); 256 x f32 values are 1024 bytes. The backward reads e, m and c. The walk
// visits a b c d e (m carries a tag); ac = 6144 bytes (6144 / 2^30 GiB): stage 1 = a b c
// (the sum reaches 6144 at c), stage 2 = d e.
// Live bytes after each point, m weighing 0 and a live until m's user d:
//   a: {a} 4096   b: {a, b} 5120   c: {a, c} 5120   d: {d} 1024   e: {e} 1024
// Stage 1 cuts at a: a must_save (region 1), b and c prefer_recompute; stage 2 at e.
// AutoParallel's rule (m weighs 1024, a dead once m is computed) gives b: {m, b} 2048,
// c: {m, c} 2048: the cut would be c (the later tie), c saved and a recomputed.
// RUN: remat-opt --remat-checkpoint=ac=5.7220458984375e-06 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=ac=5.7220458984375e-06 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Then the min-cut: the backward recomputes m from the saved a, and c from x; the forward
// saves x, a and e (the stage choice; AutoParallel's rule would have saved c instead of a).
// RUN: remat-opt --remat-checkpoint=ac=5.7220458984375e-06 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %[[A:.*]] = "rt.exp"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// CHECK-NEXT: "rt.slice"(%[[A]]) {limit = array<i64: 256>, rt.policy = "prefer_recompute", start
// CHECK-NEXT: "rt.sin"(%arg1) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.cos"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "must_save"}

// REPORT: stage 1: 3 ops, 6144 bytes; point rt.exp {{.*}}, 4096 bytes live
// REPORT-NEXT: stage 2: 2 ops, 2048 bytes; point rt.tanh {{.*}}, 1024 bytes live

// SPLIT-LABEL: remat-mincut: @f -> @f_fwd, @f_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg1                tensor<256xf32>                  1024  primal
// SPLIT-NEXT: 1  rt.exp               tensor<1024xf32>                 4096  stage 1
// SPLIT-NEXT: 2  rt.tanh              tensor<256xf32>                  1024  stage 2
// SPLIT-NEXT: saved bytes: 6144
// SPLIT-LABEL: func.func @f_bwd(
// SPLIT-SAME: %[[X:[a-z0-9]+]]: tensor<256xf32>, %[[SA:[a-z0-9]+]]: tensor<1024xf32>,
// SPLIT-NEXT: %[[T1:.*]] = "rt.mul"
// SPLIT-NEXT: %[[RM:.*]] = "rt.slice"(%[[SA]])
// SPLIT-NEXT: %[[T2:.*]] = "rt.mul"(%[[T1]], %[[RM]])
// SPLIT-NEXT: %[[RB:.*]] = "rt.sin"(%[[X]])
// SPLIT-NEXT: "rt.cos"(%[[RB]])

func.func @f(%xb: tensor<1024xf32>, %x: tensor<256xf32>, %g: tensor<256xf32> {rt.tangent})
    -> (tensor<256xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a = "rt.exp"(%xb) : (tensor<1024xf32>) -> tensor<1024xf32>
  %m = "rt.slice"(%a) {start = array<i64: 0>, limit = array<i64: 256>, stride = array<i64: 1>, rt.policy = "prefer_recompute"} : (tensor<1024xf32>) -> tensor<256xf32>
  %b = "rt.sin"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %c = "rt.cos"(%b) : (tensor<256xf32>) -> tensor<256xf32>
  %d = "rt.add"(%m, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %e = "rt.tanh"(%d) : (tensor<256xf32>) -> tensor<256xf32>
  // backward
  %t1 = "rt.mul"(%g, %e) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %t2 = "rt.mul"(%t1, %m) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %t3 = "rt.mul"(%t2, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e, %t3 : tensor<256xf32>, tensor<256xf32>
}
