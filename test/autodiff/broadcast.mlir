// rt.broadcast: the cotangent is summed with rt.sum over the dims the broadcast created
// (not in `dims`) or expanded from size 1, then reshaped where expanded size-1 dims must
// come back. Dims of size 1 in the result need no sum.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd bias --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd expand --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd scalar_tensor --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd unit_dim --seed 4 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// [5] -> [4, 5] (dims [1]): sum over dim 0.
func.func @bias(%x: tensor<4x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32>
    attributes {rt.autodiff} {
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<5xf32>) -> tensor<4x5xf32>
  %y = "rt.add"(%x, %bb) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// [1, 5] -> [3, 2, 5] (dims [1, 2]): dim 0 is new, dim 1 expanded from 1; sum over both
// gives [5], reshaped to [1, 5].
func.func @expand(%x: tensor<3x2x5xf32>, %s: tensor<1x5xf32>) -> tensor<3x2x5xf32>
    attributes {rt.autodiff} {
  %sb = "rt.broadcast"(%s) {dims = array<i64: 1, 2>} : (tensor<1x5xf32>) -> tensor<3x2x5xf32>
  %y = "rt.mul"(%x, %sb) : (tensor<3x2x5xf32>, tensor<3x2x5xf32>) -> tensor<3x2x5xf32>
  return %y : tensor<3x2x5xf32>
}

// A 0-d tensor broadcast everywhere: sum over every dim.
func.func @scalar_tensor(%x: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32>
    attributes {rt.autodiff} {
  %sb = "rt.broadcast"(%s) {dims = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %y = "rt.mul"(%x, %sb) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// [5] -> [1, 5]: only a size-1 dim is added; the cotangent is reshaped, not summed.
func.func @unit_dim(%b: tensor<5xf32>) -> tensor<1x5xf32> attributes {rt.autodiff} {
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<5xf32>) -> tensor<1x5xf32>
  %y = "rt.exp"(%bb) : (tensor<1x5xf32>) -> tensor<1x5xf32>
  return %y : tensor<1x5xf32>
}

// CHECK-LABEL: func.func @bias(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x5xf32>, %[[B:[^:]*]]: tensor<5xf32>, %[[G0:[^:]*]]: tensor<4x5xf32> {rt.tangent}) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[BB:.*]] = "rt.broadcast"(%[[B]]) {dims = array<i64: 1>} : (tensor<5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.add"(%[[X]], %[[BB]]) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   %[[SUM:.*]] = "rt.sum"(%[[G0]]) {dims = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<5xf32>
// CHECK-NEXT:   return %[[Y]], %[[G0]], %[[SUM]] : tensor<4x5xf32>, tensor<4x5xf32>, tensor<5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @expand(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x2x5xf32>, %[[S:[^:]*]]: tensor<1x5xf32>, %[[G0:[^:]*]]: tensor<3x2x5xf32> {rt.tangent}) -> (tensor<3x2x5xf32>, tensor<3x2x5xf32>, tensor<1x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[SB:.*]] = "rt.broadcast"(%[[S]]) {dims = array<i64: 1, 2>} : (tensor<1x5xf32>) -> tensor<3x2x5xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[X]], %[[SB]]) : (tensor<3x2x5xf32>, tensor<3x2x5xf32>) -> tensor<3x2x5xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[SB]]) : (tensor<3x2x5xf32>, tensor<3x2x5xf32>) -> tensor<3x2x5xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[X]]) : (tensor<3x2x5xf32>, tensor<3x2x5xf32>) -> tensor<3x2x5xf32>
// CHECK-NEXT:   %[[SUM:.*]] = "rt.sum"(%[[MUL_1]]) {dims = array<i64: 0, 1>} : (tensor<3x2x5xf32>) -> tensor<5xf32>
// CHECK-NEXT:   %[[RS:.*]] = "rt.reshape"(%[[SUM]]) : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]], %[[RS]] : tensor<3x2x5xf32>, tensor<3x2x5xf32>, tensor<1x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @scalar_tensor(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3xf32>, %[[S:[^:]*]]: tensor<f32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[SB:.*]] = "rt.broadcast"(%[[S]]) {dims = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[X]], %[[SB]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[SB]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[X]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[SUM:.*]] = "rt.sum"(%[[MUL_1]]) {dims = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<f32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]], %[[SUM]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @unit_dim(
// CHECK-SAME:  %[[B:[^:]*]]: tensor<5xf32>, %[[G0:[^:]*]]: tensor<1x5xf32> {rt.tangent}) -> (tensor<1x5xf32>, tensor<5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[BB:.*]] = "rt.broadcast"(%[[B]]) {dims = array<i64: 1>} : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.exp"(%[[BB]]) : (tensor<1x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:   %[[RS:.*]] = "rt.reshape"(%[[MUL]]) : (tensor<1x5xf32>) -> tensor<5xf32>
// CHECK-NEXT:   return %[[Y]], %[[RS]] : tensor<1x5xf32>, tensor<5xf32>
// CHECK-NEXT: }
