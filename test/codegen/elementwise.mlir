// Every elementwise, compare, select and full op on f32, lowered for both targets (the
// builder's IR, -O0): one LLVM instruction or call per op, stored to its result buffer.
// Transcendentals call libdevice on nvptx64 and libm on the host; max/min propagate NaN.
// RUN: remat-translate --emit=llvm -O0 %s | FileCheck %s --check-prefixes=CHECK,NV
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefixes=CHECK,HOST

// NV-LABEL: define ptx_kernel void @binary(ptr addrspace(1) %in0, ptr addrspace(1) %in1, float %in2, ptr addrspace(1) %out0,
// HOST-LABEL: define void @binary(ptr %in0, ptr %in1, float %in2, ptr %out0,
// CHECK: [[A:%[0-9]+]] = load float, ptr {{.*}}[[PA:%[0-9]+]], align 4
// CHECK: [[B:%[0-9]+]] = load float, ptr {{.*}}[[PB:%[0-9]+]], align 4
// CHECK-NEXT: [[R:%[0-9]+]] = fadd float [[A]], [[B]]
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr float, ptr {{.*}}%out0, i64 %i
// CHECK-NEXT: store float [[R]], ptr {{.*}}[[P]], align 4
// CHECK-NEXT: [[R:%[0-9]+]] = fsub float [[A]], %in2
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out1, i64 %i
// CHECK-NEXT: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = fmul float %in2, [[B]]
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out2, i64 %i
// CHECK-NEXT: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = fdiv float [[A]], [[B]]
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out3, i64 %i
// CHECK-NEXT: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = call float @llvm.maximum.f32(float [[A]], float [[B]])
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out4, i64 %i
// CHECK-NEXT: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = call float @llvm.minimum.f32(float [[A]], float [[B]])
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out5, i64 %i
// CHECK-NEXT: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_powf(float [[A]], float [[B]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @powf(float [[A]], float [[B]])
// CHECK-NEXT: getelementptr float, ptr {{.*}}%out6, i64 %i
// CHECK-NEXT: store float [[R]]
func.func private @binary(%a: tensor<8xf32>, %b: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) attributes {rt.kernel} {
  %0 = "rt.add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "rt.sub"(%a, %s) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %2 = "rt.mul"(%s, %b) : (f32, tensor<8xf32>) -> tensor<8xf32>
  %3 = "rt.div"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "rt.max"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "rt.min"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "rt.pow"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: void @unary(
// CHECK: [[A:%[0-9]+]] = load float
// CHECK-NEXT: [[R:%[0-9]+]] = fneg float [[A]]
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_expf(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @expf(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_logf(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @logf(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_tanhf(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @tanhf(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_erff(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @erff(float [[A]])
// CHECK: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = call float @llvm.sqrt.f32(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_rsqrtf(float [[A]])
// HOST-NEXT: [[S:%[0-9]+]] = call float @llvm.sqrt.f32(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = fdiv float 1.000000e+00, [[S]]
// CHECK: store float [[R]]
// CHECK-NEXT: [[R:%[0-9]+]] = call float @llvm.fabs.f32(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_sinf(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @sinf(float [[A]])
// CHECK: store float [[R]]
// NV-NEXT: [[R:%[0-9]+]] = call float @__nv_cosf(float [[A]])
// HOST-NEXT: [[R:%[0-9]+]] = call float @cosf(float [[A]])
// CHECK: store float [[R]]
func.func private @unary(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) attributes {rt.kernel} {
  %0 = "rt.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "rt.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "rt.log"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "rt.tanh"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "rt.erf"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %5 = "rt.sqrt"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "rt.rsqrt"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "rt.abs"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %8 = "rt.sin"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %9 = "rt.cos"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Compares: ordered float predicates (ne is unordered: NaN != NaN), signed integers, i1
// unsigned; the i1 result is stored as a byte. An integer scalar of another type than
// the tensor's puts the op in the i64 domain (as the reference interpreter computes).
// CHECK-LABEL: void @compare(
// CHECK: [[A:%[0-9]+]] = load float
// CHECK: [[B:%[0-9]+]] = load float
// CHECK-NEXT: [[R:%[0-9]+]] = fcmp olt float [[A]], [[B]]
// CHECK-NEXT: [[Z:%[0-9]+]] = zext i1 [[R]] to i8
// CHECK-NEXT: getelementptr i8, ptr {{.*}}%out0, i64 %i
// CHECK-NEXT: store i8 [[Z]]
// CHECK-NEXT: fcmp ole float [[A]], [[B]]
// CHECK: fcmp ogt float [[A]], [[B]]
// CHECK: fcmp oge float [[A]], [[B]]
// CHECK: fcmp oeq float [[A]], [[B]]
// CHECK: fcmp une float [[A]], [[B]]
// CHECK: [[X:%[0-9]+]] = load i32
// CHECK-NEXT: [[X64:%[0-9]+]] = sext i32 [[X]] to i64
// CHECK-NEXT: [[LT:%[0-9]+]] = icmp slt i64 [[X64]], 6
// CHECK: [[C:%[0-9]+]] = load i8
// CHECK-NEXT: [[CB:%[0-9]+]] = icmp ne i8 [[C]], 0
// CHECK-NEXT: icmp ugt i1 [[CB]], [[LT]]
func.func private @compare(%a: tensor<8xf32>, %b: tensor<8xf32>, %x: tensor<8xi32>, %c: tensor<8xi1>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) attributes {rt.kernel} {
  %0 = "rt.lt"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %1 = "rt.le"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %2 = "rt.gt"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %3 = "rt.ge"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %4 = "rt.eq"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %5 = "rt.ne"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %six = arith.constant 6 : i64
  %6 = "rt.lt"(%x, %six) : (tensor<8xi32>, i64) -> tensor<8xi1>
  %7 = "rt.gt"(%c, %6) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}

// select with tensor, scalar (f64 constant -> f32) and i1-scalar conditions (an i1
// parameter is passed as a byte); rt.full folds to a constant.
// NV-LABEL: define ptx_kernel void @select_full(ptr addrspace(1) %in0, ptr addrspace(1) %in1, i8 %in2,
// HOST-LABEL: define void @select_full(ptr %in0, ptr %in1, i8 %in2,
// CHECK: [[C:%[0-9]+]] = icmp ne i8 {{%[0-9]+}}, 0
// CHECK: [[A:%[0-9]+]] = load float
// CHECK-NEXT: [[R:%[0-9]+]] = select i1 [[C]], float [[A]], float 2.500000e+00
// CHECK: [[R:%[0-9]+]] = select i1 [[C]], float 0.000000e+00, float [[A]]
// CHECK: [[F:%[0-9]+]] = icmp ne i8 %in2, 0
// CHECK-NEXT: select i1 [[F]], float [[A]], float 2.500000e+00
func.func private @select_full(%c: tensor<8xi1>, %a: tensor<8xf32>, %flag: i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) attributes {rt.kernel} {
  %f = "rt.full"() {value = 2.5 : f32} : () -> tensor<8xf32>
  %zero = arith.constant 0.0 : f64
  %0 = "rt.select"(%c, %a, %f) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "rt.select"(%c, %zero, %a) : (tensor<8xi1>, f64, tensor<8xf32>) -> tensor<8xf32>
  %2 = "rt.select"(%flag, %a, %f) : (i1, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
