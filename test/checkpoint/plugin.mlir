// --remat-checkpoint through the mlir-opt plugin gives the same IR as remat-opt, options
// included (mlir-opt separates options by spaces; a comma list stays one value).
// (An ASan build cannot be loaded into the uninstrumented mlir-opt.)
// UNSUPPORTED: asan
// RUN: remat-opt --remat-checkpoint=ac=1,fsdp=save,save-ops=rt.matmul,rt.mul %S/fsdp.mlir > %t.remat-opt.mlir
// RUN: mlir-opt --irdl-file=%rt_irdl --load-pass-plugin=%remat_lib/libRematPlugin.so \
// RUN:   -p 'builtin.module(remat-checkpoint{ac=1 fsdp=save save-ops=rt.matmul,rt.mul})' %S/fsdp.mlir > %t.mlir-opt.mlir
// RUN: diff %t.remat-opt.mlir %t.mlir-opt.mlir
// RUN: FileCheck %s < %t.mlir-opt.mlir
// The FSDP rule, the stages (1 GiB: one stage for these small tensors) and the two-op save
// list all show. The stage point is the cast before the gather (512 bytes live): every
// later point also holds the saved wait, live until the last user of the reshape that the
// backward recomputes from it (a live range through a recompute tag, as AutoParallel's).
// CHECK-LABEL: func.func @fsdp(
// CHECK: "rt.convert"(%{{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// CHECK: "rt.wait"(%{{.*}}) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// CHECK: "rt.matmul"(%{{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
