// rt.matmul: a gets g b^T, b gets a^T g (the last two dims transposed, batched alike).
// Transposed operands are rt.transpose ops; --remat-fuse folds them into the matmul's
// operand layout.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd linear --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd batched --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd gram --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd weights_only --wrt 1 --seed 4 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @linear(%x: tensor<4x3xf32>, %w: tensor<3x5xf32> {rt.param}) -> tensor<4x5xf32>
    attributes {rt.autodiff} {
  %y = "rt.matmul"(%x, %w) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

func.func @batched(%q: tensor<2x3x4xf32>, %k: tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    attributes {rt.autodiff} {
  %s = "rt.matmul"(%q, %k) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %s : tensor<2x3x5xf32>
}

// x x^T: x reaches the matmul twice, through the transpose and directly.
func.func @gram(%x: tensor<3x4xf32>) -> tensor<3x3xf32> attributes {rt.autodiff} {
  %xt = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %y = "rt.matmul"(%x, %xt) : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

// Only the weight is differentiated: no g w^T for x.
func.func @weights_only(%x: tensor<4x3xf32>, %w: tensor<3x5xf32> {rt.param}) -> tensor<4x5xf32>
    attributes {rt.autodiff = {wrt = array<i64: 1>}} {
  %y = "rt.matmul"(%x, %w) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @linear(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x3xf32>, %[[W:[^:]*]]: tensor<3x5xf32> {rt.param}, %[[G0:[^:]*]]: tensor<4x5xf32> {rt.tangent}) -> (tensor<4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.matmul"(%[[X]], %[[W]]) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[W]]) {perm = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[G0]], %[[TR]]) : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %[[TR_1:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MATMUL_1:.*]] = "rt.matmul"(%[[TR_1]], %[[G0]]) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[MATMUL]], %[[MATMUL_1]] : tensor<4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:  %[[Q:[^:]*]]: tensor<2x3x4xf32>, %[[K:[^:]*]]: tensor<2x4x5xf32>, %[[G0:[^:]*]]: tensor<2x3x5xf32> {rt.tangent}) -> (tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.matmul"(%[[Q]], %[[K]]) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[K]]) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x5xf32>) -> tensor<2x5x4xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[G0]], %[[TR]]) : (tensor<2x3x5xf32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %[[TR_1:.*]] = "rt.transpose"(%[[Q]]) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:   %[[MATMUL_1:.*]] = "rt.matmul"(%[[TR_1]], %[[G0]]) : (tensor<2x4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>
// CHECK-NEXT:   return %[[S]], %[[MATMUL]], %[[MATMUL_1]] : tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @gram(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x3xf32> {rt.tangent}) -> (tensor<3x3xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[XT:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.matmul"(%[[X]], %[[XT]]) : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[G0]], %[[X]]) : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MATMUL_1:.*]] = "rt.matmul"(%[[XT]], %[[G0]]) : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[MATMUL_1]]) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[MATMUL]], %[[TR]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[Y]], %[[ADD]] : tensor<3x3xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @weights_only(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x3xf32>, %[[W:[^:]*]]: tensor<3x5xf32> {rt.param}, %[[G0:[^:]*]]: tensor<4x5xf32> {rt.tangent}) -> (tensor<4x5xf32>, tensor<3x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.matmul"(%[[X]], %[[W]]) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MATMUL:.*]] = "rt.matmul"(%[[TR]], %[[G0]]) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[MATMUL]] : tensor<4x5xf32>, tensor<3x5xf32>
// CHECK-NEXT: }
