// The dropout split as --remat-mincut leaves it (written by hand) (saved: a, seed, offset), through
// --remat-fuse and remat-translate: both kernels take seed and offset (u64) and no mask,
// both compute the uniform with llvm.fma.f32, the PTX has the Philox rounds.
// REQUIRES: ptxas
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=IR
// RUN: remat-translate --emit=ptx %t.fused.mlir -o %t.ptx --manifest=%t.manifest && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.manifest

// IR-LABEL: define ptx_kernel void @seed_dropout_fwd_k0(
// IR-NOT: i8
// IR-SAME: )
// IR: call i32 @remat.philox.bits(
// IR: call float @llvm.fma.f32(
// IR-LABEL: define ptx_kernel void @seed_dropout_bwd_k0(
// IR-NOT: i8
// IR-SAME: )
// IR: call i32 @remat.philox.bits(
// IR: call float @llvm.fma.f32(

// PTX-NOT: .param .u8
// PTX-LABEL: .visible .entry seed_dropout_fwd_k0(
// PTX-COUNT-2: .param .u64 seed_dropout_fwd_k0_param_{{[0-9]}},
// PTX: mul.hi.u32
// PTX-LABEL: .visible .entry seed_dropout_bwd_k0(
// PTX-COUNT-2: .param .u64 seed_dropout_bwd_k0_param_{{[0-9]}},
// PTX: mul.hi.u32
// PTX-NOT: .param .u8

// MANIFEST: kernel seed_dropout_fwd_k0 numel=4 in0:i64 in1:i64 in2:tensor<2x2xf32> out0:tensor<2x2xf32>
// MANIFEST-NEXT: kernel seed_dropout_bwd_k0 numel=4 in0:i64 in1:i64 in2:tensor<2x2xf32> in3:tensor<2x2xf32> out0:tensor<2x2xf32>
// MANIFEST-NOT: {{.}}

func.func @seed_dropout_fwd(%a: tensor<2x2xf32>, %seed: i64, %offset: i64) -> (tensor<2x2xf32>, tensor<2x2xf32>, i64, i64) attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
  %t2 = "rt.convert"(%t1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t5 = "rt.mul"(%a, %t4) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t5, %a, %seed, %offset : tensor<2x2xf32>, tensor<2x2xf32>, i64, i64
}

func.func @seed_dropout_bwd(%a: tensor<2x2xf32>, %seed: i64, %offset: i64, %g: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
  %t2 = "rt.convert"(%t1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t33 = "rt.mul"(%t4, %g) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t34 = "rt.mul"(%a, %g) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t35 = "rt.mul"(%t34, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t36 = "rt.mul"(%t2, %t35) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t39 = "rt.add"(%t33, %t36) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t39 : tensor<2x2xf32>
}
