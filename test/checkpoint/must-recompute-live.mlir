// A value tagged must_recompute keeps its inputs live until its last user runs: the
// backward needs them to recompute it (AutoParallel hands a must_recompute node's inputs
// to its users when it builds the live sets).
//
// @f, all values 256 x f32 = 1024 bytes: a = exp(x), m = neg(a) {must_recompute, user},
// b = sin(x), c = cos(b), d = add(m, c), e = tanh(d) (the output). The backward reads e,
// m and c. The stage walk visits a b c d e (m carries a tag). ac = 3072 bytes
// (3 x 2^-20 GiB): stage 1 = a b c (the sum reaches 3072 at c), stage 2 = d e.
//
// Live bytes after each point. m weighs 0 (recomputed anyway), but its input a stays live
// until m's user d runs:
//   a: {a} 1024   b: {a, b} 2048   c: {a, c} 2048   d: {d} 1024   e: {e} 1024 (output)
// Stage 1 cuts at a (a must_save, region 1; b and c prefer_recompute), stage 2 at e (the
// later of two ties; d prefer_recompute). Without the extension a would be dead after m,
// every point of stage 1 would hold 1024 bytes and the tie would pick c: c saved, a and b
// recomputed.
// RUN: remat-opt --remat-checkpoint=ac=2.86102294921875e-06 %s | FileCheck %s
//
// Then the min-cut: m is recomputed from the saved a, c from x (b and c are
// prefer_recompute), e is saved: the forward saves x, a and e, not c.
// RUN: remat-opt --remat-checkpoint=ac=2.86102294921875e-06 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %[[A:.*]] = "rt.exp"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// CHECK-NEXT: %[[M:.*]] = "rt.neg"(%[[A]]) {rt.policy = "must_recompute"}
// CHECK-NEXT: %[[B:.*]] = "rt.sin"(%arg0) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: %[[C:.*]] = "rt.cos"(%[[B]]) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: %[[D:.*]] = "rt.add"(%[[M]], %[[C]]) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.tanh"(%[[D]]) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "must_save"}
// CHECK-NOT: rt.policy

// SPLIT-LABEL: remat-mincut: @f -> @f_fwd, @f_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg0                tensor<256xf32>                  1024  primal
// SPLIT-NEXT: 1  rt.exp               tensor<256xf32>                  1024  stage 1
// SPLIT-NEXT: 2  rt.tanh              tensor<256xf32>                  1024  stage 2
// SPLIT-NEXT: saved bytes: 3072
// SPLIT-LABEL: func.func @f_bwd(
// SPLIT-SAME: %[[X:[a-z0-9]+]]: tensor<256xf32>, %[[SA:[a-z0-9]+]]: tensor<256xf32>, %[[SE:[a-z0-9]+]]: tensor<256xf32>, %[[G:[a-z0-9]+]]: tensor<256xf32> {rt.tangent}
// Each recomputed op runs just before the backward op that reads it:
// SPLIT-NEXT: %[[T1:.*]] = "rt.mul"(%[[G]], %[[SE]])
// SPLIT-NEXT: %[[RM:.*]] = "rt.neg"(%[[SA]])
// SPLIT-NEXT: %[[T2:.*]] = "rt.mul"(%[[T1]], %[[RM]])
// SPLIT-NEXT: %[[RB:.*]] = "rt.sin"(%[[X]])
// SPLIT-NEXT: %[[RC:.*]] = "rt.cos"(%[[RB]])
// SPLIT-NEXT: "rt.mul"(%[[T2]], %[[RC]])

func.func @f(%x: tensor<256xf32>, %g: tensor<256xf32> {rt.tangent})
    -> (tensor<256xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a = "rt.exp"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %m = "rt.neg"(%a) {rt.policy = "must_recompute"} : (tensor<256xf32>) -> tensor<256xf32>
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
