// rt.log1p, added through the checklist of docs/design.md ("Adding an op"): a row of
// dialect-c/rt_ops.def and an entry of dialect-c/rt.irdl.mlir, nothing else. Here: it
// parses and prints back, the codegen calls log1pf (host) and __nv_log1pf (nvptx64), the
// interpreter computes log1pf (exact near 0, unlike log(1 + x) in f32), compiled code
// gives the same bits, and it fuses. The verifier's rule (float only) is tested in
// test/verify/invalid-elementwise.mlir; the PTX is assembled in log1p-ptx.test; every
// element type against the interpreter in test/unit/codegen_interp_test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.log1p"(%{{.*}}) : (tensor<5xf32>) -> tensor<5xf32>
// IR: "rt.log1p"(%{{.*}}) : (tensor<2xf64>) -> tensor<2xf64>
//
// RUN: remat-translate --emit=llvm -O0 %s | FileCheck %s --check-prefix=NV
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefix=HOST
// NV-LABEL: void @kernel(
// NV: call float @__nv_log1pf(float
// NV: call double @__nv_log1p(double
// HOST-LABEL: void @kernel(
// HOST: call float @log1pf(float
// HOST: call double @log1p(double
//
// log1p(x) is x - x^2/2 + ... near 0: 1e-7 (f32: 1.00000001e-07) gives 9.99999941e-08,
// where log(1 + x) in f32 would give 1.19209290e-07.
// RUN: printf 'tensor<5xf32> 0 1e-7 -1 1 -0.5\ntensor<2xf64> 1e-300 3\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<5xf32>
// VAL-SAME: 0 9.99999941e-08 -inf 0.693147182 -0.693147182
// VAL-LABEL: result #1: tensor<2xf64>
// VAL-SAME: 1e-300 1.3862943611198906
//
// Fused and compiled: the same bits as the reference interpreter.
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.mlir
// FUSED-LABEL: func.func @values
// FUSED: call @values_k0
// FUSED: call @values_k1
// FUSED: func.func private @values_k0({{.*}} attributes {rt.kernel}
// FUSED-NEXT: "rt.log1p"
// RUN: remat-run %t.fused.mlir --check-compiled values --inputs %t.in | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --seed 3 | FileCheck %s --check-prefix=SAME
// SAME: ok: 1 functions, 2 results bit-exact

func.func @values(%a: tensor<5xf32>, %b: tensor<2xf64>) -> (tensor<5xf32>, tensor<2xf64>) {
  %0 = "rt.log1p"(%a) : (tensor<5xf32>) -> tensor<5xf32>
  %1 = "rt.log1p"(%b) : (tensor<2xf64>) -> tensor<2xf64>
  return %0, %1 : tensor<5xf32>, tensor<2xf64>
}

func.func private @kernel(%a: tensor<8xf32>, %b: tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf64>) attributes {rt.kernel} {
  %0 = "rt.log1p"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "rt.log1p"(%b) : (tensor<8xf64>) -> tensor<8xf64>
  return %0, %1 : tensor<8xf32>, tensor<8xf64>
}
