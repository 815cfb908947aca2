// VJPs of rt.pow, as torch's pow_backward_self / pow_backward_exponent:
//   base:     g * where(b == 0, 0, b * x^(b-1))
//   exponent: g * where(x == 0 and b >= 0, 0, y * log(x))
// A constant exponent c is folded: c = 0 gives the base no gradient, c = 1 passes g,
// c = 2 multiplies by x (x^1 is x). A constant base folds its log. A run-time scalar
// exponent uses scalar arith for b - 1 and b == 0. Values at 0 are checked in ties.mlir.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd pow --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd const_exponents --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd zero_exponent --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd const_base --seed 4 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd zero_base --seed 5 --wrt 0 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd scalar_exponent --seed 6 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// exp(x) ^ b: both operands differentiated.
func.func @pow(%x: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %y = "rt.pow"(%e, %b) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// x^1 + x^2 + x^3
func.func @const_exponents(%x: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %three = arith.constant 3.000000e+00 : f32
  %a = "rt.pow"(%x, %one) : (tensor<6xf32>, f32) -> tensor<6xf32>
  %b = "rt.pow"(%x, %two) : (tensor<6xf32>, f32) -> tensor<6xf32>
  %c = "rt.pow"(%x, %three) : (tensor<6xf32>, f32) -> tensor<6xf32>
  %ab = "rt.add"(%a, %b) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %y = "rt.add"(%ab, %c) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// x^0 is constant: x's gradient is zero (one rt.full), no backward op.
func.func @zero_exponent(%x: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %zero = arith.constant 0.000000e+00 : f32
  %y = "rt.pow"(%x, %zero) : (tensor<6xf32>, f32) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// 2^b: the exponent's gradient is g * (y * log 2), log 2 folded.
func.func @const_base(%b: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %two = arith.constant 2.000000e+00 : f32
  %y = "rt.pow"(%two, %b) : (f32, tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// 0^exp(b) = 0 with b's gradient 0 (torch's mask; y * log 0 would be 0 * -inf = NaN).
func.func @zero_base(%b: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %zero = arith.constant 0.000000e+00 : f32
  %e = "rt.exp"(%b) : (tensor<6xf32>) -> tensor<6xf32>
  %y = "rt.pow"(%zero, %e) : (f32, tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// exp(x) ^ s with s an f32 argument.
func.func @scalar_exponent(%x: tensor<6xf32>, %s: f32) -> tensor<6xf32>
    attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %y = "rt.pow"(%e, %s) : (tensor<6xf32>, f32) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// CHECK-LABEL: func.func @pow(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[B:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.pow"(%[[E]], %[[B]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[B]], %[[ONE]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[POW:.*]] = "rt.pow"(%[[E]], %[[SUB]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[B]], %[[POW]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[B]], %[[ZERO]]) : (tensor<6xf32>, f32) -> tensor<6xi1>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[EQ]], %[[ZERO]], %[[MUL]]) : (tensor<6xi1>, f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SEL]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[LOG:.*]] = "rt.log"(%[[E]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[Y]], %[[LOG]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[EQ_1:.*]] = "rt.eq"(%[[E]], %[[ZERO]]) : (tensor<6xf32>, f32) -> tensor<6xi1>
// CHECK-NEXT:   %[[GE:.*]] = "rt.ge"(%[[B]], %[[ZERO]]) : (tensor<6xf32>, f32) -> tensor<6xi1>
// CHECK-NEXT:   %[[MUL_3:.*]] = "rt.mul"(%[[EQ_1]], %[[GE]]) : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[MUL_3]], %[[ZERO]], %[[MUL_2]]) : (tensor<6xi1>, f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_4:.*]] = "rt.mul"(%[[G0]], %[[SEL_1]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_5:.*]] = "rt.mul"(%[[MUL_1]], %[[E]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_5]], %[[MUL_4]] : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @const_exponents(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:   %[[A:.*]] = "rt.pow"(%[[X]], %[[ONE]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.pow"(%[[X]], %[[TWO]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[C:.*]] = "rt.pow"(%[[X]], %[[THREE]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[AB:.*]] = "rt.add"(%[[A]], %[[B]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.add"(%[[AB]], %[[C]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[B]], %[[THREE]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[MUL]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[X]], %[[TWO]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_3:.*]] = "rt.mul"(%[[G0]], %[[MUL_2]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[MUL_1]], %[[MUL_3]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[ADD_1:.*]] = "rt.add"(%[[ADD]], %[[G0]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[ADD_1]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @zero_exponent(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[Y:.*]] = "rt.pow"(%[[X]], %[[ZERO]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[FULL]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @const_base(
// CHECK-SAME:  %[[B:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[Y:.*]] = "rt.pow"(%[[TWO]], %[[B]]) : (f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[CST:.*]] = arith.constant 0.693147182 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[CST]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[MUL]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_1]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @zero_base(
// CHECK-SAME:  %[[B:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[B]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.pow"(%[[ZERO]], %[[E]]) : (f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[CST:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[CST]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[GE:.*]] = "rt.ge"(%[[E]], %[[ZERO]]) : (tensor<6xf32>, f32) -> tensor<6xi1>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[GE]], %[[ZERO]], %[[MUL]]) : (tensor<6xi1>, f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SEL]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[MUL_1]], %[[E]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_2]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @scalar_exponent(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[S:[^:]*]]: f32, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.pow"(%[[E]], %[[S]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUBF:.*]] = arith.subf %[[S]], %[[ONE]] : f32
// CHECK-NEXT:   %[[POW:.*]] = "rt.pow"(%[[E]], %[[SUBF]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[POW]], %[[S]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[CMPF:.*]] = arith.cmpf oeq, %[[S]], %[[ZERO]] : f32
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[CMPF]], %[[ZERO]], %[[MUL]]) : (i1, f32, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SEL]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[MUL_1]], %[[E]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_2]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
