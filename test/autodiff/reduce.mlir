// rt.sum: the cotangent is broadcast back over the reduced dims. rt.amax, as torch's amax
// backward: the elements equal to the maximum share the cotangent evenly,
// (g / count) * mask with mask = (x == broadcast(y)) and count = sum(mask). The numbers
// at ties are checked in ties.mlir.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd sum_rows --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd sum_all --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd sum_none --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd amax --seed 4 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd softmax --seed 5 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @sum_rows(%x: tensor<3x4x2xf32>) -> tensor<3x2xf32> attributes {rt.autodiff} {
  %s = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<3x4x2xf32>) -> tensor<3x2xf32>
  %y = "rt.tanh"(%s) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

func.func @sum_all(%x: tensor<3x4xf32>) -> tensor<f32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = "rt.sum"(%e) {dims = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// A sum over no dims is the identity.
func.func @sum_none(%x: tensor<3xf32>) -> tensor<3xf32> attributes {rt.autodiff} {
  %s = "rt.sum"(%x) {dims = array<i64>} : (tensor<3xf32>) -> tensor<3xf32>
  %y = "rt.exp"(%s) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @amax(%x: tensor<3x4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %m = "rt.amax"(%x) {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// Softmax over rows, written out: amax (stability), exp, sum, div. The amax is a
// constant shift mathematically; its gradient is what makes the sums cancel.
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> attributes {rt.autodiff} {
  %m = "rt.amax"(%x) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
  %mb = "rt.broadcast"(%m) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
  %d = "rt.sub"(%x, %mb) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %e = "rt.exp"(%d) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = "rt.sum"(%e) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
  %sb = "rt.broadcast"(%s) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
  %y = "rt.div"(%e, %sb) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// CHECK-LABEL: func.func @sum_rows(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4x2xf32>, %[[G0:[^:]*]]: tensor<3x2xf32> {rt.tangent}) -> (tensor<3x2xf32>, tensor<3x4x2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.sum"(%[[X]]) {dims = array<i64: 1>} : (tensor<3x4x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.tanh"(%[[S]]) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[Y]]) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f32, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SUB]]) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[BC:.*]] = "rt.broadcast"(%[[MUL_1]]) {dims = array<i64: 0, 2>} : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:   return %[[Y]], %[[BC]] : tensor<3x2xf32>, tensor<3x4x2xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sum_all(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<f32> {rt.tangent}) -> (tensor<f32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[S:.*]] = "rt.sum"(%[[E]]) {dims = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<f32>
// CHECK-NEXT:   %[[BC:.*]] = "rt.broadcast"(%[[G0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[BC]], %[[E]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[S]], %[[MUL]] : tensor<f32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sum_none(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3xf32>, %[[G0:[^:]*]]: tensor<3xf32> {rt.tangent}) -> (tensor<3xf32>, tensor<3xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.sum"(%[[X]]) {dims = array<i64>} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.exp"(%[[S]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @amax(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[M:.*]] = "rt.amax"(%[[X]]) {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[BC:.*]] = "rt.broadcast"(%[[M]]) {dims = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[X]], %[[BC]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[CVT:.*]] = "rt.convert"(%[[EQ]]) : (tensor<3x4xi1>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[SUM:.*]] = "rt.sum"(%[[CVT]]) {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[SUM]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[BC_1:.*]] = "rt.broadcast"(%[[DIV]]) {dims = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[BC_1]], %[[CVT]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[M]], %[[MUL]] : tensor<4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x5xf32>, %[[G0:[^:]*]]: tensor<2x5xf32> {rt.tangent}) -> (tensor<2x5xf32>, tensor<2x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[M:.*]] = "rt.amax"(%[[X]]) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[MB:.*]] = "rt.broadcast"(%[[M]]) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[D:.*]] = "rt.sub"(%[[X]], %[[MB]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[D]]) : (tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[S:.*]] = "rt.sum"(%[[E]]) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[SB:.*]] = "rt.broadcast"(%[[S]]) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.div"(%[[E]], %[[SB]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[SB]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[DIV_1:.*]] = "rt.div"(%[[Y]], %[[SB]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[DIV_1]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SUM:.*]] = "rt.sum"(%[[MUL]]) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[BC:.*]] = "rt.broadcast"(%[[SUM]]) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[DIV]], %[[BC]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[SUB]], %[[E]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SUM_1:.*]] = "rt.sum"(%[[MUL_1]]) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[X]], %[[MB]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xi1>
// CHECK-NEXT:   %[[CVT:.*]] = "rt.convert"(%[[EQ]]) : (tensor<2x5xi1>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SUM_2:.*]] = "rt.sum"(%[[CVT]]) {dims = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[DIV_2:.*]] = "rt.div"(%[[SUM_1]], %[[SUM_2]]) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[BC_1:.*]] = "rt.broadcast"(%[[DIV_2]]) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[BC_1]], %[[CVT]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SUB_1:.*]] = "rt.sub"(%[[MUL_1]], %[[MUL_2]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[SUB_1]] : tensor<2x5xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
