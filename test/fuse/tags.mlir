// Tags and locations: fused ops keep rt.policy and rt.ac_region inside the kernel and
// their own locations; the call, the kernel function and its arguments take the
// location of the group's first op; the host keeps its attributes.
// RUN: remat-opt --remat-fuse --print-debuginfo %s | FileCheck %s

// CHECK: [[FIRST:#loc[0-9]+]] = loc("model.py":10:3)
// CHECK-LABEL: func.func @tagged(
// CHECK-SAME: {rt.tangent}
// CHECK-SAME: attributes {rt.num_outputs = 1 : i64}
// CHECK-NEXT: %[[V0:[a-z0-9_]+]]:2 = call @tagged_k0(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) loc([[FIRST]])
// CHECK-NEXT: return %[[V0]]#0, %[[V0]]#1
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @tagged_k0(%arg0: tensor<4xf32> loc("model.py":10:3), %arg1: tensor<4xf32> loc("model.py":10:3)) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.exp"(%arg0) {rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<4xf32>) -> tensor<4xf32> loc([[FIRST]])
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[V0]], %arg1) {rt.policy = "prefer_recompute"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc([[MUL:#loc[0-9]+]])
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4xf32>, tensor<4xf32> loc([[FIRST]])
// CHECK-NEXT: } loc([[FIRST]])
// CHECK: [[MUL]] = loc("model.py":11:5)
func.func @tagged(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a = "rt.exp"(%x) {rt.policy = "must_save", rt.ac_region = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":10:3)
  %b = "rt.mul"(%a, %g) {rt.policy = "prefer_recompute"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":11:5)
  return %a, %b : tensor<4xf32>, tensor<4xf32> loc("model.py":12:1)
}
