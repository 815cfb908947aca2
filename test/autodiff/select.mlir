// Compares have no gradient (i1 results); rt.select sends the cotangent to the branch
// it took: select(c, g, 0) to the first, select(c, 0, g) to the second. A scalar branch
// gets nothing; a scalar i1 condition works the same way.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd relu_like --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd where --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd scalar_cond --seed 3 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

// where(x > 0, x, 0.1 x): the compare reads x but passes nothing back.
func.func @relu_like(%x: tensor<2x5xf32>) -> tensor<2x5xf32> attributes {rt.autodiff} {
  %zero = arith.constant 0.000000e+00 : f32
  %slope = arith.constant 1.000000e-01 : f32
  %c = "rt.gt"(%x, %zero) : (tensor<2x5xf32>, f32) -> tensor<2x5xi1>
  %l = "rt.mul"(%x, %slope) : (tensor<2x5xf32>, f32) -> tensor<2x5xf32>
  %y = "rt.select"(%c, %x, %l) : (tensor<2x5xi1>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// where(x < y, x, y) and where(x >= y, 2, y): the scalar branch gets no gradient.
func.func @where(%x: tensor<2x5xf32>, %y: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
    attributes {rt.autodiff} {
  %two = arith.constant 2.000000e+00 : f32
  %lt = "rt.lt"(%x, %y) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xi1>
  %a = "rt.select"(%lt, %x, %y) : (tensor<2x5xi1>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %ge = "rt.ge"(%x, %y) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xi1>
  %b = "rt.select"(%ge, %two, %y) : (tensor<2x5xi1>, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %a, %b : tensor<2x5xf32>, tensor<2x5xf32>
}

func.func @scalar_cond(%c: i1, %x: tensor<2x5xf32>, %y: tensor<2x5xf32>) -> tensor<2x5xf32>
    attributes {rt.autodiff} {
  %a = "rt.select"(%c, %x, %y) : (i1, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %a : tensor<2x5xf32>
}

// CHECK-LABEL: func.func @relu_like(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x5xf32>, %[[G0:[^:]*]]: tensor<2x5xf32> {rt.tangent}) -> (tensor<2x5xf32>, tensor<2x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[SLOPE:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT:   %[[C:.*]] = "rt.gt"(%[[X]], %[[ZERO]]) : (tensor<2x5xf32>, f32) -> tensor<2x5xi1>
// CHECK-NEXT:   %[[L:.*]] = "rt.mul"(%[[X]], %[[SLOPE]]) : (tensor<2x5xf32>, f32) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.select"(%[[C]], %[[X]], %[[L]]) : (tensor<2x5xi1>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[C]], %[[G0]], %[[ZERO]]) : (tensor<2x5xi1>, tensor<2x5xf32>, f32) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[C]], %[[ZERO]], %[[G0]]) : (tensor<2x5xi1>, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[SEL_1]], %[[SLOPE]]) : (tensor<2x5xf32>, f32) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[SEL]], %[[MUL]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   return %[[Y]], %[[ADD]] : tensor<2x5xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @where(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x5xf32>, %[[Y:[^:]*]]: tensor<2x5xf32>, %[[G0:[^:]*]]: tensor<2x5xf32> {rt.tangent}, %[[G1:[^:]*]]: tensor<2x5xf32> {rt.tangent}) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>) attributes {rt.num_outputs = 2 : i64} {
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[LT:.*]] = "rt.lt"(%[[X]], %[[Y]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xi1>
// CHECK-NEXT:   %[[A:.*]] = "rt.select"(%[[LT]], %[[X]], %[[Y]]) : (tensor<2x5xi1>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[GE:.*]] = "rt.ge"(%[[X]], %[[Y]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xi1>
// CHECK-NEXT:   %[[B:.*]] = "rt.select"(%[[GE]], %[[TWO]], %[[Y]]) : (tensor<2x5xi1>, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[GE]], %[[ZERO]], %[[G1]]) : (tensor<2x5xi1>, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[LT]], %[[G0]], %[[ZERO]]) : (tensor<2x5xi1>, tensor<2x5xf32>, f32) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SEL_2:.*]] = "rt.select"(%[[LT]], %[[ZERO]], %[[G0]]) : (tensor<2x5xi1>, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[SEL]], %[[SEL_2]]) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   return %[[A]], %[[B]], %[[SEL_1]], %[[ADD]] : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @scalar_cond(
// CHECK-SAME:  %[[C:[^:]*]]: i1, %[[X:[^:]*]]: tensor<2x5xf32>, %[[Y:[^:]*]]: tensor<2x5xf32>, %[[G0:[^:]*]]: tensor<2x5xf32> {rt.tangent}) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.select"(%[[C]], %[[X]], %[[Y]]) : (i1, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[C]], %[[G0]], %[[ZERO]]) : (i1, tensor<2x5xf32>, f32) -> tensor<2x5xf32>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[C]], %[[ZERO]], %[[G0]]) : (i1, f32, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:   return %[[A]], %[[SEL]], %[[SEL_1]] : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
