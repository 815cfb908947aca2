// Collectives: the adjoint of an all-gather is a reduce-scatter (sum) of the cotangent,
// and back; an all-reduce (sum) is its own adjoint; rt.wait passes the cotangent through.
// Each backward collective is followed by its rt.wait and copies the group attributes.
// all_reduce and reduce_scatter with max/min are refused (errors.mlir).
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// remat-run simulates a group in one process with every rank holding the same data. That
// is true of the primals, not of a gathered value's cotangent, so finite differences of
// the simulation match the distributed gradient for all-reduce at any group size, and for
// all-gather / reduce-scatter at group size 1 (the exact IR above covers the rest).
// RUN: remat-run %t.mlir --check-fd all_reduce --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd fsdp_one --seed 2 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// FSDP: gather a sharded weight, use it, reduce-scatter its gradient.
func.func @fsdp(%x: tensor<2x8xf32>, %w: tensor<2x8xf32> {rt.param}) -> tensor<2x2xf32>
    attributes {rt.autodiff} {
  %s = "rt.all_gather"(%w) {group = "dp", group_size = 4 : i64, dim = 0 : i64} : (tensor<2x8xf32>) -> tensor<8x8xf32>
  %full = "rt.wait"(%s) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = "rt.matmul"(%x, %full) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %r = "rt.reduce_scatter"(%y) {group = "tp", group_size = 4 : i64, dim = 1 : i64, reduce = "sum"} : (tensor<2x8xf32>) -> tensor<2x2xf32>
  %out = "rt.wait"(%r) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %out : tensor<2x2xf32>
}

func.func @all_reduce(%x: tensor<3x4xf32>) -> tensor<3x4xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = "rt.all_reduce"(%e) {group = "dp", group_size = 3 : i64, reduce = "sum"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = "rt.wait"(%s) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// @fsdp with groups of one rank.
func.func @fsdp_one(%x: tensor<2x8xf32>, %w: tensor<8x8xf32> {rt.param}) -> tensor<2x8xf32>
    attributes {rt.autodiff} {
  %s = "rt.all_gather"(%w) {group = "dp", group_size = 1 : i64, dim = 0 : i64} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %full = "rt.wait"(%s) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = "rt.matmul"(%x, %full) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %r = "rt.reduce_scatter"(%y) {group = "tp", group_size = 1 : i64, dim = 1 : i64, reduce = "sum"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %out = "rt.wait"(%r) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %out : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @fsdp(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x8xf32>, %[[W:[^:]*]]: tensor<2x8xf32> {rt.param}, %[[G0:[^:]*]]: tensor<2x2xf32> {rt.tangent}) -> (tensor<2x2xf32>, tensor<2x8xf32>, tensor<2x8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.all_gather"(%[[W]]) {dim = 0 : i64, group = "dp", group_size = 4 : i64} : (tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.wait"(%[[S]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.matmul"(%[[X]], %[[FULL]]) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[R:.*]] = "rt.reduce_scatter"(%[[Y]]) {dim = 1 : i64, group = "tp", group_size = 4 : i64, reduce = "sum"} : (tensor<2x8xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[OUT:.*]] = "rt.wait"(%[[R]]) : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[AG:.*]] = "rt.all_gather"(%[[G0]]) {dim = 1 : i64, group = "tp", group_size = 4 : i64} : (tensor<2x2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[WAIT:.*]] = "rt.wait"(%[[AG]]) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[FULL]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[WAIT]], %[[TR]]) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[TR_1:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:   %[[MATMUL_1:.*]] = "rt.matmul"(%[[TR_1]], %[[WAIT]]) : (tensor<8x2xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[RSC:.*]] = "rt.reduce_scatter"(%[[MATMUL_1]]) {dim = 0 : i64, group = "dp", group_size = 4 : i64, reduce = "sum"} : (tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[WAIT_1:.*]] = "rt.wait"(%[[RSC]]) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   return %[[OUT]], %[[MATMUL]], %[[WAIT_1]] : tensor<2x2xf32>, tensor<2x8xf32>, tensor<2x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @all_reduce(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[S:.*]] = "rt.all_reduce"(%[[E]]) {group = "dp", group_size = 3 : i64, reduce = "sum"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.wait"(%[[S]]) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[AR:.*]] = "rt.all_reduce"(%[[G0]]) {group = "dp", group_size = 3 : i64, reduce = "sum"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[WAIT:.*]] = "rt.wait"(%[[AR]]) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[WAIT]], %[[E]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<3x4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @fsdp_one(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x8xf32>, %[[W:[^:]*]]: tensor<8x8xf32> {rt.param}, %[[G0:[^:]*]]: tensor<2x8xf32> {rt.tangent}) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8x8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.all_gather"(%[[W]]) {dim = 0 : i64, group = "dp", group_size = 1 : i64} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.wait"(%[[S]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.matmul"(%[[X]], %[[FULL]]) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[R:.*]] = "rt.reduce_scatter"(%[[Y]]) {dim = 1 : i64, group = "tp", group_size = 1 : i64, reduce = "sum"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[OUT:.*]] = "rt.wait"(%[[R]]) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[AG:.*]] = "rt.all_gather"(%[[G0]]) {dim = 1 : i64, group = "tp", group_size = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[WAIT:.*]] = "rt.wait"(%[[AG]]) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[FULL]]) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[WAIT]], %[[TR]]) : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:   %[[TR_1:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:   %[[MATMUL_1:.*]] = "rt.matmul"(%[[TR_1]], %[[WAIT]]) : (tensor<8x2xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[RSC:.*]] = "rt.reduce_scatter"(%[[MATMUL_1]]) {dim = 0 : i64, group = "dp", group_size = 1 : i64, reduce = "sum"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[WAIT_1:.*]] = "rt.wait"(%[[RSC]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:   return %[[OUT]], %[[MATMUL]], %[[WAIT_1]] : tensor<2x8xf32>, tensor<2x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
