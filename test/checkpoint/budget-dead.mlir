// memory-budget ignores reads by dead backward ops (ops no gradient needs), as the
// min-cut drops them.
//
// @dead: w = wait(all_gather(s)) (12 x f32 = 48 bytes) and e = exp(x) are read only by
// backward ops whose results nothing returns; the gradient -g reads no forward value.
// Before, those reads made w needed (a collective result: 48 fixed bytes, so budget 0
// failed with "48 bytes must be saved") and e a candidate, while the min-cut saves no
// activation at all. Now nothing is needed: budget 0 works and tags nothing.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// The min-cut after it saves nothing (0 bytes): the forward keeps its outputs, the
// backward negates the tangent.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @dead(
// CHECK-NOT: rt.policy
// CHECK: return

// REPORT: budget: 0 bytes: 0 fixed, 0 chosen among 0 candidates

// SPLIT-LABEL: remat-mincut: @dead -> @dead_fwd, @dead_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: saved bytes: 0

func.func @dead(%s: tensor<6xf32>, %x: tensor<12xf32>, %g: tensor<12xf32> {rt.tangent})
    -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) attributes {rt.num_outputs = 2 : i64} {
  %ag = "rt.all_gather"(%s) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<6xf32>) -> tensor<12xf32>
  %w = "rt.wait"(%ag) : (tensor<12xf32>) -> tensor<12xf32>
  %y = "rt.neg"(%w) : (tensor<12xf32>) -> tensor<12xf32>
  %e = "rt.exp"(%x) : (tensor<12xf32>) -> tensor<12xf32>
  // backward: two dead ops read w and e; the gradient does not
  %d1 = "rt.mul"(%g, %w) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
  %d2 = "rt.mul"(%d1, %e) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
  %dx = "rt.neg"(%g) : (tensor<12xf32>) -> tensor<12xf32>
  return %y, %e, %dx : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
}
