// An op written among the backward ops that depends on no tangent is a forward op at its
// position (the min-cut's definition of forward; docs/design.md, "Deviations from
// AutoParallel's pass": PyTorch's classification, which AutoParallel follows, makes it a
// backward op, outside the save list's counter).
//
// @late: h = matmul(x, w1) (mm), a = tanh(h) (the output); the backward computes
// gh = g * a, then ww = matmul(w2, w3) (two weights: no tangent) and dx = matmul(gh, ww).
// The save list (default save-ops=mm, save-every=2) counts h (the 1st: must_save) and ww
// (the 2nd: prefer_recompute); dx depends on g and is not counted.
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Then the min-cut decides where ww runs: its recompute tag lifts the matmul's ban, so the
// backward computes it from the weights (rt.param: free to keep) and the forward saves a.
// RUN: remat-opt --remat-checkpoint --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @late(
// CHECK-NEXT: "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// CHECK-NEXT: "rt.tanh"
// CHECK-NEXT: "rt.mul"
// CHECK-NEXT: "rt.matmul"(%arg2, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.matmul"(%{{.*}}) : (
// CHECK-NOT: rt.policy

// REPORT: save-ops: 2 matched; saved the 1st of every 2

// SPLIT-LABEL: remat-mincut: @late -> @late_fwd, @late_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg2                tensor<16x16xf32>                1024  primal
// SPLIT-NEXT: 1  %arg3                tensor<16x16xf32>                1024  primal
// SPLIT-NEXT: 2  rt.tanh              tensor<8x16xf32>                  512  cut
// SPLIT-NEXT: saved bytes: 2560
// SPLIT-LABEL: func.func @late_fwd(
// SPLIT-NOT: "rt.matmul"(%arg2, %arg3)
// SPLIT-LABEL: func.func @late_bwd(
// SPLIT-SAME: %[[W2:[a-z0-9]+]]: tensor<16x16xf32> {rt.param}, %[[W3:[a-z0-9]+]]: tensor<16x16xf32> {rt.param}
// SPLIT: %[[WW:.*]] = "rt.matmul"(%[[W2]], %[[W3]]) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// SPLIT-NEXT: "rt.matmul"(%{{.*}}, %[[WW]])

func.func @late(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32> {rt.param}, %w2: tensor<16x16xf32> {rt.param},
                %w3: tensor<16x16xf32> {rt.param}, %g: tensor<8x16xf32> {rt.tangent})
    -> (tensor<8x16xf32>, tensor<8x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %h = "rt.matmul"(%x, %w1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a = "rt.tanh"(%h) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // backward
  %gh = "rt.mul"(%g, %a) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %ww = "rt.matmul"(%w2, %w3) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %dx = "rt.matmul"(%gh, %ww) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %a, %dx : tensor<8x16xf32>, tensor<8x16xf32>
}
