// --remat-fuse through the mlir-opt plugin gives the same IR as remat-opt, options
// included. (An ASan build cannot be loaded into the uninstrumented mlir-opt.)
// UNSUPPORTED: asan
// RUN: remat-opt --remat-fuse=max-ops=3 %examples/dropout.mlir > %t.remat-opt.mlir
// RUN: mlir-opt --irdl-file=%rt_irdl --load-pass-plugin=%remat_lib/libRematPlugin.so \
// RUN:   -p 'builtin.module(remat-fuse{max-ops=3})' %examples/dropout.mlir > %t.mlir-opt.mlir
// RUN: diff %t.remat-opt.mlir %t.mlir-opt.mlir
// RUN: FileCheck %s < %t.mlir-opt.mlir
// Eleven rt ops, at most three per kernel: four kernels, numbered in order.
// CHECK-LABEL: func.func @seed_dropout(
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @seed_dropout_k0(%arg1, %arg2) : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]]:2 = call @seed_dropout_k1(%arg0, %[[V0]]) :
// CHECK-NEXT: %[[V2:[a-z0-9_]+]]:2 = call @seed_dropout_k2(%[[V1]]#0, %arg3, %arg0) :
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = call @seed_dropout_k3(%[[V0]], %[[V2]]#1, %[[V2]]#0) :
// CHECK-NEXT: return %[[V1]]#1, %[[V3]] :
// CHECK-NOT: call
