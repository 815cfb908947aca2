// Structural ops are index arithmetic on the row-major linear index %i of the result:
// broadcast drops or zeroes coordinates, transpose permutes them, slice scales and
// shifts them, reshape keeps %i, concat reads every operand at a clamped coordinate and
// selects, iota is a coordinate.
// RUN: remat-translate --emit=llvm -O0 %s | FileCheck %s
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s

// [3] -> [2,3] on dims [1]: x[i % 3]; [2,1] -> [2,3]: y[i / 3] (the size-1 dim reads 0)
// CHECK-LABEL: void @broadcast(
// CHECK: [[C1:%[0-9]+]] = urem i64 %i, 3
// CHECK-NEXT: udiv i64 %i, 3
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%in0, i64 [[C1]]
// CHECK-NEXT: [[X:%[0-9]+]] = load float, ptr {{.*}}[[P]]
// CHECK-NEXT: urem i64 %i, 3
// CHECK-NEXT: [[C0:%[0-9]+]] = udiv i64 %i, 3
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%in1, i64 [[C0]]
// CHECK-NEXT: [[Y:%[0-9]+]] = load float, ptr {{.*}}[[P]]
// CHECK-NEXT: fadd float [[X]], [[Y]]
func.func private @broadcast(%x: tensor<3xf32>, %y: tensor<2x1xf32>) -> tensor<2x3xf32> attributes {rt.kernel} {
  %0 = "rt.broadcast"(%x) {dims = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "rt.broadcast"(%y) {dims = array<i64: 0, 1>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  %2 = "rt.add"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// [4,3,2] -> [2,4,3] by perm [2,0,1]: result (c0, c1, c2) reads x[c1][c2][c0], at
// c1 * 6 + c2 * 2 + c0.
// CHECK-LABEL: void @transpose(
// CHECK: [[C2:%[0-9]+]] = urem i64 %i, 3
// CHECK-NEXT: [[Q:%[0-9]+]] = udiv i64 %i, 3
// CHECK-NEXT: [[C1:%[0-9]+]] = urem i64 [[Q]], 4
// CHECK-NEXT: [[C0:%[0-9]+]] = udiv i64 %i, 12
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C2]], 2
// CHECK-NEXT: [[S:%[0-9]+]] = add i64 [[C0]], [[T]]
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C1]], 6
// CHECK-NEXT: [[L:%[0-9]+]] = add i64 [[S]], [[T]]
// CHECK-NEXT: getelementptr float, ptr {{.*}}%in0, i64 [[L]]
func.func private @transpose(%x: tensor<4x3x2xf32>) -> tensor<2x4x3xf32> attributes {rt.kernel} {
  %0 = "rt.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<4x3x2xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// slice start [1, 2] stride [2, 3] of [6,8] -> [3,2]; reshape to [6] keeps the index:
// x[1 + 2 c0][2 + 3 c1] at (1 + 2 c0) * 8 + 2 + 3 c1.
// CHECK-LABEL: void @slice_reshape(
// CHECK: [[C1:%[0-9]+]] = urem i64 %i, 2
// CHECK-NEXT: [[C0:%[0-9]+]] = udiv i64 %i, 2
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C0]], 2
// CHECK-NEXT: [[R:%[0-9]+]] = add i64 [[T]], 1
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C1]], 3
// CHECK-NEXT: [[K:%[0-9]+]] = add i64 [[T]], 2
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[R]], 8
// CHECK-NEXT: [[L:%[0-9]+]] = add i64 [[K]], [[T]]
// CHECK-NEXT: getelementptr i64, ptr {{.*}}%in0, i64 [[L]]
func.func private @slice_reshape(%x: tensor<6x8xi64>) -> tensor<6xi64> attributes {rt.kernel} {
  %0 = "rt.slice"(%x) {start = array<i64: 1, 2>, limit = array<i64: 6, 8>, stride = array<i64: 2, 3>} : (tensor<6x8xi64>) -> tensor<3x2xi64>
  %1 = "rt.reshape"(%0) : (tensor<3x2xi64>) -> tensor<6xi64>
  return %1 : tensor<6xi64>
}

// concat [2,3] ++ [2,5] on dim 1: x[c0][clamp(c1, 0, 2)] or y[c0][clamp(c1 - 3, 0, 4)],
// the second when c1 >= 3; iota on dim 1 is c1 truncated to i32.
// CHECK-LABEL: void @concat_iota(
// CHECK: [[C1:%[0-9]+]] = urem i64 %i, 8
// CHECK-NEXT: [[C0:%[0-9]+]] = udiv i64 %i, 8
// CHECK-NEXT: [[LO:%[0-9]+]] = call i64 @llvm.smax.i64(i64 [[C1]], i64 0)
// CHECK-NEXT: [[K:%[0-9]+]] = call i64 @llvm.smin.i64(i64 [[LO]], i64 2)
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C0]], 3
// CHECK-NEXT: [[L:%[0-9]+]] = add i64 [[K]], [[T]]
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr i32, ptr {{.*}}%in0, i64 [[L]]
// CHECK-NEXT: [[X:%[0-9]+]] = load i32, ptr {{.*}}[[P]]
// CHECK-NEXT: [[D:%[0-9]+]] = sub i64 [[C1]], 3
// CHECK-NEXT: [[LO:%[0-9]+]] = call i64 @llvm.smax.i64(i64 [[D]], i64 0)
// CHECK-NEXT: [[K:%[0-9]+]] = call i64 @llvm.smin.i64(i64 [[LO]], i64 4)
// CHECK-NEXT: [[T:%[0-9]+]] = mul i64 [[C0]], 5
// CHECK-NEXT: [[L:%[0-9]+]] = add i64 [[K]], [[T]]
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr i32, ptr {{.*}}%in1, i64 [[L]]
// CHECK-NEXT: [[Y:%[0-9]+]] = load i32, ptr {{.*}}[[P]]
// CHECK-NEXT: [[IN:%[0-9]+]] = icmp sge i64 [[C1]], 3
// CHECK-NEXT: [[V:%[0-9]+]] = select i1 [[IN]], i32 [[Y]], i32 [[X]]
// CHECK-NEXT: [[J:%[0-9]+]] = urem i64 %i, 8
// CHECK-NEXT: udiv i64 %i, 8
// CHECK-NEXT: [[IOTA:%[0-9]+]] = trunc i64 [[J]] to i32
// CHECK-NEXT: add i32 [[V]], [[IOTA]]
func.func private @concat_iota(%x: tensor<2x3xi32>, %y: tensor<2x5xi32>) -> tensor<2x8xi32> attributes {rt.kernel} {
  %0 = "rt.concat"(%x, %y) {dim = 1 : i64} : (tensor<2x3xi32>, tensor<2x5xi32>) -> tensor<2x8xi32>
  %1 = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x8xi32>
  %2 = "rt.add"(%0, %1) : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
  return %2 : tensor<2x8xi32>
}

// A 0-d tensor is element 0 whatever the index.
// CHECK-LABEL: void @scalar_tensor(
// CHECK: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%in0, i64 0
// CHECK-NEXT: [[S:%[0-9]+]] = load float, ptr {{.*}}[[P]]
// CHECK: fmul float {{%[0-9]+}}, [[S]]
func.func private @scalar_tensor(%s: tensor<f32>, %x: tensor<5xf32>) -> tensor<5xf32> attributes {rt.kernel} {
  %0 = "rt.broadcast"(%s) {dims = array<i64>} : (tensor<f32>) -> tensor<5xf32>
  %1 = "rt.mul"(%x, %0) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
