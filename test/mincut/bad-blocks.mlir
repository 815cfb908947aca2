// A joint function of more than one block is refused with rt_graph_load's one diagnostic
// (the same check --remat-autodiff makes, naming the pass and what the function is to it).
// RUN: not remat-opt --remat-mincut %s 2>&1 | FileCheck %s
// CHECK: bad-blocks.mlir:[[@LINE+1]]:1: error: --remat-mincut: '@blocks' has more than one block: a joint function must be one block of rt and arith ops
func.func @blocks(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  cf.br ^bb1
^bb1:
  %d = "rt.mul"(%g, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x, %d : tensor<4xf32>, tensor<4xf32>
}
