// The dropout kernels in the form --remat-mincut --remat-fuse leave them: the forward
// draws the mask from (seed, offset), the backward recomputes it from the same two
// scalars. Neither kernel takes a mask buffer; both compute the uniform with the same
// explicit llvm.fma.f32, and the PTX has the Philox rounds (mul.hi.u32).
// REQUIRES: ptxas
// RUN: remat-translate --emit=llvm -O0 %s | FileCheck %s --check-prefix=IR
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefix=HOST
// RUN: remat-translate --emit=ptx %s -o %t.ptx --manifest=%t.manifest && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.manifest

// IR-LABEL: define ptx_kernel void @seed_dropout_fwd_k0(ptr addrspace(1) %in0, i64 %in1, i64 %in2, ptr addrspace(1) %out0) {
// IR: %bits = call i32 @remat.philox.bits(i64 %in1, i64 %in2, i64 %i)
// IR-NEXT: [[X:%[0-9]+]] = uitofp i32 %bits to float
// IR-NEXT: [[S:%[0-9]+]] = fmul float [[X]], 0x3DF0000000000000
// IR-NEXT: [[U:%[0-9]+]] = fadd float [[S]], 0x3DE0000000000000
// IR-NEXT: [[ONE:%[0-9]+]] = fcmp oeq float [[U]], 1.000000e+00
// IR-NEXT: %u = select i1 [[ONE]], float 0.000000e+00, float [[U]]
// IR-NEXT: [[V:%[0-9]+]] = call float @llvm.fma.f32(float %u, float 1.000000e+00, float 0.000000e+00)
// IR-NEXT: [[M:%[0-9]+]] = fcmp olt float [[V]], 5.000000e-01
// IR-NEXT: uitofp i1 [[M]] to float
// The generator: key from the seed, counter from the offset and i / 4, word i % 4.
// IR-LABEL: define internal i32 @remat.philox.bits(i64 %0, i64 %1, i64 %2)
// IR: %block = lshr i64 %2, 2
// IR-COUNT-10: call i32 @llvm.nvvm.mulhi.ui(i32 {{%[0-9]+}}, i32 -766435501)
// IR: %word = trunc
// IR-LABEL: define ptx_kernel void @seed_dropout_bwd_k0(ptr addrspace(1) %in0, i64 %in1, i64 %in2, ptr addrspace(1) %in3, ptr addrspace(1) %out0) {
// IR: %bits = call i32 @remat.philox.bits(i64 %in1, i64 %in2, i64 %i)
// IR: call float @llvm.fma.f32(float %u, float 1.000000e+00, float 0.000000e+00)

// HOST-LABEL: define void @seed_dropout_fwd_k0(ptr %in0, i64 %in1, i64 %in2, ptr %out0, i64 %begin, i64 %end) {
// HOST: call float @llvm.fma.f32(float %u, float 1.000000e+00, float 0.000000e+00)
// On the host the 32x32->64 products are 64-bit multiplies.
// HOST-LABEL: define internal i32 @remat.philox.bits(i64 %0, i64 %1, i64 %2)
// HOST-COUNT-10: mul i64 {{%[0-9]+}}, 3528531795
// HOST-LABEL: define void @seed_dropout_fwd_k0_packed(ptr %0, i64 %1, i64 %2) {
// HOST: call void @seed_dropout_fwd_k0(ptr {{%[0-9]+}}, i64 {{%[0-9]+}}, i64 {{%[0-9]+}}, ptr {{%[0-9]+}}, i64 %1, i64 %2)
// HOST-LABEL: define void @seed_dropout_bwd_k0(ptr %in0, i64 %in1, i64 %in2, ptr %in3, ptr %out0, i64 %begin, i64 %end) {
// HOST: call float @llvm.fma.f32(float %u, float 1.000000e+00, float 0.000000e+00)

// Only the kernels are entry points; seed and offset are u64 parameters, the buffers
// global pointers; no u8 (mask) parameter.
// PTX-NOT: .param .u8
// PTX-LABEL: .visible .entry seed_dropout_fwd_k0(
// PTX-NEXT: .param .u64 .ptr .global .align 1 seed_dropout_fwd_k0_param_0,
// PTX-NEXT: .param .u64 seed_dropout_fwd_k0_param_1,
// PTX-NEXT: .param .u64 seed_dropout_fwd_k0_param_2,
// PTX-NEXT: .param .u64 .ptr .global .align 1 seed_dropout_fwd_k0_param_3
// PTX-NEXT: )
// PTX: mul.hi.u32
// PTX-LABEL: .visible .entry seed_dropout_bwd_k0(
// PTX-NEXT: .param .u64 .ptr .global .align 1 seed_dropout_bwd_k0_param_0,
// PTX-NEXT: .param .u64 seed_dropout_bwd_k0_param_1,
// PTX-NEXT: .param .u64 seed_dropout_bwd_k0_param_2,
// PTX-NEXT: .param .u64 .ptr .global .align 1 seed_dropout_bwd_k0_param_3,
// PTX-NEXT: .param .u64 .ptr .global .align 1 seed_dropout_bwd_k0_param_4
// PTX-NEXT: )
// PTX: mul.hi.u32
// PTX-NOT: .param .u8
// PTX-NOT: .entry
// PTX-NOT: .func

// MANIFEST: kernel seed_dropout_fwd_k0 numel=4 in0:tensor<2x2xf32> in1:i64 in2:i64 out0:tensor<2x2xf32>
// MANIFEST-NEXT: kernel seed_dropout_bwd_k0 numel=4 in0:tensor<2x2xf32> in1:i64 in2:i64 in3:tensor<2x2xf32> out0:tensor<2x2xf32>

func.func private @seed_dropout_fwd_k0(%a: tensor<2x2xf32>, %seed: i64, %offset: i64) -> tensor<2x2xf32> attributes {rt.kernel} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
  %t2 = "rt.convert"(%t1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t5 = "rt.mul"(%a, %t4) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t5 : tensor<2x2xf32>
}

func.func private @seed_dropout_bwd_k0(%a: tensor<2x2xf32>, %seed: i64, %offset: i64, %g: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {rt.kernel} {
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
