// rt.sum / rt.amax of a host function: one function `<fn>_r<N>` each, one output element
// per loop iteration (a grid-stride loop on nvptx64), the reduced elements visited in
// row-major order and accumulated sequentially: f32 from +0.0, bf16 in f32 rounded once,
// integers from MIN with signed max. Other ops of the host function are not lowered.
// RUN: remat-translate --emit=llvm -O0 %s --manifest=%t.nv | FileCheck %s --check-prefixes=CHECK,NV
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.nv

// MANIFEST: reduction f_r0 numel=4 in0:tensor<3x4x5xf32> out0:tensor<4xf32>
// MANIFEST-NEXT: reduction f_r1 numel=1 in0:tensor<6xbf16> out0:tensor<bf16>
// MANIFEST-NEXT: reduction f_r2 numel=2 in0:tensor<2x3xi32> out0:tensor<2xi32>
// MANIFEST-NOT: {{.}}

// sum over dims [2, 0] of [3,4,5]: output j reads 5 j + 20 (r / 5) + r % 5, r < 15.
// NV-LABEL: define ptx_kernel void @f_r0(ptr addrspace(1) %in0, ptr addrspace(1) %out0) {
// NV: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// HOST-LABEL: define void @f_r0(ptr %in0, ptr %out0, i64 %begin, i64 %end) {
// CHECK: body:
// CHECK-NEXT: [[BASE:%[0-9]+]] = mul i64 %i, 5
// CHECK-NEXT: br label %reduce
// CHECK: %r = phi i64 [ 0, %body ], [ [[R2:%[0-9]+]], %reduce.body ]
// CHECK-NEXT: %acc = phi float [ 0.000000e+00, %body ], [ [[ACC2:%[0-9]+]], %reduce.body ]
// CHECK-NEXT: [[C:%[0-9]+]] = icmp slt i64 %r, 15
// CHECK-NEXT: br i1 [[C]], label %reduce.body, label %reduce.done
// CHECK: reduce.body:
// CHECK-NEXT: [[K2:%[0-9]+]] = urem i64 %r, 5
// CHECK-NEXT: [[K0:%[0-9]+]] = udiv i64 %r, 5
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[K0]], 20
// CHECK-NEXT: [[O:%[0-9]+]] = add i64 [[BASE]], [[T]]
// CHECK-NEXT: [[O2:%[0-9]+]] = add i64 [[O]], [[K2]]
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%in0, i64 [[O2]]
// CHECK-NEXT: [[X:%[0-9]+]] = load float, ptr {{.*}}[[P]]
// CHECK-NEXT: [[ACC2]] = fadd float %acc, [[X]]
// CHECK-NEXT: [[R2]] = add nsw i64 %r, 1
// CHECK: reduce.done:
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%out0, i64 %i
// CHECK-NEXT: store float %acc, ptr {{.*}}[[P]]
// HOST-LABEL: define void @f_r0_packed(ptr %0, i64 %1, i64 %2) {

// CHECK-LABEL: void @f_r1(
// CHECK: %acc = phi float [ 0xFFF0000000000000, %body ]
// CHECK: [[X:%[0-9]+]] = call float @remat.bf16.to.f32(i16
// CHECK-NEXT: call float @llvm.maximum.f32(float %acc, float [[X]])
// CHECK: reduce.done:
// CHECK-NEXT: [[R:%[0-9]+]] = call i16 @remat.f32.to.bf16(float %acc)
// CHECK: store i16 [[R]]

// CHECK-LABEL: void @f_r2(
// CHECK: %acc = phi i32 [ -2147483648, %body ]
// CHECK: call i32 @llvm.smax.i32(i32 %acc, i32

// The exp between the reductions belongs to a kernel (--remat-fuse); not lowered here.
// CHECK-NOT: expf
func.func @f(%x: tensor<3x4x5xf32>, %h: tensor<6xbf16>, %i: tensor<2x3xi32>) -> (tensor<4xf32>, tensor<bf16>, tensor<2xi32>) {
  %s = "rt.sum"(%x) {dims = array<i64: 2, 0>} : (tensor<3x4x5xf32>) -> tensor<4xf32>
  %e = "rt.exp"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  %m = "rt.amax"(%h) {dims = array<i64: 0>} : (tensor<6xbf16>) -> tensor<bf16>
  %k = "rt.amax"(%i) {dims = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %e, %m, %k : tensor<4xf32>, tensor<bf16>, tensor<2xi32>
}
