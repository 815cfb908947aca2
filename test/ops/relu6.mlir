// rt.relu6, added through the checklist of docs/design.md ("Adding an op"): an RT_EW row,
// relu6(x) = clamp(x, 0, 6) as PyTorch's clamp computes it (F.relu6 is hardtanh(x, 0, 6),
// a clamp): NaN stays NaN and -0 stays -0 (where rt.max(x, 0) gives +0). Here: it parses
// and prints back; the codegen's two selects; the interpreter's values (torch 1.13's
// F.relu6 gives the same bits on every one: f32 and f64; f16, which torch's CPU clamp
// lacks, is f32 rounded once), at the kinks 0 and 6, with special values; compiled code
// gives the same bits after fusion; its VJP (torch's hardtanh_backward: 0 at x <= 0 and
// x >= 6) against finite differences. The verifier's rule:
// test/verify/invalid-elementwise.mlir; every element type: test/unit/codegen_interp_test;
// the importer's mapping (aten.hardtanh with 0 and 6): test/ops/hard-import.test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.relu6"(%{{.*}}) : (tensor<20xf32>) -> tensor<20xf32>
//
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=NV
// NV-LABEL: void @values_k0(
// NV: fcmp ogt float %[[X:[0-9]+]], 6.000000e+00
// NV: fcmp olt float %[[X]], 0.000000e+00
//
// RUN: printf 'tensor<20xf32> nan inf -inf -0 0 -3 3 6 -6 1e-40 -1e-40 2.9999998 -2.9999998 3.0000002 5.9999995 6.0000005 -100 100 20 -20\ntensor<4xf64> -3 3 2.9999999999999996 -1e-310\ntensor<5xf16> -3 3 5.996 -2.998 6e-8\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full --reference | FileCheck %s --check-prefix=VAL
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<20xf32>
// VAL-SAME: nan 6 0 -0 0 0 3 6 0 9.9999461e-41 0 2.99999976 0 3.00000024 5.99999952 6 0 6 6 0
// VAL-LABEL: result #1: tensor<4xf64>
// VAL-SAME: 0 3 2.9999999999999996 0
// VAL-LABEL: result #2: tensor<5xf16>
// VAL-SAME: 0 3 5.99609375 0 5.96046448e-08
//
// RUN: remat-run %t.fused.mlir --check-compiled values --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJP, torch's hardtanh_backward at 0 and 6: x <= 0 or x >= 6 ? 0 : g.
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @r6(
// VJP: "rt.ge"
// VJP: "rt.le"
// RUN: remat-run %t.ad.mlir --check-fd r6 --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<20xf32>, %y: tensor<4xf64>, %h: tensor<5xf16>) -> (tensor<20xf32>, tensor<4xf64>, tensor<5xf16>) {
  %a = "rt.relu6"(%x) : (tensor<20xf32>) -> tensor<20xf32>
  %b = "rt.relu6"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  %c = "rt.relu6"(%h) : (tensor<5xf16>) -> tensor<5xf16>
  return %a, %b, %c : tensor<20xf32>, tensor<4xf64>, tensor<5xf16>
}

func.func @r6(%x: tensor<16xf64>) -> tensor<16xf64> attributes {rt.autodiff} {
  %s = arith.constant 8.0 : f64
  %xs = "rt.mul"(%x, %s) : (tensor<16xf64>, f64) -> tensor<16xf64>
  %y = "rt.relu6"(%xs) : (tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}
