// One chain of elementwise ops becomes one kernel; the output parses and verifies again.
// RUN: remat-opt --remat-fuse %s | FileCheck %s
// RUN: remat-opt --remat-fuse %s | remat-opt | FileCheck %s

// CHECK-LABEL: func.func @chain(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @chain_k0(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain_k0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.exp"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @chain(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.add"(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "rt.mul"(%b, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// A single elementwise op is a kernel too.
// CHECK-LABEL: func.func @single(%arg0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @single_k0(%arg0) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @single_k0(%arg0: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.neg"(%arg0) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16xf32>
// CHECK-NEXT: }
func.func @single(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = "rt.neg"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// A value used inside and outside the group (%a, returned) is a kernel result; results
// are in program order, not in the order of the return.
// CHECK-LABEL: func.func @inside_outside(%arg0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]]:2 = call @inside_outside_k0(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: return %[[V0]]#1, %[[V0]]#0 : tensor<16xf32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @inside_outside_k0(%arg0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.neg"(%arg0) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.abs"(%[[V0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<16xf32>, tensor<16xf32>
// CHECK-NEXT: }
func.func @inside_outside(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %a = "rt.neg"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "rt.abs"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %b, %a : tensor<16xf32>, tensor<16xf32>
}

// 0-d tensors are an iteration space of one element.
// CHECK-LABEL: func.func @zero_d(%arg0: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @zero_d_k0(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @zero_d_k0(%arg0: tensor<f32>) -> tensor<f32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.sqrt"(%arg0) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
// CHECK-NEXT: }
func.func @zero_d(%x: tensor<f32>) -> tensor<f32> {
  %a = "rt.sqrt"(%x) : (tensor<f32>) -> tensor<f32>
  return %a : tensor<f32>
}

// A group whose values nobody uses (dead code) is still a kernel: it returns its last
// value, which the host leaves unused.
// CHECK-LABEL: func.func @dead(%arg0: tensor<4xf32>, %arg1: tensor<8xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @dead_k0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = call @dead_k1(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @dead_k0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.exp"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @dead_k1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.neg"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.abs"(%[[V0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8xf32>
// CHECK-NEXT: }
func.func @dead(%x: tensor<4xf32>, %v: tensor<8xf32>) -> tensor<4xf32> {
  %a = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %d = "rt.neg"(%v) : (tensor<8xf32>) -> tensor<8xf32>
  %e = "rt.abs"(%d) : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<4xf32>
}
