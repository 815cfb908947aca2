// The budget's cost of an rt.gather: its source counts the elements it reads (its
// result's bytes), not the whole table. An embedding lookup of 4 rows of 64 f32 from a
// [50000, 64] table moves 1024 (result) + 1024 (read) + 2048 (the [4, 64] i64 indices)
// = 4096 bytes, not the table's 12.8 MB; the broadcast of the ids before it 32 + 2048.
// At budget 0 the backward recomputes both: 6176 is the whole cost.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-report %s 2>&1 >/dev/null | FileCheck %s
// CHECK: budget: 0 bytes: 0 fixed, 0 chosen among 1 candidate (1 part, largest 1, widest 0); recompute cost 6176 (exact)
func.func @t(%w: tensor<50000x64xf32> {rt.param}, %i: tensor<4x1xi64>, %g: tensor<4x64xf32> {rt.tangent})
    -> (tensor<4x64xf32>, tensor<4x64xf32>) attributes {rt.num_outputs = 1 : i64} {
  %b = "rt.broadcast"(%i) {dims = array<i64: 0, 1>} : (tensor<4x1xi64>) -> tensor<4x64xi64>
  %e = "rt.gather"(%w, %b) {dim = 0 : i64} : (tensor<50000x64xf32>, tensor<4x64xi64>) -> tensor<4x64xf32>
  %y = "rt.neg"(%e) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %d = "rt.mul"(%g, %e) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y, %d : tensor<4x64xf32>, tensor<4x64xf32>
}
