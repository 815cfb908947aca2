// The budget's cost of a matmul: max(bytes moved, 2*M*N*K / 128), with K read from the
// operand as the matmul reads it: with transpose_a, A is stored [K, M].
// @t: A stored 4096 x 2048 read transposed (M = 2048, K = 4096), B 4096 x 4096, C 2048 x
// 4096, all f32: 2 x 2048 x 4096 x 4096 / 128 = 536870912 > bytes moved 4 x (8M + 16M +
// 8M) = 134217728. At budget 0 the backward recomputes C: that is the whole cost.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-report %s 2>&1 >/dev/null | FileCheck %s
// CHECK: budget: 0 bytes: 0 fixed, 0 chosen among 1 candidate (1 part, largest 1, widest 0); recompute cost 536870912 (exact)
func.func @t(%a: tensor<4096x2048xf32>, %b: tensor<4096x4096xf32>, %g: tensor<2048x4096xf32> {rt.tangent})
    -> (tensor<2048x4096xf32>, tensor<2048x4096xf32>) attributes {rt.num_outputs = 1 : i64} {
  %c = "rt.matmul"(%a, %b) {transpose_a} : (tensor<4096x2048xf32>, tensor<4096x4096xf32>) -> tensor<2048x4096xf32>
  %y = "rt.neg"(%c) : (tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %d = "rt.mul"(%g, %c) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  return %y, %d : tensor<2048x4096xf32>, tensor<2048x4096xf32>
}
