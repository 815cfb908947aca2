// rt.reshape passes the cotangent back reshaped; rt.transpose transposes it by the
// inverse permutation.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd reshape --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd transpose --wrt 0 --seed 2 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x4xf32> attributes {rt.autodiff} {
  %r = "rt.reshape"(%x) : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %y = "rt.tanh"(%r) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// perm [2, 0, 1]: [2, 3, 4] -> [4, 2, 3]; the inverse is [1, 2, 0]. The weight w of the
// transposed shape makes every element's gradient different.
func.func @transpose(%x: tensor<2x3x4xf32>, %w: tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
    attributes {rt.autodiff = {wrt = [0]}} {
  %t = "rt.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %y = "rt.mul"(%t, %w) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x6xf32>, %[[G0:[^:]*]]: tensor<3x4xf32> {rt.tangent}) -> (tensor<3x4xf32>, tensor<2x6xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[R:.*]] = "rt.reshape"(%[[X]]) : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.tanh"(%[[R]]) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[Y]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL]]) : (f32, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[SUB]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %[[RS:.*]] = "rt.reshape"(%[[MUL_1]]) : (tensor<3x4xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:   return %[[Y]], %[[RS]] : tensor<3x4xf32>, tensor<2x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<2x3x4xf32>, %[[W:[^:]*]]: tensor<4x2x3xf32>, %[[G0:[^:]*]]: tensor<4x2x3xf32> {rt.tangent}) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[T:.*]] = "rt.transpose"(%[[X]]) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[T]], %[[W]]) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[W]]) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:   %[[TR:.*]] = "rt.transpose"(%[[MUL]]) {perm = array<i64: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   return %[[Y]], %[[TR]] : tensor<4x2x3xf32>, tensor<2x3x4xf32>
// CHECK-NEXT: }
