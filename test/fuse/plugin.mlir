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
// CHECK-NEXT: %0 = call @seed_dropout_k0(%arg1, %arg2) : (i64, i64) -> tensor<2x2xf32>
// CHECK-NEXT: %1:2 = call @seed_dropout_k1(%arg0, %0) :
// CHECK-NEXT: %2:2 = call @seed_dropout_k2(%1#0, %arg3, %arg0) :
// CHECK-NEXT: %3 = call @seed_dropout_k3(%0, %2#1, %2#0) :
// CHECK-NEXT: return %1#1, %3 :
// CHECK-NOT: call
