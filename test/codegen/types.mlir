// Element types: f64 computes in double; f16/bf16 are loaded as i16, widened exactly,
// computed in f32 and rounded to nearest even after each op (remat.f32.to.f16 /
// remat.f32.to.bf16, bit-identical to lib/numeric/half.c); a rounded value is stored as its bits.
// i1 is a byte 0/1; i8/i32/i64 are native. Integers: signed max/min/compare, wrapping
// arithmetic, division toward zero without UB (x/0 = 0, MIN/-1 = MIN), i1 unsigned.
// RUN: remat-translate --emit=llvm -O0 %s | FileCheck %s --check-prefixes=CHECK,NV
// RUN: remat-translate --emit=llvm --target=host -O0 %s | FileCheck %s --check-prefixes=CHECK,HOST

// NV-LABEL: define ptx_kernel void @f64_ops(ptr addrspace(1) %in0, double %in1,
// HOST-LABEL: define void @f64_ops(ptr %in0, double %in1,
// CHECK: [[A:%[0-9]+]] = load double
// CHECK-NEXT: [[M:%[0-9]+]] = fmul double [[A]], %in1
// NV-NEXT: [[E:%[0-9]+]] = call double @__nv_exp(double [[M]])
// HOST-NEXT: [[E:%[0-9]+]] = call double @exp(double [[M]])
// CHECK: store double [[E]]
// CHECK-NEXT: [[F:%[0-9]+]] = fptrunc double [[E]] to float
// CHECK: store float [[F]]
func.func private @f64_ops(%a: tensor<4xf64>, %s: f64) -> (tensor<4xf64>, tensor<4xf32>) attributes {rt.kernel} {
  %0 = "rt.mul"(%a, %s) : (tensor<4xf64>, f64) -> tensor<4xf64>
  %1 = "rt.exp"(%0) : (tensor<4xf64>) -> tensor<4xf64>
  %2 = "rt.convert"(%1) : (tensor<4xf64>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf64>, tensor<4xf32>
}

// CHECK-LABEL: void @half_ops(
// CHECK: [[H:%[0-9]+]] = load i16
// CHECK-NEXT: [[A:%[0-9]+]] = call float @remat.f16.to.f32(i16 [[H]])
// CHECK-NEXT: [[S:%[0-9]+]] = fadd float [[A]], [[A]]
// CHECK-NEXT: [[R:%[0-9]+]] = call i16 @remat.f32.to.f16(float [[S]])
// CHECK-NEXT: call float @remat.f16.to.f32(i16 [[R]])
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr i16, ptr {{.*}}%out0, i64 %i
// CHECK-NEXT: store i16 [[R]], ptr {{.*}}[[P]], align 2
// CHECK: [[H:%[0-9]+]] = load i16
// CHECK-NEXT: [[B:%[0-9]+]] = call float @remat.bf16.to.f32(i16 [[H]])
// CHECK-NEXT: [[N:%[0-9]+]] = fneg float [[B]]
// CHECK-NEXT: [[R:%[0-9]+]] = call i16 @remat.f32.to.bf16(float [[N]])
// CHECK-NEXT: call float @remat.bf16.to.f32(i16 [[R]])
// CHECK-NEXT: [[P:%[0-9]+]] = getelementptr i16, ptr {{.*}}%out1, i64 %i
// CHECK-NEXT: store i16 [[R]], ptr {{.*}}[[P]], align 2
// The f16 rounding: rebias, round to nearest even on the 13 dropped bits, subnormals by
// a variable shift, NaN kept quiet.
// CHECK-LABEL: define internal float @remat.f16.to.f32(i16 %0)
// CHECK: fmul float {{%[0-9]+}}, 0x3E70000000000000
// CHECK: ret float
// CHECK-LABEL: define internal i16 @remat.f32.to.f16(float %0)
// CHECK-DAG: and i32 {{%[0-9]+}}, 8191
// CHECK-DAG: icmp ugt i32 {{%[0-9]+}}, 4096
// CHECK-DAG: icmp eq i32 {{%[0-9]+}}, 4096
// CHECK-DAG: or i32 {{%[0-9]+}}, 32256
// CHECK: ret i16
// CHECK-LABEL: define internal i16 @remat.f32.to.bf16(float %0)
// CHECK-DAG: icmp ugt i32 {{%[0-9]+}}, 2139095040
// CHECK-DAG: and i32 {{%[0-9]+}}, 65535
// CHECK: ret i16
func.func private @half_ops(%a: tensor<4xf16>, %b: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) attributes {rt.kernel} {
  %0 = "rt.add"(%a, %a) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %1 = "rt.neg"(%b) : (tensor<4xbf16>) -> tensor<4xbf16>
  return %0, %1 : tensor<4xf16>, tensor<4xbf16>
}

// CHECK-LABEL: void @int_ops(
// CHECK: [[A:%[0-9]+]] = load i8
// CHECK-NEXT: call i8 @llvm.smax.i8(i8 [[A]], i8 [[A]])
// CHECK: [[B:%[0-9]+]] = load i32
// CHECK-NEXT: sub i32 [[B]], %in3
// CHECK: [[C:%[0-9]+]] = load i64
// CHECK-NEXT: [[Z:%[0-9]+]] = icmp eq i64 [[C]], 0
// CHECK-NEXT: [[M1:%[0-9]+]] = icmp eq i64 [[C]], -1
// CHECK-NEXT: [[BAD:%[0-9]+]] = or i1 [[Z]], [[M1]]
// CHECK-NEXT: [[D:%[0-9]+]] = select i1 [[BAD]], i64 1, i64 [[C]]
// CHECK-NEXT: [[Q:%[0-9]+]] = sdiv i64 [[C]], [[D]]
// CHECK-NEXT: [[NEG:%[0-9]+]] = sub i64 0, [[C]]
// CHECK-NEXT: [[Q2:%[0-9]+]] = select i1 [[M1]], i64 [[NEG]], i64 [[Q]]
// CHECK-NEXT: select i1 [[Z]], i64 0, i64 [[Q2]]
// CHECK: call i64 @llvm.abs.i64(i64 [[C]], i1 false)
// CHECK: call i32 @remat.ipow.i32(i32 [[B]], i32 [[B]])
// CHECK-LABEL: define internal i32 @remat.ipow.i32(i32 %0, i32 %1)
func.func private @int_ops(%a: tensor<4xi8>, %b: tensor<4xi32>, %c: tensor<4xi64>, %s: i32) -> (tensor<4xi8>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi32>) attributes {rt.kernel} {
  %0 = "rt.max"(%a, %a) : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %1 = "rt.sub"(%b, %s) : (tensor<4xi32>, i32) -> tensor<4xi32>
  %2 = "rt.div"(%c, %c) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %3 = "rt.abs"(%c) : (tensor<4xi64>) -> tensor<4xi64>
  %4 = "rt.pow"(%b, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi8>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi32>
}

// CHECK-LABEL: void @bool_ops(
// CHECK: [[A:%[0-9]+]] = icmp ne i8 {{%[0-9]+}}, 0
// CHECK: [[B:%[0-9]+]] = icmp ne i8 {{%[0-9]+}}, 0
// CHECK-NEXT: [[S:%[0-9]+]] = add i1 [[A]], [[B]]
// CHECK-NEXT: zext i1 [[S]] to i8
// CHECK: call i1 @llvm.umax.i1(i1 [[A]], i1 [[B]])
// CHECK: call i1 @llvm.umin.i1(i1 [[A]], i1 [[B]])
func.func private @bool_ops(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) attributes {rt.kernel} {
  %0 = "rt.add"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = "rt.max"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = "rt.min"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// rt.convert: float -> int saturates toward zero (NaN -> 0), float -> i1 is `!= 0`
// (NaN true), int -> float signed, i1 -> anything as 0/1, int -> int sign-extends.
// CHECK-LABEL: void @converts(
// CHECK: [[F:%[0-9]+]] = load float
// CHECK-NEXT: call i32 @llvm.fptosi.sat.i32.f32(float [[F]])
// CHECK: fcmp une float [[F]], 0.000000e+00
// CHECK: [[I:%[0-9]+]] = load i32
// CHECK-NEXT: sitofp i32 [[I]] to double
// CHECK: sext i32 [[I]] to i64
// CHECK: [[B:%[0-9]+]] = icmp ne i8 {{%[0-9]+}}, 0
// CHECK-NEXT: [[BF:%[0-9]+]] = uitofp i1 [[B]] to float
// CHECK-NEXT: call i16 @remat.f32.to.f16(float [[BF]])
// CHECK: zext i1 [[B]] to i8
func.func private @converts(%f: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xf64>, tensor<4xi64>, tensor<4xf16>, tensor<4xi8>) attributes {rt.kernel} {
  %0 = "rt.convert"(%f) : (tensor<4xf32>) -> tensor<4xi32>
  %1 = "rt.convert"(%f) : (tensor<4xf32>) -> tensor<4xi1>
  %2 = "rt.convert"(%i) : (tensor<4xi32>) -> tensor<4xf64>
  %3 = "rt.convert"(%i) : (tensor<4xi32>) -> tensor<4xi64>
  %4 = "rt.convert"(%b) : (tensor<4xi1>) -> tensor<4xf16>
  %5 = "rt.convert"(%b) : (tensor<4xi1>) -> tensor<4xi8>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xi1>, tensor<4xf64>, tensor<4xi64>, tensor<4xf16>, tensor<4xi8>
}

// A philox uniform in bf16: the f32 value rounded; one rounding to hi becomes lo.
// CHECK-LABEL: void @uniform_bf16(
// CHECK: [[V:%[0-9]+]] = call float @llvm.fma.f32(float %u, float 1.000000e+00, float 1.000000e+00)
// CHECK-NEXT: [[R:%[0-9]+]] = call i16 @remat.f32.to.bf16(float [[V]])
// CHECK-NEXT: [[W:%[0-9]+]] = call float @remat.bf16.to.f32(i16 [[R]])
// CHECK-NEXT: [[HI:%[0-9]+]] = fcmp oeq float [[W]], 2.000000e+00
// CHECK-NEXT: select i1 [[HI]], float 1.000000e+00, float [[W]]
func.func private @uniform_bf16(%seed: i64, %offset: i64) -> tensor<16xbf16> attributes {rt.kernel} {
  %0 = "rt.uniform_philox"(%seed, %offset) {lo = 1.0 : f64, hi = 2.0 : f64} : (i64, i64) -> tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// Scalars: an f32 scalar with an f16 tensor is not rounded to f16 first (the op runs in
// f32); an integer scalar of another width than the tensor's runs the op in i64 and
// wraps the result to the element width.
// CHECK-LABEL: void @mixed_scalars(
// CHECK: [[H:%[0-9]+]] = call float @remat.f16.to.f32(i16
// CHECK-NEXT: [[P:%[0-9]+]] = fmul float [[H]], %in1
// CHECK-NEXT: call i16 @remat.f32.to.f16(float [[P]])
// CHECK: [[X:%[0-9]+]] = load i32
// CHECK-NEXT: [[X64:%[0-9]+]] = sext i32 [[X]] to i64
// CHECK: [[Q:%[0-9]+]] = sdiv i64 [[X64]], {{%[0-9]+}}
// CHECK: [[R:%[0-9]+]] = select i1 {{%[0-9]+}}, i64 0, i64
// CHECK-NEXT: trunc i64 [[R]] to i32
// CHECK: [[C:%[0-9]+]] = icmp ne i8 %in4, 0
// CHECK-NEXT: [[C64:%[0-9]+]] = zext i1 [[C]] to i64
// CHECK-NEXT: [[S:%[0-9]+]] = add i64 {{%[0-9]+}}, [[C64]]
// CHECK-NEXT: trunc i64 [[S]] to i32
func.func private @mixed_scalars(%h: tensor<4xf16>, %s: f32, %x: tensor<4xi32>, %n: i64, %c: i1) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xi32>) attributes {rt.kernel} {
  %0 = "rt.mul"(%h, %s) : (tensor<4xf16>, f32) -> tensor<4xf16>
  %1 = "rt.div"(%x, %n) : (tensor<4xi32>, i64) -> tensor<4xi32>
  %2 = "rt.add"(%x, %c) : (tensor<4xi32>, i1) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xi32>, tensor<4xi32>
}
