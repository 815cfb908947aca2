// VJPs of rt.max and rt.min. Two tensors: as torch.maximum/minimum, the operand that
// loses gets 0, a tie splits the cotangent in halves (the shared select of g/2 and g),
// NaN passes it to both. A tensor and a scalar: as torch.clamp_min/clamp_max, the tensor
// gets the whole cotangent where it is >= the scalar (max) or <= it (min), ties included.
// The numbers at ties are checked in ties.mlir.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd max --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd min --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd clamp --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd max_wrt_x --wrt 0 --seed 4 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @max(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32>
    attributes {rt.autodiff} {
  %m = "rt.max"(%x, %y) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

func.func @min(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32>
    attributes {rt.autodiff} {
  %m = "rt.min"(%x, %y) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

// clamp(x, -0.5, 0.5) written as max then min, the scalar on either side.
func.func @clamp(%x: tensor<3x4xf32>) -> tensor<3x4xf32> attributes {rt.autodiff} {
  %lo = arith.constant -5.000000e-01 : f32
  %hi = arith.constant 5.000000e-01 : f32
  %a = "rt.max"(%x, %lo) : (tensor<3x4xf32>, f32) -> tensor<3x4xf32>
  %b = "rt.min"(%hi, %a) : (f32, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %b : tensor<3x4xf32>
}

// Only x is differentiated: y's select is not emitted.
func.func @max_wrt_x(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32>
    attributes {rt.autodiff = {wrt = [0]}} {
  %m = "rt.max"(%x, %y) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @max(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[Y:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[M:.*]] = "rt.max"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[HALF]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[EQ]], %[[MUL]], %[[G0]]) : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[LT:.*]] = "rt.lt"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[LT]], %[[ZERO]], %[[SEL]]) : (tensor<3x4xi1>, f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[GT:.*]] = "rt.gt"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_2:.*]] = "rt.select"(%[[GT]], %[[ZERO]], %[[SEL]]) : (tensor<3x4xi1>, f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[M]], %[[SEL_1]], %[[SEL_2]] : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @min(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[Y:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[M:.*]] = "rt.min"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[HALF]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[EQ]], %[[MUL]], %[[G0]]) : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[GT:.*]] = "rt.gt"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[GT]], %[[ZERO]], %[[SEL]]) : (tensor<3x4xi1>, f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[LT:.*]] = "rt.lt"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_2:.*]] = "rt.select"(%[[LT]], %[[ZERO]], %[[SEL]]) : (tensor<3x4xi1>, f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[M]], %[[SEL_1]], %[[SEL_2]] : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @clamp(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[LO:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-NEXT:   %[[HI:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   %[[A:.*]] = "rt.max"(%[[X]], %[[LO]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.min"(%[[HI]], %[[A]]) : (f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[LE:.*]] = "rt.le"(%[[A]], %[[HI]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[LE]], %[[G0]], %[[ZERO]]) : (tensor<3x4xi1>, tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[GE:.*]] = "rt.ge"(%[[X]], %[[LO]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[GE]], %[[SEL]], %[[ZERO]]) : (tensor<3x4xi1>, tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[B]], %[[SEL_1]] : tensor<3x4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @max_wrt_x(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<3x4xf32>, %[[Y:[^:]*]]: tensor<3x4xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[M:.*]] = "rt.max"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[EQ:.*]] = "rt.eq"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[HALF]]) : (tensor<3x4xf32>, f32) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[SEL:.*]] = "rt.select"(%[[EQ]], %[[MUL]], %[[G0]]) : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[LT:.*]] = "rt.lt"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT:   %[[SEL_1:.*]] = "rt.select"(%[[LT]], %[[ZERO]], %[[SEL]]) : (tensor<3x4xi1>, f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   return %[[M]], %[[SEL_1]] : tensor<3x4xf32>, tensor<3x4xf32>
// CHECK-NEXT: }
