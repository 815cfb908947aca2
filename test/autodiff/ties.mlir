// PyTorch's choices at non-smooth points, checked on numbers (remat-run --print=full
// prints every result; the last result is the gradient(s), the tangent is all ones):
// - rt.max / rt.min of two tensors (torch.maximum): a tie gives each side half;
// - rt.max / rt.min with a scalar (torch.clamp_min / clamp_max): a tie gives the tensor
//   the whole cotangent;
// - rt.abs (torch.abs, g * sgn(x)): 0 at x = 0;
// - rt.pow (torch.pow): the base gets 0 where the exponent is 0 (even at x = 0), the
//   exponent gets 0 where x = 0 and b >= 0;
// - rt.amax (torch.amax): tied maxima share the cotangent evenly.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: printf 'tensor<4xf32> 1 2 3 0\ntensor<4xf32> 1 0 5 0\ntensor<4xf32> 1 1 1 1\n' > %t.max.in
// RUN: remat-run %t.mlir --fn max --inputs %t.max.in --print=full | FileCheck %s --check-prefix=MAX
// MAX:      tensor<4xf32> 1 2 5 0
// MAX-NEXT: tensor<4xf32> 0.5 1 0 0.5
// MAX-NEXT: tensor<4xf32> 0.5 0 1 0.5
// RUN: remat-run %t.mlir --fn min --inputs %t.max.in --print=full | FileCheck %s --check-prefix=MIN
// MIN:      tensor<4xf32> 1 0 3 0
// MIN-NEXT: tensor<4xf32> 0.5 0 1 0.5
// MIN-NEXT: tensor<4xf32> 0.5 1 0 0.5
// RUN: printf 'tensor<4xf32> -1 0 0.5 1\ntensor<4xf32> 1 1 1 1\n' > %t.clamp.in
// RUN: remat-run %t.mlir --fn clamp --inputs %t.clamp.in --print=full | FileCheck %s --check-prefix=CLAMP
// CLAMP:      tensor<4xf32> 0 0 0.5 0.5
// CLAMP-NEXT: tensor<4xf32> 0 1 1 0
// RUN: printf 'tensor<4xf32> -2 0 -0 3\ntensor<4xf32> 1 1 1 1\n' > %t.abs.in
// RUN: remat-run %t.mlir --fn abs --inputs %t.abs.in --print=full | FileCheck %s --check-prefix=ABS
// ABS:      tensor<4xf32> 2 0 0 3
// ABS-NEXT: tensor<4xf32> -1 0 0 1
// RUN: printf 'tensor<4xf32> 0 0 2 0\ntensor<4xf32> 0 2 0 -1\ntensor<4xf32> 1 1 1 1\n' > %t.pow.in
// RUN: remat-run %t.mlir --fn pow --inputs %t.pow.in --print=full | FileCheck %s --check-prefix=POW
// POW:      tensor<4xf32> 1 0 1 inf
// POW-NEXT: tensor<4xf32> 0 0 0 -inf
// POW-NEXT: tensor<4xf32> 0 0 0.693147182 -inf
// RUN: printf 'tensor<2x3xf32> 1 3 3 2 2 2\ntensor<2xf32> 1 1\n' > %t.amax.in
// RUN: remat-run %t.mlir --fn amax --inputs %t.amax.in --print=full | FileCheck %s --check-prefix=AMAX
// AMAX:      tensor<2xf32> 3 2
// AMAX-NEXT: tensor<2x3xf32>
// AMAX-NEXT:   0 0.5 0.5
// AMAX-NEXT:   0.333333343 0.333333343 0.333333343

func.func @max(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %m = "rt.max"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

func.func @min(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %m = "rt.min"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// clamp(x, 0, 0.5): ties at both bounds pass the cotangent.
func.func @clamp(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %lo = arith.constant 0.000000e+00 : f32
  %hi = arith.constant 5.000000e-01 : f32
  %a = "rt.max"(%x, %lo) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %b = "rt.min"(%a, %hi) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %a = "rt.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

func.func @pow(%x: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %y = "rt.pow"(%x, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @amax(%x: tensor<2x3xf32>) -> tensor<2xf32> attributes {rt.autodiff} {
  %m = "rt.amax"(%x) {dims = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %m : tensor<2xf32>
}
