// After the min-cut split of the bundled dropout example: the forward and the backward
// each become one kernel; both take seed and offset as i64 arguments and draw the mask
// with uniform_philox inside (the backward recomputes it); no mask crosses between them.
// The fused split still matches the joint function bit for bit on the CPU, and so do the
// fused splits of remat-gen's random joint functions.
// RUN: remat-opt --remat-mincut --remat-fuse %examples/dropout.mlir > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-opt %t.mlir | FileCheck %s
// RUN: remat-run %examples/dropout.mlir --check-split seed_dropout --split %t.mlir --seed 3 | FileCheck %s --check-prefix=EXEC
// RUN: remat-gen --seed 4 --count 12 > %t.gen.mlir 2> /dev/null
// RUN: remat-opt --remat-mincut %t.gen.mlir > %t.gen.unfused
// RUN: remat-opt --remat-mincut --remat-fuse %t.gen.mlir > %t.gen.split
// RUN: %python %S/Inputs/fuse_check.py check %t.gen.unfused %t.gen.split | FileCheck %s --check-prefix=FORM
// RUN: remat-run %t.gen.mlir --check-split-all --split %t.gen.split --seed 2 | FileCheck %s --check-prefix=ALL
// EXEC-LABEL: check-split @seed_dropout
// EXEC: random tensors recomputed in the backward: 1, 1 bit-exact with the joint function's
// EXEC: ok: 2 values bit-exact
// FORM: ok: 24 functions, {{[0-9]+}} kernels
// ALL: ok: every split matches its joint function bit for bit
// CHECK-LABEL: func.func @seed_dropout_fwd(%arg0: tensor<2x2xf32>, %arg1: i64, %arg2: i64) -> (tensor<2x2xf32>, tensor<2x2xf32>, i64, i64) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 32 : i64} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @seed_dropout_fwd_k0(%arg1, %arg2, %arg0) : (i64, i64, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V0]], %arg0, %arg1, %arg2 : tensor<2x2xf32>, tensor<2x2xf32>, i64, i64
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @seed_dropout_fwd_k0(%arg0: i64, %arg1: i64, %arg2: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.lt"(%[[V0]], %cst) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.convert"(%[[V1]]) : (tensor<2x2xi1>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V2]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V3]], %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V4]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V5]] : tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @seed_dropout_bwd(%arg0: tensor<2x2xf32>, %arg1: i64, %arg2: i64, %arg3: tensor<2x2xf32> {rt.tangent}) -> tensor<2x2xf32> attributes {rt.forward = @seed_dropout_fwd} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @seed_dropout_bwd_k0(%arg1, %arg2, %arg0, %arg3) : (i64, i64, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @seed_dropout_bwd_k0(%arg0: i64, %arg1: i64, %arg2: tensor<2x2xf32>, %arg3: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.uniform_philox"(%arg0, %arg1) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.lt"(%[[V0]], %cst) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = "rt.convert"(%[[V1]]) : (tensor<2x2xi1>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.mul"(%arg2, %[[V2]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[V3]], %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V6:[a-z0-9_]+]] = "rt.mul"(%arg2, %arg3) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V7:[a-z0-9_]+]] = "rt.mul"(%[[V6]], %cst_0) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V8:[a-z0-9_]+]] = "rt.mul"(%[[V2]], %[[V7]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V9:[a-z0-9_]+]] = "rt.add"(%[[V5]], %[[V8]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[V9]] : tensor<2x2xf32>
// CHECK-NEXT: }
