// rt.sum / rt.amax of a host function: one function `<fn>_r<N>` each, iterating over
// rows (output elements). The fixed reduction order (docs/design.md): lane t of 256
// accumulates elements t, t+256, ... of the row (row-major over the reduced dims), then
// the lanes combine as 8 warps of 32: on nvptx64 a block of 256 threads per row with
// shfl.sync.down (16 8 4 2 1), shared memory, then 4 2 1 across the warps; on the host a
// loop plays the lanes and @remat.tree.* combines them in the same order. f32 from +0.0,
// bf16 in f32 rounded once, integers from MIN with signed max. Other ops of the host
// function are not lowered.
// RUN: remat-translate --emit=llvm -O0 %s --manifest=%t.nv | FileCheck %s --check-prefixes=CHECK,NV
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.nv

// MANIFEST: reduction f_r0 numel=4 row=15 block=256 in0:tensor<3x4x5xf32> out0:tensor<4xf32>
// MANIFEST-NEXT: reduction f_r1 numel=1 row=6 block=256 in0:tensor<6xbf16> out0:tensor<bf16>
// MANIFEST-NEXT: reduction f_r2 numel=2 row=3 block=256 in0:tensor<2x3xi32> out0:tensor<2xi32>
// MANIFEST-NOT: {{.}}

// sum over dims [2, 0] of [3,4,5]: row r's element j reads 5 r + 20 (j / 5) + j % 5, j < 15.
// NV-LABEL: define ptx_kernel void @f_r0(ptr addrspace(1) %in0, ptr addrspace(1) %out0) {
// NV: [[TID:%[0-9]+]] = zext i32 {{.*}} to i64
// NV: [[NTID:%[0-9]+]] = zext i32 {{.*}} to i64
// NV-NEXT: [[BAD:%[0-9]+]] = icmp ne i64 [[NTID]], 256
// NV-NEXT: br i1 [[BAD]], label %bad_block
// NV: bad_block:
// NV-NEXT: call void @llvm.trap()
// NV: %lane = and i64 [[TID]], 31
// NV-NEXT: %warp = lshr i64 [[TID]], 5
// NV: %r = phi i64
// NV: row:
// NV-NEXT: [[BASE:%[0-9]+]] = mul i64 %r, 5
// NV: %[[J:j[0-9]*]] = phi i64 [ [[TID]], %row ], [ [[J2:%[0-9]+]], {{%[0-9]+}} ]
// HOST-LABEL: define void @f_r0(ptr %in0, ptr %out0, i64 %begin, i64 %end) {
// HOST: %lanes = alloca [256 x float]
// HOST: body:
// HOST-NEXT: [[BASE:%[0-9]+]] = mul i64 %i, 5
// HOST: %[[LANE:lane[0-9]*]] = phi i64 [ 0, %body ]
// HOST: %[[J:j[0-9]*]] = phi i64 [ %[[LANE]], {{%[0-9]+}} ], [ [[J2:%[0-9]+]], {{%[0-9]+}} ]
// CHECK-NEXT: %acc = phi float [ 0.000000e+00, {{%[a-z0-9]+}} ], [ [[ACC2:%[0-9]+]], {{%[0-9]+}} ]
// CHECK-NEXT: [[C:%[0-9]+]] = icmp slt i64 %[[J]], 15
// CHECK: [[K2:%[0-9]+]] = urem i64 %[[J]], 5
// CHECK-NEXT: [[K0:%[0-9]+]] = udiv i64 %[[J]], 5
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[K0]], 20
// CHECK-NEXT: [[O:%[0-9]+]] = add i64 [[BASE]], [[T]]
// CHECK-NEXT: [[O2:%[0-9]+]] = add i64 [[O]], [[K2]]
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%in0, i64 [[O2]]
// CHECK-NEXT: [[X:%[0-9]+]] = load float, ptr {{.*}}[[P]]
// CHECK-NEXT: [[ACC2]] = fadd float %acc, [[X]]
// CHECK-NEXT: [[J2]] = add nsw i64 %[[J]], 256
// The block's combination: inside each warp, then across the 8 warps in shared memory.
// NV: [[S16:%[0-9]+]] = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %acc, i32 16, i32 31)
// NV-NEXT: [[A16:%[0-9]+]] = fadd float %acc, [[S16]]
// NV-NEXT: [[S8:%[0-9]+]] = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float [[A16]], i32 8, i32 31)
// NV: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float {{%[0-9]+}}, i32 1, i32 31)
// NV: store float {{%[0-9]+}}, ptr addrspace(3)
// NV: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// NV: [[IN:%[0-9]+]] = icmp ult i64 %lane, 8
// NV: [[W:%[0-9]+]] = select i1 [[IN]], float {{%[0-9]+}}, float 0.000000e+00
// NV-NEXT: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float [[W]], i32 4, i32 31)
// NV: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// NV-NEXT: [[RES:%[0-9]+]] = load float, ptr addrspace(3) getelementptr ([9 x float], ptr addrspace(3) @f_r0.smem0, i64 0, i64 8)
// NV: getelementptr float, ptr addrspace(1) %out0, i64 %r
// NV-NEXT: store float [[RES]]
// HOST: store float %acc, ptr
// HOST: call void @remat.tree.sum.f32(ptr %lanes)
// HOST-NEXT: [[P0:%[0-9]+]] = getelementptr [256 x float], ptr %lanes, i64 0, i64 0
// HOST-NEXT: [[RES:%[0-9]+]] = load float, ptr [[P0]]
// HOST-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr %out0, i64 %i
// HOST-NEXT: store float [[RES]], ptr [[P]]
// HOST-LABEL: define internal void @remat.tree.sum.f32(ptr %0) {
// HOST: %[[W:warp[0-9]*]] = phi i64 [ 0, %entry ]
// HOST: getelementptr [256 x float], ptr %0, i64 0, i64 %[[W]]
// HOST-NEXT: [[B:%[0-9]+]] = add i64 %[[W]], 16
// HOST-LABEL: define void @f_r0_packed(ptr %0, i64 %1, i64 %2) {

// CHECK-LABEL: void @f_r1(
// CHECK: %acc = phi float [ 0xFFF0000000000000,
// CHECK: [[X:%[0-9]+]] = call float @remat.bf16.to.f32(i16
// CHECK-NEXT: call float @llvm.maximum.f32(float %acc, float [[X]])
// NV: call float @llvm.nvvm.shfl.sync.down.f32
// HOST: call void @remat.tree.max.f32(ptr %lanes)
// CHECK: [[R:%[0-9]+]] = call i16 @remat.f32.to.bf16(float
// CHECK: store i16 [[R]]

// CHECK-LABEL: void @f_r2(
// CHECK: %acc = phi i32 [ -2147483648,
// CHECK: call i32 @llvm.smax.i32(i32 %acc, i32
// NV: call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %acc, i32 16, i32 31)
// HOST: call void @remat.tree.max.i32(ptr %lanes)

// The exp between the reductions belongs to a kernel (--remat-fuse); not lowered here.
// CHECK-NOT: expf
func.func @f(%x: tensor<3x4x5xf32>, %h: tensor<6xbf16>, %i: tensor<2x3xi32>) -> (tensor<4xf32>, tensor<bf16>, tensor<2xi32>) {
  %s = "rt.sum"(%x) {dims = array<i64: 2, 0>} : (tensor<3x4x5xf32>) -> tensor<4xf32>
  %e = "rt.exp"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  %m = "rt.amax"(%h) {dims = array<i64: 0>} : (tensor<6xbf16>) -> tensor<bf16>
  %k = "rt.amax"(%i) {dims = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %e, %m, %k : tensor<4xf32>, tensor<bf16>, tensor<2xi32>
}
