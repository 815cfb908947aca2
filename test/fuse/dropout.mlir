// Dropout: uniform_philox -> lt -> convert -> mul is one kernel that takes the seed and
// the offset as i64 arguments; the i1 mask never leaves the kernel.
// RUN: remat-opt --remat-fuse %s | FileCheck %s
// RUN: remat-opt --remat-fuse %s | FileCheck %s --check-prefix=NOMASK

// No call and no function signature mentions an i1 tensor:
// NOMASK-NOT: {{(call|func.func).*xi1}}
// CHECK-LABEL: func.func @dropout(%arg0: tensor<64x32xf32>, %arg1: i64, %arg2: i64) -> tensor<64x32xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @dropout_k0(%arg1, %arg2, %arg0) : (i64, i64, tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<64x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @dropout_k0(%arg0: i64, %arg1: i64, %arg2: tensor<64x32xf32>) -> tensor<64x32xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 0.899999976 : f32
// CHECK-NEXT: %cst_0 = arith.constant 1.11111116 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<64x32xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.lt"(%[[V0]], %cst) : (tensor<64x32xf32>, f32) -> tensor<64x32xi1>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.convert"(%[[V1]]) : (tensor<64x32xi1>) -> tensor<64x32xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V2]]) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V3]], %cst_0) : (tensor<64x32xf32>, f32) -> tensor<64x32xf32>
// CHECK-NEXT: return %[[V4]] : tensor<64x32xf32>
// CHECK-NEXT: }
func.func @dropout(%x: tensor<64x32xf32>, %seed: i64, %offset: i64) -> tensor<64x32xf32> {
  %p = arith.constant 0.899999976 : f32
  %scale = arith.constant 1.11111116 : f32
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<64x32xf32>
  %keep = "rt.lt"(%u, %p) : (tensor<64x32xf32>, f32) -> tensor<64x32xi1>
  %m = "rt.convert"(%keep) : (tensor<64x32xi1>) -> tensor<64x32xf32>
  %y = "rt.mul"(%x, %m) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %z = "rt.mul"(%y, %scale) : (tensor<64x32xf32>, f32) -> tensor<64x32xf32>
  return %z : tensor<64x32xf32>
}
