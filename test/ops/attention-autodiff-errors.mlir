// --remat-autodiff on the attention ops (docs/design.md, "Attention"), refused at the op: a
// logsumexp that would have a gradient, an additive mask that depends on a differentiated
// argument, a differentiated rt.attention_grad.
// RUN: split-file --leading-lines %s %t
// RUN: not remat-opt --remat-autodiff %t/lse.mlir 2>&1 | FileCheck %s --check-prefix=LSE
// RUN: not remat-opt --remat-autodiff %t/lse-use.mlir 2>&1 | FileCheck %s --check-prefix=LSEUSE
// RUN: not remat-opt --remat-autodiff %t/mask.mlir 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: not remat-opt --remat-autodiff %t/second.mlir 2>&1 | FileCheck %s --check-prefix=SECOND

//--- lse.mlir
// LSE: lse.mlir:[[@LINE+2]]:{{[0-9]+}}: error: the logsumexp of 'rt.attention' would have a gradient (a result of the function or a differentiated use): --remat-autodiff differentiates only the output
func.func @f(%q: tensor<1x2x2xf32>, %k: tensor<1x3x2xf32>, %v: tensor<1x3x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>) attributes {rt.autodiff} {
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>)
  return %a#0, %a#1 : tensor<1x2x2xf32>, tensor<1x2xf32>
}
//--- lse-use.mlir
// LSEUSE: lse-use.mlir:[[@LINE+2]]:{{[0-9]+}}: error: the logsumexp of 'rt.attention' would have a gradient
func.func @f(%q: tensor<1x2x2xf32>, %k: tensor<1x3x2xf32>, %v: tensor<1x3x2xf32>) -> tensor<1x2xf32> attributes {rt.autodiff} {
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>)
  %e = "rt.exp"(%a#1) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %e : tensor<1x2xf32>
}
//--- mask.mlir
// MASK: mask.mlir:[[@LINE+2]]:{{[0-9]+}}: error: the additive mask of 'rt.attention' depends on a differentiated argument: --remat-autodiff differentiates q, k and v only
func.func @f(%q: tensor<1x2x2xf32>, %k: tensor<1x3x2xf32>, %v: tensor<1x3x2xf32>, %m: tensor<2x3xf32>) -> tensor<1x2x2xf32> attributes {rt.autodiff} {
  %a:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64, mask = "add"} : (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<2x3xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>)
  return %a#0 : tensor<1x2x2xf32>
}
//--- second.mlir
// SECOND: second.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'rt.attention_grad' is not differentiable by --remat-autodiff (no second derivative of attention)
func.func @f(%q: tensor<1x2x2xf32>, %k: tensor<1x3x2xf32>, %v: tensor<1x3x2xf32>, %o: tensor<1x2x2xf32>, %l: tensor<1x2xf32>) -> tensor<1x2x2xf32> attributes {rt.autodiff = {wrt = [0]}} {
  %g:3 = "rt.attention_grad"(%q, %k, %v, %o, %l, %o) {scale = 1.0 : f64} : (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1x2xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>)
  return %g#0 : tensor<1x2x2xf32>
}
