// Scalars: scalar arith.constants used by fused ops are cloned into each kernel (and
// erased from the host when nothing else uses them); other scalars (function arguments,
// arith results) and tensor constants are kernel arguments.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// %two is used by two kernels (cloned into both); %half also by a host op, so it stays;
// %off is computed in the host and passed; %t is a tensor constant and is passed.
// CHECK-LABEL: func.func @scalars(%arg0: tensor<8xf32>, %arg1: f32, %arg2: i64, %arg3: i64, %arg4: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %cst_0 = arith.constant dense<1.500000e+00> : tensor<8xf32>
// CHECK-NEXT: %0 = arith.addi %arg3, %c1_i64 : i64
// CHECK-NEXT: %1 = "rt.matmul"(%arg4, %arg4) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = call @scalars_k1(%arg2, %0, %1) : (i64, i64, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = "rt.sum"(%2) {dims = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %4:2 = call @scalars_k0(%arg0, %arg1, %cst_0, %3) : (tensor<8xf32>, f32, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %5 = arith.mulf %arg1, %cst : f32
// CHECK-NEXT: return %4#0, %4#1, %5 : tensor<8xf32>, tensor<8xf32>, f32
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scalars_k0(%arg0: tensor<8xf32>, %arg1: f32, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %0 = "rt.mul"(%arg0, %cst) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %1 = "rt.add"(%0, %arg1) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %2 = "rt.sub"(%1, %arg2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = "rt.mul"(%arg3, %cst) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %4 = "rt.max"(%3, %cst_0) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: return %2, %4 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scalars_k1(%arg0: i64, %arg1: i64, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = "rt.mul"(%0, %arg2) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
func.func @scalars(%x: tensor<8xf32>, %s: f32, %seed: i64, %offset: i64, %w: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
  %two = arith.constant 2.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1 : i64
  %t = arith.constant dense<1.500000e+00> : tensor<8xf32>
  %off = arith.addi %offset, %one : i64
  %a = "rt.mul"(%x, %two) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %b = "rt.add"(%a, %s) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %c = "rt.sub"(%b, %t) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %m = "rt.matmul"(%w, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = "rt.uniform_philox"(%seed, %off) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<8x8xf32>
  %v = "rt.mul"(%u, %m) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = "rt.sum"(%v) {dims = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %d = "rt.mul"(%r, %two) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %e = "rt.max"(%d, %half) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %h = arith.mulf %s, %half : f32
  return %c, %e, %h : tensor<8xf32>, tensor<8xf32>, f32
}

// rt.full and rt.iota need no argument at all.
// CHECK-LABEL: func.func @sources() -> tensor<2x3xf32> {
// CHECK-NEXT: %0 = call @sources_k0() : () -> tensor<2x3xf32>
// CHECK-NEXT: return %0 : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @sources_k0() -> tensor<2x3xf32> attributes {rt.kernel} {
// CHECK-NEXT: %0 = "rt.full"() {value = 3.000000e+00 : f32} : () -> tensor<2x3xf32>
// CHECK-NEXT: %1 = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x3xf32>
// CHECK-NEXT: %2 = "rt.mul"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %2 : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @sources() -> tensor<2x3xf32> {
  %f = "rt.full"() {value = 3.0 : f32} : () -> tensor<2x3xf32>
  %i = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x3xf32>
  %y = "rt.mul"(%f, %i) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// A function without fusible ops keeps its scalar constants and is unchanged.
// CHECK-LABEL: func.func @scalar_only(%arg0: f32) -> f32 {
// CHECK-NEXT: %cst = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %0 = arith.mulf %arg0, %cst : f32
// CHECK-NEXT: return %0 : f32
// CHECK-NEXT: }
func.func @scalar_only(%s: f32) -> f32 {
  %c = arith.constant 3.000000e+00 : f32
  %y = arith.mulf %s, %c : f32
  return %y : f32
}
