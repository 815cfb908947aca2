// rt.convert between float types passes the cotangent back converted to the operand's
// type; a conversion from or to an integer or i1 type cuts the gradient (the integer
// value is not differentiable, as in PyTorch).
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd widen --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd through_int --seed 2 | FileCheck %s --check-prefix=FD
// The bf16 round trip rounds the cotangent to bf16 too (as PyTorch's backward of .to()):
// 8 bits of mantissa, so the tolerance is 1%.
// RUN: remat-run %t.mlir --check-fd bf16 --seed 3 --fd-tol 0.01,0.01 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// f32 -> f64 -> tanh -> f32
func.func @widen(%x: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %d = "rt.convert"(%x) : (tensor<6xf32>) -> tensor<6xf64>
  %t = "rt.tanh"(%d) : (tensor<6xf64>) -> tensor<6xf64>
  %y = "rt.convert"(%t) : (tensor<6xf64>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// f32 -> bf16 -> exp -> f32: exp's rule runs in bf16.
func.func @bf16(%x: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %b = "rt.convert"(%x) : (tensor<6xf32>) -> tensor<6xbf16>
  %e = "rt.exp"(%b) : (tensor<6xbf16>) -> tensor<6xbf16>
  %z = "rt.convert"(%e) : (tensor<6xbf16>) -> tensor<6xf32>
  return %z : tensor<6xf32>
}

// x * float(int(x)): the integer path carries no gradient, so x gets g * float(int(x)).
func.func @through_int(%x: tensor<6xf32>) -> tensor<6xf32> attributes {rt.autodiff} {
  %four = arith.constant 4.000000e+00 : f32
  %s = "rt.mul"(%x, %four) : (tensor<6xf32>, f32) -> tensor<6xf32>
  %i = "rt.convert"(%s) : (tensor<6xf32>) -> tensor<6xi32>
  %f = "rt.convert"(%i) : (tensor<6xi32>) -> tensor<6xf32>
  %y = "rt.mul"(%x, %f) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// CHECK-LABEL: func.func @widen(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[D:.*]] = "rt.convert"(%[[X]]) : (tensor<6xf32>) -> tensor<6xf64>
// CHECK-NEXT:   %[[T:.*]] = "rt.tanh"(%[[D]]) : (tensor<6xf64>) -> tensor<6xf64>
// CHECK-NEXT:   %[[Y:.*]] = "rt.convert"(%[[T]]) : (tensor<6xf64>) -> tensor<6xf32>
// CHECK-NEXT:   %[[CVT:.*]] = "rt.convert"(%[[G0]]) : (tensor<6xf32>) -> tensor<6xf64>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[T]], %[[T]]) : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xf64>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f64, tensor<6xf64>) -> tensor<6xf64>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[CVT]], %[[SUB]]) : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xf64>
// CHECK-NEXT:   %[[CVT_1:.*]] = "rt.convert"(%[[MUL_1]]) : (tensor<6xf64>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[CVT_1]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[B:.*]] = "rt.convert"(%[[X]]) : (tensor<6xf32>) -> tensor<6xbf16>
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[B]]) : (tensor<6xbf16>) -> tensor<6xbf16>
// CHECK-NEXT:   %[[Z:.*]] = "rt.convert"(%[[E]]) : (tensor<6xbf16>) -> tensor<6xf32>
// CHECK-NEXT:   %[[CVT:.*]] = "rt.convert"(%[[G0]]) : (tensor<6xf32>) -> tensor<6xbf16>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[CVT]], %[[E]]) : (tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
// CHECK-NEXT:   %[[CVT_1:.*]] = "rt.convert"(%[[MUL]]) : (tensor<6xbf16>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Z]], %[[CVT_1]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @through_int(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<6xf32>, %[[G0:[^:]*]]: tensor<6xf32> {rt.tangent}) -> (tensor<6xf32>, tensor<6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:   %[[S:.*]] = "rt.mul"(%[[X]], %[[FOUR]]) : (tensor<6xf32>, f32) -> tensor<6xf32>
// CHECK-NEXT:   %[[I:.*]] = "rt.convert"(%[[S]]) : (tensor<6xf32>) -> tensor<6xi32>
// CHECK-NEXT:   %[[F:.*]] = "rt.convert"(%[[I]]) : (tensor<6xi32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[X]], %[[F]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[F]]) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: }
