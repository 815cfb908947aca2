// Broadcasts are fused as consumers: their result is in the kernel's iteration space,
// their operand (another shape) becomes a kernel argument read through index arithmetic.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// Bias add and relu after a matmul: the 1-D parameter is an argument of the kernel.
// CHECK-LABEL: func.func @bias_relu(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32> {rt.param}, %arg2: tensor<16xf32> {rt.param}) -> tensor<4x16xf32> {
// CHECK-NEXT: %0 = "rt.matmul"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = call @bias_relu_k0(%arg2, %0) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bias_relu_k0(%arg0: tensor<16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %0 = "rt.broadcast"(%arg0) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = "rt.add"(%arg1, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %2 = "rt.max"(%1, %cst) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
// CHECK-NEXT: return %2 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @bias_relu(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {rt.param}, %b: tensor<16xf32> {rt.param}) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %h = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %y = "rt.add"(%h, %bb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.max"(%y, %zero) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// The broadcast written before the matmul: the matmul does not use the group, so the
// add still joins it, and the call stands after the matmul.
// CHECK-LABEL: func.func @bias_first(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT: %0 = "rt.matmul"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = call @bias_first_k0(%arg2, %0) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bias_first_k0(%arg0: tensor<16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.broadcast"(%arg0) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = "rt.add"(%arg1, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @bias_first(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %h = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %y = "rt.add"(%h, %bb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// A broadcast of a value computed in another kernel (a [16] group): the [16] group is
// sealed by the use and its value is passed in.
// CHECK-LABEL: func.func @broadcast_of_kernel(%arg0: tensor<16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT: %0 = call @broadcast_of_kernel_k0(%arg0) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %1 = call @broadcast_of_kernel_k1(%0, %arg1) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_of_kernel_k0(%arg0: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.exp"(%arg0) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %0 : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @broadcast_of_kernel_k1(%arg0: tensor<16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.broadcast"(%arg0) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = "rt.mul"(%arg1, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @broadcast_of_kernel(%v: tensor<16xf32>, %x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = "rt.exp"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  %eb = "rt.broadcast"(%e) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %y = "rt.mul"(%x, %eb) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
