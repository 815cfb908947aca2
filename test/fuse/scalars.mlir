// Scalars: scalar arith.constants used by fused ops are cloned into each kernel (and
// erased from the host when nothing else uses them); other scalars (function arguments,
// arith results) and tensor constants are kernel arguments.
// RUN: remat-opt --remat-fuse %s | FileCheck %s

// %two is used by two kernels (cloned into both); %half also by a host op, so it stays;
// %off is computed in the host and passed; %t is a tensor constant and is passed.
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<8xf32>, %[[ARG1:[^:]*]]: f32, %[[ARG2:[^:]*]]: i64, %[[ARG3:[^:]*]]: i64, %[[ARG4:[^:]*]]: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[CST_0:.*]] = arith.constant dense<1.500000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addi %[[ARG3]], %[[C1_I64]] : i64
// CHECK-NEXT: %[[V1:.*]] = call @scalars_k0(%[[ARG0]], %[[ARG1]], %[[CST_0]]) : (tensor<8xf32>, f32, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.matmul"(%[[ARG4]], %[[ARG4]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = call @scalars_k1(%[[ARG2]], %[[V0]], %[[V2]]) : (i64, i64, tensor<8x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V4:.*]] = arith.mulf %[[ARG1]], %[[CST]] : f32
// CHECK-NEXT: return %[[V1]], %[[V3]], %[[V4]] : tensor<8xf32>, tensor<8xf32>, f32
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scalars_k0(%[[ARG0:[^:]*]]: tensor<8xf32>, %[[ARG1:[^:]*]]: f32, %[[ARG2:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.mul"(%[[ARG0]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[ARG1]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[V1]], %[[ARG2]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scalars_k1(%[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64, %[[ARG2:[^:]*]]: tensor<8x8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[CST_0:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.uniform_philox"(%[[ARG0]], %[[ARG1]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG2]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sum"(%[[V1]]) {dims = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.max"(%[[V3]], %[[CST_0]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: return %[[V4]] : tensor<8xf32>
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
// CHECK-LABEL: func.func @sources(
// CHECK-SAME: ) -> tensor<2x3xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @sources_k0() : () -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @sources_k0() -> tensor<2x3xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.full"() {value = 3.000000e+00 : f32} : () -> tensor<2x3xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x3xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[V0]], %[[V1]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @sources() -> tensor<2x3xf32> {
  %f = "rt.full"() {value = 3.0 : f32} : () -> tensor<2x3xf32>
  %i = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x3xf32>
  %y = "rt.mul"(%f, %i) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// A function without fusible ops keeps its scalar constants and is unchanged.
// CHECK-LABEL: func.func @scalar_only(
// CHECK-SAME: %[[ARG0:[^:]*]]: f32) -> f32 {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = arith.mulf %[[ARG0]], %[[CST]] : f32
// CHECK-NEXT: return %[[V0]] : f32
// CHECK-NEXT: }
func.func @scalar_only(%s: f32) -> f32 {
  %c = arith.constant 3.000000e+00 : f32
  %y = arith.mulf %s, %c : f32
  return %y : f32
}
