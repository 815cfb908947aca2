// Unsatisfiable through the run-once rule: c must be kept (must_save), so the forward
// computes c and therefore s = sum(x); s is banned, so the backward may not sum again,
// and it is tagged prefer_recompute, so it may not be saved either. The pass names s.
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
func.func @forced(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param}, %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  // CHECK: bad-unsatisfiable-forced.mlir:[[@LINE+1]]:8: error: no valid split of '@forced': 'rt.sum' is tagged "prefer_recompute" (never saved) but is banned from recomputation, and both the forward and the backward need it ("must_recompute" lifts the ban)
  %s = "rt.sum"(%x) {rt.policy = "prefer_recompute", dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %sb = "rt.broadcast"(%s) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%sb, %d) {rt.policy = "must_save"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "rt.mul"(%g, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gv = "rt.sum"(%t1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %t3 = "rt.mul"(%gv, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t4 = "rt.mul"(%g, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d, %t3, %t4 : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}
