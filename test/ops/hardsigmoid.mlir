// rt.hardsigmoid, added through the checklist of docs/design.md ("Adding an op"): an RT_EW
// row, hardsigmoid(x) = clamp(x + 3, 0, 6) / 6, as PyTorch's CPU kernel computes it
// (RT_HARD_OFFSET, RT_HARD_CAP; torch's clamp: NaN stays NaN). Here: it parses and prints
// back; the codegen's add, two selects and division; the interpreter's values (torch
// 1.13's F.hardsigmoid gives the same bits on every one: f32 and f64; f16, which torch's
// CPU kernel lacks, is f32 rounded once), across the kinks at -3 and 3, with special
// values; compiled code gives the same bits after fusion; its VJP (torch's
// hardsigmoid_backward) against finite differences. The verifier's rule:
// test/verify/invalid-elementwise.mlir; every element type: test/unit/codegen_interp_test;
// the importer's mapping: test/ops/hard-import.test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.hardsigmoid"(%{{.*}}) : (tensor<20xf32>) -> tensor<20xf32>
//
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=NV
// NV-LABEL: void @values_k0(
// NV: %[[S:[0-9]+]] = fadd float %{{[0-9]+}}, 3.000000e+00
// NV: fcmp ogt float %[[S]], 6.000000e+00
// NV: fcmp olt float %[[S]], 0.000000e+00
// NV: %[[C:[0-9]+]] = select i1
// NV: fdiv float %[[C]], 6.000000e+00
//
// RUN: printf 'tensor<20xf32> nan inf -inf -0 0 -3 3 6 -6 1e-40 -1e-40 2.9999998 -2.9999998 3.0000002 5.9999995 6.0000005 -100 100 20 -20\ntensor<4xf64> -3 3 2.9999999999999996 -1e-310\ntensor<5xf16> -3 3 5.996 -2.998 6e-8\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full --reference | FileCheck %s --check-prefix=VAL
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<20xf32>
// VAL-SAME: nan 1 0 0.5 0.5 0 1 1 0 0.5 0.5 1 3.9736431e-08 1 1 1 0 1 1 0
// VAL-LABEL: result #1: tensor<4xf64>
// VAL-SAME: 0 1 1 0.5
// VAL-LABEL: result #2: tensor<5xf16>
// VAL-SAME: 0 1 1 0.00032544136 0.5
//
// RUN: remat-run %t.fused.mlir --check-compiled values --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJP, torch's hardsigmoid_backward: g * (1/6) strictly between -3 and 3, else 0.
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @hsig(
// VJP: arith.constant 0.16666666666666666 : f64
// VJP: "rt.lt"
// VJP: "rt.gt"
// RUN: remat-run %t.ad.mlir --check-fd hsig --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<20xf32>, %y: tensor<4xf64>, %h: tensor<5xf16>) -> (tensor<20xf32>, tensor<4xf64>, tensor<5xf16>) {
  %a = "rt.hardsigmoid"(%x) : (tensor<20xf32>) -> tensor<20xf32>
  %b = "rt.hardsigmoid"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  %c = "rt.hardsigmoid"(%h) : (tensor<5xf16>) -> tensor<5xf16>
  return %a, %b, %c : tensor<20xf32>, tensor<4xf64>, tensor<5xf16>
}

func.func @hsig(%x: tensor<16xf64>) -> tensor<16xf64> attributes {rt.autodiff} {
  %s = arith.constant 5.0 : f64
  %xs = "rt.mul"(%x, %s) : (tensor<16xf64>, f64) -> tensor<16xf64>
  %y = "rt.hardsigmoid"(%xs) : (tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}
