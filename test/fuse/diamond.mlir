// A diamond a -> b, a -> c, (b, c) -> d is one kernel; %a is used only inside.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// CHECK-LABEL: func.func @diamond(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @diamond_k0(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @diamond_k0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.neg"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.add"(%[[V1]], %[[V2]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @diamond(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.mul"(%a, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "rt.neg"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "rt.add"(%b, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// The same diamond with a compare and a select as the join: the i1 value stays inside.
// CHECK-LABEL: func.func @relu_diamond(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @relu_diamond_k0(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @relu_diamond_k0(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.gt"(%arg0, %cst) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.mul"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.select"(%[[V0]], %[[V1]], %cst) : (tensor<4x8xi1>, tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @relu_diamond(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %p = "rt.gt"(%x, %zero) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %n = "rt.mul"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.select"(%p, %n, %zero) : (tensor<4x8xi1>, tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
