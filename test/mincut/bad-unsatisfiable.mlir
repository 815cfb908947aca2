// An unsatisfiable tag: must_save on an op that depends on a tangent. The forward cannot
// compute it, so it cannot be saved; the pass names the op instead of ignoring the tag.
// (Recompute tags cannot make the cut infinite: they lift bans and exclude save tags; see
// docs/design.md, Min-cut.)
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
// A preference is not a requirement: prefer_save on the same op is ignored.
// RUN: sed -e 's/"must_save"/"prefer_save"/' %s | remat-opt --remat-mincut | FileCheck %s --check-prefix=PREFER
// PREFER: func.func @unsat_fwd(%[[ARG0:[a-z0-9_]+]]: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 64 : i64}
// PREFER: "rt.mul"(%[[ARG1:[a-z0-9_]+]], %[[ARG0]]) {rt.policy = "prefer_save"}
func.func @unsat(%x: tensor<4x4xf32>, %g: tensor<4x4xf32> {rt.tangent})
    -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %o = "rt.exp"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // CHECK: bad-unsatisfiable.mlir:[[@LINE+1]]:8: error: no valid split of '@unsat': 'rt.mul' is tagged "must_save" but depends on a tangent, so the forward cannot compute it
  %d = "rt.mul"(%g, %o) {rt.policy = "must_save"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o, %d : tensor<4x4xf32>, tensor<4x4xf32>
}
