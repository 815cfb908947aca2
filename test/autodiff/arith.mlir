// VJPs of rt.add, rt.sub, rt.mul, rt.div and rt.neg, with tensor and scalar operands: the
// exact backward, then each gradient against central differences.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd add --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd sub --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd mul --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd div --seed 4 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd scalars --seed 5 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd neg_neg --seed 6 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd square --seed 7 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// add: both operands get the cotangent itself (no op).
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {rt.autodiff} {
  %a = "rt.add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

// sub: the second operand gets -g, one rt.neg at the gradient.
func.func @sub(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {rt.autodiff} {
  %a = "rt.sub"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

func.func @mul(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {rt.autodiff} {
  %a = "rt.mul"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a : tensor<2x3xf32>
}

// div by exp(y) (positive): x gets g / e; e gets -(g * (q / e)), a sign that travels
// through exp's rule (linear in the cotangent) and becomes one rt.neg at the gradient.
func.func @div(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {rt.autodiff} {
  %e = "rt.exp"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = "rt.div"(%x, %e) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %q : tensor<2x3xf32>
}

// Scalar operands (a constant and an f32 argument) get no gradient; x's contributions
// are summed in reverse order of the uses: rt.sub(c, x) contributes -g (an rt.sub).
func.func @scalars(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> attributes {rt.autodiff} {
  %two = arith.constant 2.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %a = "rt.mul"(%x, %two) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %b = "rt.div"(%a, %s) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %c = "rt.sub"(%one, %x) : (f32, tensor<4xf32>) -> tensor<4xf32>
  %d = "rt.add"(%s, %b) : (f32, tensor<4xf32>) -> tensor<4xf32>
  %e = "rt.mul"(%c, %d) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// Two negations cancel: the gradient is the tangent itself, with no backward op.
func.func @neg_neg(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %a = "rt.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "rt.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// x * x: both operand slots contribute g * x, summed.
func.func @square(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %a = "rt.mul"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func @add(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.add"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   return %[[A]], %[[G0]], %[[G0]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sub(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.sub"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[NEG:.*]] = "rt.neg"(%[[G0]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   return %[[A]], %[[G0]], %[[NEG]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @mul(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.mul"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[X]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   return %[[A]], %[[MUL]], %[[MUL_1]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @div(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>, %[[G0:[^:]*]]: tensor<2x3xf32> {rt.tangent}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[Y]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[Q:.*]] = "rt.div"(%[[X]], %[[E]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[E]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[DIV_1:.*]] = "rt.div"(%[[Q]], %[[E]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[DIV_1]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[MUL]], %[[E]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %[[NEG:.*]] = "rt.neg"(%[[MUL_1]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   return %[[Q]], %[[DIV]], %[[NEG]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[S:[^:]*]]: f32, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[A:.*]] = "rt.mul"(%[[X]], %[[TWO]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.div"(%[[A]], %[[S]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[C:.*]] = "rt.sub"(%[[ONE]], %[[X]]) : (f32, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[D:.*]] = "rt.add"(%[[S]], %[[B]]) : (f32, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[E:.*]] = "rt.mul"(%[[C]], %[[D]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[D]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[C]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[MUL_1]], %[[S]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[DIV]], %[[TWO]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[MUL_2]], %[[MUL]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[E]], %[[SUB]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @neg_neg(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.neg"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.neg"(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[B]], %[[G0]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @square(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.mul"(%[[X]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[MUL]], %[[MUL]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[A]], %[[ADD]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
