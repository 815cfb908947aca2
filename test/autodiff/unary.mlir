// VJPs of the unary ops, each from PyTorch's derivatives.yaml:
//   exp: g * y            log: g / x             tanh: g * (1 - y * y)
//   erf: g * (2/sqrt(pi) * exp(-(x * x)))        sqrt: g / (y * 2)
//   rsqrt: (g * -0.5) * (y * y * y)              abs: g * sgn(x), sgn(0) = 0
//   sin: g * cos(x)       cos: -(g * sin(x))     neg: -g
//   log1p: g / (x + 1)
// log, sqrt and rsqrt read exp(x) (positive). abs at 0 is checked in ties.mlir.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd exp --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd log --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd tanh --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd erf --seed 4 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd sqrt --seed 5 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd rsqrt --seed 6 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd abs --seed 7 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd sin_cos --seed 8 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd f64 --seed 9 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd softplus --seed 10 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @exp(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %y = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @log(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "rt.log"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @tanh(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %y = "rt.tanh"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @erf(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %y = "rt.erf"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @sqrt(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "rt.sqrt"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @rsqrt(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "rt.rsqrt"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @abs(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %y = "rt.abs"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// cos contributes a negated product; the sign stays with the adjoint and becomes the
// rt.sub of the two contributions.
func.func @sin_cos(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %s = "rt.sin"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "rt.cos"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "rt.add"(%s, %c) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// softplus(x) = log1p(exp(x))
func.func @softplus(%x: tensor<8xf32>) -> tensor<8xf32> attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "rt.log1p"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// f64 tensors take f64 constants.
func.func @f64(%x: tensor<8xf64>) -> tensor<8xf64> attributes {rt.autodiff} {
  %t = "rt.tanh"(%x) : (tensor<8xf64>) -> tensor<8xf64>
  %y = "rt.erf"(%t) : (tensor<8xf64>) -> tensor<8xf64>
  return %y : tensor<8xf64>
}

// CHECK-LABEL: func.func @exp(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.exp"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @log(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.log"(%[[E]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[E]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[DIV]], %[[E]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @tanh(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.tanh"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[Y]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f32, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SUB]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_1]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @erf(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.erf"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[X]], %[[X]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[NEG:.*]] = "rt.neg"(%[[MUL]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[EXP:.*]] = "rt.exp"(%[[NEG]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[CST:.*]] = arith.constant 1.12837923 : f32
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[EXP]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[G0]], %[[MUL_1]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_2]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sqrt(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.sqrt"(%[[E]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[TWO]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[MUL]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[DIV]], %[[E]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_1]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.rsqrt"(%[[E]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[Y]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[MUL]], %[[Y]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MHALF:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[G0]], %[[MHALF]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_3:.*]] = "rt.mul"(%[[MUL_2]], %[[MUL_1]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_4:.*]] = "rt.mul"(%[[MUL_3]], %[[E]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_4]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @abs(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.abs"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[LT:.*]] = "rt.lt"(%[[X]], %[[ZERO]]) : (tensor<8xf32>, f32) -> tensor<8xi1>
// CHECK-NEXT:   %[[MONE:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[LT]], %[[MONE]], %[[ZERO]]) : (tensor<8xi1>, f32, f32) -> tensor<8xf32>
// CHECK-NEXT:   %[[GT:.*]] = "rt.gt"(%[[X]], %[[ZERO]]) : (tensor<8xf32>, f32) -> tensor<8xi1>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[GT]], %[[ONE]], %[[SEL]]) : (tensor<8xi1>, f32, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[SEL_1]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sin_cos(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[S:.*]] = "rt.sin"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[C:.*]] = "rt.cos"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.add"(%[[S]], %[[C]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[S]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[C]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[MUL_1]], %[[MUL]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[SUB]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @softplus(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf32>, %[[G0:[^:]*]]: tensor<8xf32> {rt.tangent}) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.log1p"(%[[E]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[E]], %[[ONE]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT:   %[[DIV:.*]] = "rt.div"(%[[G0]], %[[ADD]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[DIV]], %[[E]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @f64(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<8xf64>, %[[G0:[^:]*]]: tensor<8xf64> {rt.tangent}) -> (tensor<8xf64>, tensor<8xf64>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[T:.*]] = "rt.tanh"(%[[X]]) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[Y:.*]] = "rt.erf"(%[[T]]) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[T]], %[[T]]) : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[NEG:.*]] = "rt.neg"(%[[MUL]]) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[EXP:.*]] = "rt.exp"(%[[NEG]]) : (tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[CST:.*]] = arith.constant 1.1283791670955126 : f64
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[EXP]], %[[CST]]) : (tensor<8xf64>, f64) -> tensor<8xf64>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[G0]], %[[MUL_1]]) : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f64, tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   %[[MUL_3:.*]] = "rt.mul"(%[[MUL_2]], %[[SUB]]) : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
// CHECK-NEXT:   return %[[Y]], %[[MUL_3]] : tensor<8xf64>, tensor<8xf64>
// CHECK-NEXT: }
