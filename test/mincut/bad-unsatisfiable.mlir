// Unsatisfiable tags: o = exp(y) must be recomputed, so the backward needs y; y is a matmul
// (banned from recomputation) that the forward output needs, and it is tagged
// prefer_recompute (never saved). source -> y_in -> sink is an infinite path: no finite
// cut exists, and the pass names the op instead of producing an invalid split.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
// With the ban lifted by must_recompute on the matmul the split exists (x, w saved):
// RUN: sed -e 's/"prefer_recompute"} : (tensor<4x4xf32>, tensor/"must_recompute"} : (tensor<4x4xf32>, tensor/' %s | remat-opt --remat-mincut | FileCheck %s --check-prefix=LIFTED
// LIFTED: func.func @unsat_fwd(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64}
// LIFTED: func.func @unsat_bwd(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4x4xf32> {rt.tangent})
// LIFTED-NEXT: "rt.matmul"(%arg0, %arg1) {rt.policy = "must_recompute"}
func.func @unsat(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %g: tensor<4x4xf32> {rt.tangent})
    -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  // CHECK: bad-unsatisfiable.mlir:[[@LINE+1]]:8: error: no valid split of '@unsat': 'rt.matmul' is tagged "prefer_recompute" (never saved) but is banned from recomputation, and both the forward and the backward need it ("must_recompute" lifts the ban)
  %y = "rt.matmul"(%x, %w) {rt.policy = "prefer_recompute"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = "rt.exp"(%y) {rt.policy = "must_recompute"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%g, %o) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o, %d : tensor<4x4xf32>, tensor<4x4xf32>
}
