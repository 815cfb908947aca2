// The bundled joint dropout function (before the min-cut split): everything is
// elementwise over one 2x2 iteration space, so the whole function is one kernel that
// takes seed and offset; the constants are cloned into it and leave the host.
// RUN: remat-opt --remat-fuse %examples/dropout.mlir | FileCheck %s
// RUN: remat-opt --remat-fuse %examples/dropout.mlir | remat-opt --remat-fuse | FileCheck %s
// CHECK-LABEL: func.func @seed_dropout(%arg0: tensor<2x2xf32>, %arg1: i64, %arg2: i64, %arg3: tensor<2x2xf32> {rt.tangent}) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]]:2 = call @seed_dropout_k0(%arg1, %arg2, %arg0, %arg3) : (i64, i64, tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT: return %[[V0]]#0, %[[V0]]#1 : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @seed_dropout_k0(%arg0: i64, %arg1: i64, %arg2: tensor<2x2xf32>, %arg3: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.lt"(%[[V0]], %cst) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.convert"(%[[V1]]) : (tensor<2x2xi1>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V2]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V3]], %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V4]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V6:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V7:[a-z0-9_]+]] = "rt.mul"(%arg2, %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V8:[a-z0-9_]+]] = "rt.mul"(%[[V7]], %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V9:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[V8]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V10:[a-z0-9_]+]] = "rt.add"(%[[V6]], %[[V9]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V5]], %[[V10]] : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
