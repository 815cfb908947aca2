// rt.softplus, added through the checklist of docs/design.md ("Adding an op"): an RT_EW
// row built from two libm calls, softplus(x) = x > 20 ? x : log1p(exp(x)) (PyTorch's
// softplus, beta 1, threshold 20: RT_SOFTPLUS_THRESHOLD). Here: it parses and prints
// back; the codegen calls exp's and log1p's functions (the rows of rt.exp and rt.log1p:
// expf and log1pf on the host, __nv_expf and __nv_log1pf on nvptx64) and selects x above
// the threshold; the interpreter's values, with the guard's edges, special values, f64
// and f16; compiled code gives the same bits after fusion; its VJP (--remat-autodiff)
// agrees with finite differences. The verifier's rule (float only) is tested in
// test/verify/invalid-elementwise.mlir, the PTX in test/ops/table-ptx.test, every element
// type against the interpreter in test/unit/codegen_interp_test, the importer's mapping
// in test/ops/softplus-import.test.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.softplus"(%{{.*}}) : (tensor<12xf32>) -> tensor<12xf32>
// IR: "rt.softplus"(%{{.*}}) : (tensor<4xf64>) -> tensor<4xf64>
//
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-translate --emit=llvm -O0 %t.fused.mlir | FileCheck %s --check-prefix=NV
// RUN: remat-translate --emit=llvm --target=host -O0 %t.fused.mlir | FileCheck %s --check-prefix=HOST
// NV-LABEL: void @values_k0(
// NV: fcmp ogt float %[[X:[0-9]+]], 2.000000e+01
// NV: %[[E:[0-9]+]] = call float @__nv_expf(float %[[X]])
// NV: %[[L:[0-9]+]] = call float @__nv_log1pf(float %[[E]])
// NV: select i1 %{{[0-9]+}}, float %[[X]], float %[[L]]
// NV: call double @__nv_exp(double
// NV: call double @__nv_log1p(double
// HOST-LABEL: void @values_k0(
// HOST: call float @expf(float
// HOST: call float @log1pf(float
// HOST: call double @exp(double
// HOST: call double @log1p(double
//
// x = 1e-7 (f32: 1.00000001e-07) gives log(2) + x/2, 0.693147242; -100 a subnormal
// (exp(-100) = 3.7e-44); 20 is at the threshold (log1p(exp(20)) rounds to 20 in f32), just
// above it x itself; 88.8 would overflow exp: x; -inf 0; NaN stays NaN. f64: 20 is
// log1p(exp(20)) = 20 + 2.06e-9, exp(-800) underflows to 0. f16 is computed in f32 and
// rounded once.
// RUN: printf 'tensor<12xf32> 0 -0 1 -1 1e-7 -100 20 20.000002 88.8 inf -inf nan\ntensor<4xf64> 0 20 20.000000000000004 -800\ntensor<3xf16> 0 -3 19.98\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full --reference | FileCheck %s --check-prefix=VAL
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<12xf32>
// VAL-SAME: 0.693147182 0.693147182 1.31326163 0.313261688 0.693147242 3.78350585e-44 20 20.0000019 88.8000031 inf 0 nan
// VAL-LABEL: result #1: tensor<4xf64>
// VAL-SAME: 0.69314718055994529 20.000000002061153 20.000000000000004 0
// VAL-LABEL: result #2: tensor<3xf16>
// VAL-SAME: 0.693359375 0.0485839844 19.984375
//
// Compiled against the reference on every finite magnitude and on special values:
// RUN: remat-run %t.fused.mlir --check-compiled values --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled values --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJP, torch's softplus_backward: g above the threshold, else g * z / (z + 1) with
// z = exp(x), against central differences (inputs scaled across the threshold).
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @sp(
// VJP: %[[Z:.*]] = "rt.exp"
// VJP: "rt.gt"
// VJP: "rt.select"
// RUN: remat-run %t.ad.mlir --check-fd sp --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<12xf32>, %y: tensor<4xf64>, %h: tensor<3xf16>) -> (tensor<12xf32>, tensor<4xf64>, tensor<3xf16>) {
  %a = "rt.softplus"(%x) : (tensor<12xf32>) -> tensor<12xf32>
  %b = "rt.softplus"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  %c = "rt.softplus"(%h) : (tensor<3xf16>) -> tensor<3xf16>
  return %a, %b, %c : tensor<12xf32>, tensor<4xf64>, tensor<3xf16>
}

func.func @sp(%x: tensor<16xf64>) -> tensor<16xf64> attributes {rt.autodiff} {
  %s = arith.constant 30.0 : f64
  %xs = "rt.mul"(%x, %s) : (tensor<16xf64>, f64) -> tensor<16xf64>
  %y = "rt.softplus"(%xs) : (tensor<16xf64>) -> tensor<16xf64>
  return %y : tensor<16xf64>
}
