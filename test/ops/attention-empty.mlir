// rt.attention and rt.attention_grad on empty sizes (docs/design.md, "Attention"): no key
// (Sk = 0) leaves every row without a key: o is NaN (0/0, as softmax over nothing), lse
// -inf, dq 0; no batch (N = 0) computes nothing. On the reference and compiled.
// RUN: remat-run %s --fn e --reference --print=full | FileCheck %s
// RUN: remat-run %s --fn e --print=full | FileCheck %s
// CHECK-LABEL: result #0: tensor<2x3x2xf32>
// CHECK-COUNT-6: {{^  -?nan -?nan$}}
// CHECK-LABEL: result #1: tensor<2x3xf32>
// CHECK-NEXT: {{^  -inf -inf -inf$}}
// CHECK-LABEL: result #2: tensor<2x3x2xf32>
// CHECK-COUNT-6: {{^  0 0$}}
// CHECK-LABEL: result #3: tensor<2x0x2xf32>
// RUN: remat-run %s --fn n0 --reference | FileCheck %s --check-prefix=N0
// N0: result #0: tensor<0x3x2xf32> sum=0
// N0: result #1: tensor<0x4x2xf32> sum=0
func.func @e(%q: tensor<2x3x2xf32>, %k: tensor<2x0x2xf32>, %v: tensor<2x0x2xf32>, %do: tensor<2x3x2xf32>) -> (tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3x2xf32>, tensor<2x0x2xf32>) {
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x2xf32>) -> (tensor<2x3x2xf32>, tensor<2x3xf32>)
  %g:3 = "rt.attention_grad"(%q, %k, %v, %a#0, %a#1, %do) {scale = 1.0 : f64} : (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x2xf32>, tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3x2xf32>) -> (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x2xf32>)
  return %a#0, %a#1, %g#0, %g#1 : tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3x2xf32>, tensor<2x0x2xf32>
}
func.func @n0(%q: tensor<0x3x2xf32>, %k: tensor<0x4x2xf32>, %v: tensor<0x4x2xf32>, %do: tensor<0x3x2xf32>) -> (tensor<0x3x2xf32>, tensor<0x4x2xf32>) {
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<0x3x2xf32>, tensor<0x4x2xf32>, tensor<0x4x2xf32>) -> (tensor<0x3x2xf32>, tensor<0x3xf32>)
  %g:3 = "rt.attention_grad"(%q, %k, %v, %a#0, %a#1, %do) {scale = 1.0 : f64} : (tensor<0x3x2xf32>, tensor<0x4x2xf32>, tensor<0x4x2xf32>, tensor<0x3x2xf32>, tensor<0x3xf32>, tensor<0x3x2xf32>) -> (tensor<0x3x2xf32>, tensor<0x4x2xf32>, tensor<0x4x2xf32>)
  return %a#0, %g#1 : tensor<0x3x2xf32>, tensor<0x4x2xf32>
}
