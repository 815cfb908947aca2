// rt.mish, added through the checklist of docs/design.md ("Adding an op"): an RT_EW row of
// three libm calls, mish(x) = x * tanh(log1p(exp(x))) (PyTorch's CPU kernel's scalar
// formula, no threshold: exp overflows to inf and tanh(inf) = 1). Its functions are the
// rows of rt.exp, rt.log1p and rt.tanh: expf, log1pf and tanhf on the host, __nv_expf,
// __nv_log1pf and __nv_tanhf on nvptx64. The interpreter's values equal torch 1.13's
// F.mish bit for bit where torch takes its scalar loop (f64; f32 elements past a multiple
// of the vector width); its vectorised loop (Sleef) differs in the last places (at
// -2.9999998: -0.145647481, here -0.145647466). f16 is f32 rounded once. Compiled code
// gives the same bits after fusion; its VJP (torch's mish_backward decomposition) agrees
// with finite differences. The verifier's rule: test/verify/invalid-elementwise.mlir;
// every element type: test/unit/codegen_interp_test; the importer's mapping:
// test/ops/hard-import.test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.mish"(%{{.*}}) : (tensor<20xf32>) -> tensor<20xf32>
//
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=NV
// RUN: remat-translate --emit=llvm --target=host -O0 %t.fused.mlir | FileCheck %s --check-prefix=HOST
// NV-LABEL: void @values_k0(
// NV: %[[E:[0-9]+]] = call float @__nv_expf(float %[[X:[0-9]+]])
// NV: %[[L:[0-9]+]] = call float @__nv_log1pf(float %[[E]])
// NV: %[[T:[0-9]+]] = call float @__nv_tanhf(float %[[L]])
// NV: fmul float %[[X]], %[[T]]
// NV: call double @__nv_tanh(double
// HOST-LABEL: void @values_k0(
// HOST: call float @expf(float
// HOST: call float @log1pf(float
// HOST: call float @tanhf(float
// HOST: call double @tanh(double
//
// -inf gives NaN (-inf * tanh(0)); -100 a subnormal (torch's scalar loop: -3.78350585e-42).
// RUN: printf 'tensor<20xf32> nan inf -inf -0 0 -3 3 6 -6 1e-40 -1e-40 2.9999998 -2.9999998 3.0000002 5.9999995 6.0000005 -100 100 20 -20\ntensor<4xf64> -3 3 2.9999999999999996 -1e-310\ntensor<5xf16> -3 3 5.996 -2.998 6e-8\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full --reference | FileCheck %s --check-prefix=VAL
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<20xf32>
// VAL-SAME: nan inf {{-?}}nan -0 0 -0.145647466 2.98653507 5.99992657 -0.014854081 5.99993963e-41 -5.99993963e-41 2.98653483 -0.145647466 2.98653507 5.99992609 5.99992704 -3.78350585e-42 100 20 -4.12230747e-08
// VAL-LABEL: result #1: tensor<4xf64>
// VAL-SAME: -0.14564746127562461 2.9865350049679575 2.9865350049679571 -6.0000000000001793e-311
// VAL-LABEL: result #2: tensor<5xf16>
// VAL-SAME: -0.145629883 2.98632812 5.99609375 -0.145874023 5.96046448e-08
//
// RUN: remat-run %t.fused.mlir --check-compiled values --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJP, torch's mish_backward decomposition: g * (t + x * sigmoid(x) * (1 - t * t)),
// t = tanh(softplus(x)).
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @mi(
// VJP: %[[SP:.*]] = "rt.softplus"
// VJP: "rt.tanh"(%[[SP]])
// RUN: remat-run %t.ad.mlir --check-fd mi --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<20xf32>, %y: tensor<4xf64>, %h: tensor<5xf16>) -> (tensor<20xf32>, tensor<4xf64>, tensor<5xf16>) {
  %a = "rt.mish"(%x) : (tensor<20xf32>) -> tensor<20xf32>
  %b = "rt.mish"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  %c = "rt.mish"(%h) : (tensor<5xf16>) -> tensor<5xf16>
  return %a, %b, %c : tensor<20xf32>, tensor<4xf64>, tensor<5xf16>
}

func.func @mi(%x: tensor<16xf64>) -> tensor<16xf64> attributes {rt.autodiff} {
  %s = arith.constant 30.0 : f64
  %xs = "rt.mul"(%x, %s) : (tensor<16xf64>, f64) -> tensor<16xf64>
  %y = "rt.mish"(%xs) : (tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}
