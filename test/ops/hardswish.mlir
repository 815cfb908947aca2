// rt.hardswish, added through the checklist of docs/design.md ("Adding an op"): an RT_EW
// row, hardswish(x) = x * clamp(x + 3, 0, 6) / 6 in that order, as PyTorch's CPU kernel
// computes it (RT_HARD_OFFSET, RT_HARD_CAP); the clamp is torch's (NaN stays NaN, -0
// stays -0). Here: it parses and prints back; the codegen's add, two selects, multiply
// and division; the interpreter's values (torch 1.13's F.hardswish gives the same bits on
// every one of them: f32 and f64; f16, which torch's CPU kernel lacks, is f32 rounded
// once), across the kinks at -3 and 3, with special values; compiled code gives the same
// bits after fusion; its VJP (torch's hardswish_backward) against finite differences. The
// verifier's rule (float only): test/verify/invalid-elementwise.mlir; every element type
// against the interpreter: test/unit/codegen_interp_test; the importer's mapping:
// test/ops/hard-import.test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.hardswish"(%{{.*}}) : (tensor<20xf32>) -> tensor<20xf32>
// IR: "rt.hardswish"(%{{.*}}) : (tensor<4xf64>) -> tensor<4xf64>
//
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=NV
// NV-LABEL: void @values_k0(
// NV: %[[S:[0-9]+]] = fadd float %[[X:[0-9]+]], 3.000000e+00
// NV: fcmp ogt float %[[S]], 6.000000e+00
// NV: fcmp olt float %[[S]], 0.000000e+00
// NV: %[[C:[0-9]+]] = select i1
// NV: %[[P:[0-9]+]] = fmul float %[[X]], %[[C]]
// NV: fdiv float %[[P]], 6.000000e+00
//
// -inf gives NaN (-inf * 0), as torch's; -3 and -100 give -0; 1e-40 (a subnormal) x / 2.
// RUN: printf 'tensor<20xf32> nan inf -inf -0 0 -3 3 6 -6 1e-40 -1e-40 2.9999998 -2.9999998 3.0000002 5.9999995 6.0000005 -100 100 20 -20\ntensor<4xf64> -3 3 2.9999999999999996 -1e-310\ntensor<5xf16> -3 3 5.996 -2.998 6e-8\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full --reference | FileCheck %s --check-prefix=VAL
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<20xf32>
// VAL-SAME: nan inf {{-?}}nan -0 0 -0 3 6 -0 4.99997305e-41 -4.99997305e-41 2.99999976 -1.19209282e-07 3.00000024 5.99999952 6.00000048 -0 100 20 -0
// VAL-LABEL: result #1: tensor<4xf64>
// VAL-SAME: -0 3 2.9999999999999996 -5.0000000000002318e-311
// VAL-LABEL: result #2: tensor<5xf16>
// VAL-SAME: -0 3 5.99609375 -0.000976085663 0
//
// Compiled against the reference on every finite magnitude and on special values:
// RUN: remat-run %t.fused.mlir --check-compiled values --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJP, torch's hardswish_backward: 0 below -3, g * (x / 3 + 0.5) up to 3, g above;
// against central differences (inputs scaled across both kinks).
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @hs(
// VJP: "rt.lt"
// VJP: "rt.le"
// VJP: "rt.div"
// VJP: "rt.select"
// VJP: "rt.select"
// RUN: remat-run %t.ad.mlir --check-fd hs --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<20xf32>, %y: tensor<4xf64>, %h: tensor<5xf16>) -> (tensor<20xf32>, tensor<4xf64>, tensor<5xf16>) {
  %a = "rt.hardswish"(%x) : (tensor<20xf32>) -> tensor<20xf32>
  %b = "rt.hardswish"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  %c = "rt.hardswish"(%h) : (tensor<5xf16>) -> tensor<5xf16>
  return %a, %b, %c : tensor<20xf32>, tensor<4xf64>, tensor<5xf16>
}

func.func @hs(%x: tensor<16xf64>) -> tensor<16xf64> attributes {rt.autodiff} {
  %s = arith.constant 5.0 : f64
  %xs = "rt.mul"(%x, %s) : (tensor<16xf64>, f64) -> tensor<16xf64>
  %y = "rt.hardswish"(%xs) : (tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}
