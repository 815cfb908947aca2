// The bundled joint dropout function (before the min-cut split): everything is
// elementwise over one 2x2 iteration space, so the whole function is one kernel that
// takes seed and offset; the constants are cloned into it and leave the host.
// RUN: remat-opt --remat-fuse %examples/dropout.mlir | FileCheck %s
// RUN: remat-opt --remat-fuse %examples/dropout.mlir | remat-opt --remat-fuse | FileCheck %s
// CHECK-LABEL: func.func @seed_dropout(%arg0: tensor<2x2xf32>, %arg1: i64, %arg2: i64, %arg3: tensor<2x2xf32> {rt.tangent}) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT: %0:2 = call @seed_dropout_k0(%arg1, %arg2, %arg0, %arg3) : (i64, i64, tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @seed_dropout_k0(%arg0: i64, %arg1: i64, %arg2: tensor<2x2xf32>, %arg3: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %0 = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %1 = "rt.lt"(%0, %cst) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
// CHECK-NEXT: %2 = "rt.convert"(%1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
// CHECK-NEXT: %3 = "rt.mul"(%arg2, %2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %4 = "rt.mul"(%3, %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %5 = "rt.mul"(%arg2, %4) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %6 = "rt.mul"(%4, %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %7 = "rt.mul"(%arg2, %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %8 = "rt.mul"(%7, %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %9 = "rt.mul"(%2, %8) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %10 = "rt.add"(%6, %9) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %5, %10 : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT: }
