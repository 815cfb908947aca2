// rt.conv, rt.conv_grad_input and rt.conv_grad_weight (docs/design.md, "Convolution"):
// each element is a sequential sum from +0 of rounded products, in (channel, kernel
// position) order for rt.conv and (batch, output position) for the weight gradient, the
// input gradient in kernel position order of sums over the output channels; a position
// in the padding reads 0, so an infinite weight there gives NaN, as torch's convolution
// does. Here: the IR
// round trip; values computed by hand (1-d: x = 1 2 3 4, w = 1 10 100, padding 1; stride
// 2 with dilation 2); the padding rule on inf; f16 (f32 accumulation rounded once);
// compiled == reference (a host op of the fusion, the runtime's kernel); the VJPs against
// central differences, second order included (each op's VJP is another conv op). Against
// torch in 1-3 spatial dims, with groups, and bit for bit against the order written
// down: test/ops/conv-torch.test. The verifier's cases: test/verify/invalid-conv.mlir.
//
// RUN: remat-opt %s | remat-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @values
// IR: "rt.conv"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1>, groups = 1 : i64, padding = array<i64: 1>, stride = array<i64: 1>} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x4xf32>
// IR: "rt.conv_grad_input"
// IR: "rt.conv_grad_weight"
//
// RUN: printf 'tensor<1x1x4xf32> 1 2 3 4\ntensor<1x1x3xf32> 1 10 100\ntensor<1x1x3xf32> inf 10 100\ntensor<1x1x4xf32> 1 1 1 1\ntensor<1x1x7xf32> 1 2 3 4 5 6 7\ntensor<1x1x2xf32> 1 10\n' > %t.in
// RUN: remat-run %s --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// RUN: remat-opt --remat-fuse %s -o %t.fused.mlir
// RUN: remat-run %t.fused.mlir --fn values --inputs %t.in --print=full | FileCheck %s --check-prefix=VAL
// VAL-LABEL: result #0: tensor<1x1x4xf32>
// VAL-SAME: 210 321 432 43
// VAL-LABEL: result #1: tensor<1x1x4xf32>
// VAL-SAME: nan inf inf inf
// VAL-LABEL: result #2: tensor<1x1x4xf32>
// VAL-SAME: 11 111 111 110
// VAL-LABEL: result #3: tensor<1x1x3xf32>
// VAL-SAME: 6 10 9
// VAL-LABEL: result #4: tensor<1x1x3xf32>
// VAL-SAME: 31 53 75
// The input gradient adds no term where no output position reads the element (dx[3] at
// kernel position 0 would be output 4): the infinite weight is not multiplied by 0.
// VAL-LABEL: result #5: tensor<1x1x4xf32>
// VAL-SAME: inf inf inf 110
//
// f16 operands, accumulated in f32 and rounded once: 2048 + 1 + 1 = 2050 (a sum rounded
// to f16 at each step would stay at 2048: f16 has no 2049).
// RUN: printf 'tensor<1x1x3xf16> 2048 1 1\ntensor<1x1x3xf16> 1 1 1\n' > %t.h.in
// RUN: remat-run %s --fn half --inputs %t.h.in --print=full | FileCheck %s --check-prefix=HALF
// HALF: result #0: tensor<1x1x1xf16>
// HALF-SAME: 2050
//
// Compiled against the reference, on wide and special values:
// RUN: remat-run %t.fused.mlir --check-compiled grouped --values wide --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: remat-run %t.fused.mlir --check-compiled grouped --values special --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: {{.*}}bit-exact
//
// The VJPs: conv -> conv_grad_input and conv_grad_weight; those two -> the others.
// RUN: remat-opt --remat-autodiff %s -o %t.ad.mlir
// RUN: FileCheck %s --check-prefix=VJP < %t.ad.mlir
// VJP-LABEL: func.func @train(
// VJP-DAG: "rt.conv_grad_input"(%{{.*}}, %arg1) {dilation = array<i64: 1, 2>, groups = 2 : i64, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>}
// VJP-DAG: "rt.conv_grad_weight"(%arg0, %{{.*}}) {dilation = array<i64: 1, 2>, groups = 2 : i64, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>}
// RUN: remat-run %t.ad.mlir --check-fd train --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.ad.mlir --check-fd second_input --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.ad.mlir --check-fd second_weight --seed 3 | FileCheck %s --check-prefix=FD
// FD: ok
func.func @values(%x: tensor<1x1x4xf32>, %w: tensor<1x1x3xf32>, %winf: tensor<1x1x3xf32>, %dy: tensor<1x1x4xf32>, %x7: tensor<1x1x7xf32>, %w2: tensor<1x1x2xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x4xf32>) {
  %y = "rt.conv"(%x, %w) {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x4xf32>
  %yinf = "rt.conv"(%x, %winf) {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x4xf32>
  %dx = "rt.conv_grad_input"(%dy, %w) {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x4xf32>
  %dw = "rt.conv_grad_weight"(%x, %dy) {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x3xf32>
  %s = "rt.conv"(%x7, %w2) {stride = array<i64: 2>, padding = array<i64: 0>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<1x1x7xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>
  %dxinf = "rt.conv_grad_input"(%dy, %winf) {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x4xf32>
  return %y, %yinf, %dx, %dw, %s, %dxinf : tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x4xf32>
}

func.func @half(%x: tensor<1x1x3xf16>, %w: tensor<1x1x3xf16>) -> tensor<1x1x1xf16> {
  %y = "rt.conv"(%x, %w) {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x3xf16>, tensor<1x1x3xf16>) -> tensor<1x1x1xf16>
  return %y : tensor<1x1x1xf16>
}

// Two groups, stride (2, 1), padding (1, 0), dilation (1, 2), then an elementwise op
// that fuses after it.
func.func @grouped(%x: tensor<2x4x5x6xf32>, %w: tensor<6x2x3x2xf32>) -> tensor<2x6x3x4xf32> {
  %y = "rt.conv"(%x, %w) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x4x5x6xf32>, tensor<6x2x3x2xf32>) -> tensor<2x6x3x4xf32>
  %t = "rt.tanh"(%y) : (tensor<2x6x3x4xf32>) -> tensor<2x6x3x4xf32>
  return %t : tensor<2x6x3x4xf32>
}

func.func @train(%x: tensor<2x4x5x6xf64>, %w: tensor<6x2x3x2xf64>) -> tensor<2x6x3x4xf64> attributes {rt.autodiff} {
  %y = "rt.conv"(%x, %w) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x4x5x6xf64>, tensor<6x2x3x2xf64>) -> tensor<2x6x3x4xf64>
  %t = "rt.tanh"(%y) : (tensor<2x6x3x4xf64>) -> tensor<2x6x3x4xf64>
  return %t : tensor<2x6x3x4xf64>
}

func.func @second_input(%dy: tensor<2x6x3x4xf64>, %w: tensor<6x2x3x2xf64>) -> tensor<2x4x5x6xf64> attributes {rt.autodiff} {
  %dx = "rt.conv_grad_input"(%dy, %w) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x6x3x4xf64>, tensor<6x2x3x2xf64>) -> tensor<2x4x5x6xf64>
  %t = "rt.tanh"(%dx) : (tensor<2x4x5x6xf64>) -> tensor<2x4x5x6xf64>
  return %t : tensor<2x4x5x6xf64>
}

func.func @second_weight(%x: tensor<2x4x5x6xf64>, %dy: tensor<2x6x3x4xf64>) -> tensor<6x2x3x2xf64> attributes {rt.autodiff} {
  %dw = "rt.conv_grad_weight"(%x, %dy) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x4x5x6xf64>, tensor<2x6x3x4xf64>) -> tensor<6x2x3x2xf64>
  %t = "rt.tanh"(%dw) : (tensor<6x2x3x2xf64>) -> tensor<6x2x3x2xf64>
  return %t : tensor<6x2x3x2xf64>
}
