// rt.slice: the cotangent goes back to the positions the slice read, zeros elsewhere
// (rt.full zeros concatenated before and after; a stride s interleaves s - 1 zeros after
// each element through a reshape to [m, 1], a concat with zeros [m, s-1] and a reshape to
// [m*s], cut where the last element's zeros run past the end). rt.concat: each operand
// gets its slice of the cotangent.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd window --wrt 0 --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd strided --wrt 0 --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd strided_cut --wrt 0 --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd concat --seed 4 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd split_join --seed 5 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// rows 1..3, columns 2..4 of a 4x5 matrix (a weight w of the slice's shape makes each
// position's gradient different).
func.func @window(%x: tensor<4x5xf32>, %w: tensor<2x2xf32>) -> tensor<2x2xf32>
    attributes {rt.autodiff = {wrt = [0]}} {
  %s = "rt.slice"(%x) {start = array<i64: 1, 2>, limit = array<i64: 3, 4>, stride = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
  %y = "rt.mul"(%s, %w) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// positions 1, 4 of 7 (start 1, stride 3): [m, s] = [2, 3] fills 6 = 7 - 1 exactly.
func.func @strided(%x: tensor<7xf32>, %w: tensor<2xf32>) -> tensor<2xf32>
    attributes {rt.autodiff = {wrt = [0]}} {
  %s = "rt.slice"(%x) {start = array<i64: 1>, limit = array<i64: 7>, stride = array<i64: 3>} : (tensor<7xf32>) -> tensor<2xf32>
  %y = "rt.mul"(%s, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// positions 0, 2, 4 of 5 along dim 1: [3, 2] is 6 long, cut to 5.
func.func @strided_cut(%x: tensor<2x5xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {rt.autodiff = {wrt = [0]}} {
  %s = "rt.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 2, 5>, stride = array<i64: 1, 2>} : (tensor<2x5xf32>) -> tensor<2x3xf32>
  %y = "rt.mul"(%s, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// Three operands (the last two of one type, as IRDL requires) along dim 1.
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x7xf32>
    attributes {rt.autodiff} {
  %j = "rt.concat"(%a, %b, %c) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x7xf32>
  %y = "rt.tanh"(%j) : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// Split into halves and join them swapped: slices and concat compose back to x's shape.
func.func @split_join(%x: tensor<6x2xf32>) -> tensor<6x2xf32> attributes {rt.autodiff} {
  %lo = "rt.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 3, 2>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
  %hi = "rt.slice"(%x) {start = array<i64: 3, 0>, limit = array<i64: 6, 2>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
  %e = "rt.exp"(%lo) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %j = "rt.concat"(%hi, %e) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
  return %j : tensor<6x2xf32>
}

// CHECK-LABEL: func.func @window(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x5xf32>, %[[W:[^:]*]]: tensor<2x2xf32>, %[[G0:[^:]*]]: tensor<2x2xf32> {rt.tangent}) -> (tensor<2x2xf32>, tensor<4x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.slice"(%[[X]]) {limit = array<i64: 3, 4>, start = array<i64: 1, 2>, stride = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[S]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<1x2xf32>
// CHECK-NEXT:   %[[CONCAT:.*]] = "rt.concat"(%[[MUL]], %[[FULL]]) {dim = 0 : i64} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[CONCAT_1:.*]] = "rt.concat"(%[[FULL]], %[[CONCAT]]) {dim = 0 : i64} : (tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %[[FULL_1:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<4x1xf32>
// CHECK-NEXT:   %[[CONCAT_2:.*]] = "rt.concat"(%[[CONCAT_1]], %[[FULL_1]]) {dim = 1 : i64} : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %[[FULL_2:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<4x2xf32>
// CHECK-NEXT:   %[[CONCAT_3:.*]] = "rt.concat"(%[[FULL_2]], %[[CONCAT_2]]) {dim = 1 : i64} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[CONCAT_3]] : tensor<2x2xf32>, tensor<4x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @strided(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<7xf32>, %[[W:[^:]*]]: tensor<2xf32>, %[[G0:[^:]*]]: tensor<2xf32> {rt.tangent}) -> (tensor<2xf32>, tensor<7xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.slice"(%[[X]]) {limit = array<i64: 7>, start = array<i64: 1>, stride = array<i64: 3>} : (tensor<7xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[S]], %[[W]]) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[W]]) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   %[[RS:.*]] = "rt.reshape"(%[[MUL]]) : (tensor<2xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<2x2xf32>
// CHECK-NEXT:   %[[CONCAT:.*]] = "rt.concat"(%[[RS]], %[[FULL]]) {dim = 1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[RS_1:.*]] = "rt.reshape"(%[[CONCAT]]) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[FULL_1:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<1xf32>
// CHECK-NEXT:   %[[CONCAT_1:.*]] = "rt.concat"(%[[FULL_1]], %[[RS_1]]) {dim = 0 : i64} : (tensor<1xf32>, tensor<6xf32>) -> tensor<7xf32>
// CHECK-NEXT:   return %[[Y]], %[[CONCAT_1]] : tensor<2xf32>, tensor<7xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @strided_cut(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x5xf32>, %[[W:[^:]*]]: tensor<2x3xf32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.slice"(%[[X]]) {limit = array<i64: 2, 5>, start = array<i64: 0, 0>, stride = array<i64: 1, 2>} : (tensor<2x5xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[S]], %[[W]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[W]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[RS:.*]] = "rt.reshape"(%[[MUL]]) : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<2x3x1xf32>
// CHECK-NEXT:   %[[CONCAT:.*]] = "rt.concat"(%[[RS]], %[[FULL]]) {dim = 2 : i64} : (tensor<2x3x1xf32>, tensor<2x3x1xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT:   %[[RS_1:.*]] = "rt.reshape"(%[[CONCAT]]) : (tensor<2x3x2xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:   %[[SLICE:.*]] = "rt.slice"(%[[RS_1]]) {limit = array<i64: 2, 5>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x6xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[SLICE]] : tensor<2x3xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @concat(
// CHECK-SAME:  %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x2xf32>, %[[C:[^:]*]]: tensor<2x2xf32>, %[[G0:[^:]*]]: tensor<2x7xf32> {rt.tangent}) -> (tensor<2x7xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[J:.*]] = "rt.concat"(%[[A]], %[[B]], %[[C]]) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x7xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.tanh"(%[[J]]) : (tensor<2x7xf32>) -> tensor<2x7xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[Y]]) : (tensor<2x7xf32>, tensor<2x7xf32>) -> tensor<2x7xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f32, tensor<2x7xf32>) -> tensor<2x7xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SUB]]) : (tensor<2x7xf32>, tensor<2x7xf32>) -> tensor<2x7xf32>
// CHECK-NEXT:   %[[SLICE:.*]] = "rt.slice"(%[[MUL_1]]) {limit = array<i64: 2, 3>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x7xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[SLICE_1:.*]] = "rt.slice"(%[[MUL_1]]) {limit = array<i64: 2, 5>, start = array<i64: 0, 3>, stride = array<i64: 1, 1>} : (tensor<2x7xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[SLICE_2:.*]] = "rt.slice"(%[[MUL_1]]) {limit = array<i64: 2, 7>, start = array<i64: 0, 5>, stride = array<i64: 1, 1>} : (tensor<2x7xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:   return %[[Y]], %[[SLICE]], %[[SLICE_1]], %[[SLICE_2]] : tensor<2x7xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @split_join(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6x2xf32>, %[[G0:[^:]*]]: tensor<6x2xf32> {rt.tangent}) -> (tensor<6x2xf32>, tensor<6x2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[LO:.*]] = "rt.slice"(%[[X]]) {limit = array<i64: 3, 2>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[HI:.*]] = "rt.slice"(%[[X]]) {limit = array<i64: 6, 2>, start = array<i64: 3, 0>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[LO]]) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[J:.*]] = "rt.concat"(%[[HI]], %[[E]]) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:   %[[SLICE:.*]] = "rt.slice"(%[[G0]]) {limit = array<i64: 3, 2>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[SLICE_1:.*]] = "rt.slice"(%[[G0]]) {limit = array<i64: 6, 2>, start = array<i64: 3, 0>, stride = array<i64: 1, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[SLICE_1]], %[[E]]) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<3x2xf32>
// CHECK-NEXT:   %[[CONCAT:.*]] = "rt.concat"(%[[FULL]], %[[SLICE]]) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:   %[[CONCAT_1:.*]] = "rt.concat"(%[[MUL]], %[[FULL]]) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[CONCAT]], %[[CONCAT_1]]) : (tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:   return %[[J]], %[[ADD]] : tensor<6x2xf32>, tensor<6x2xf32>
// CHECK-NEXT: }
