// Ops without a gradient: rt.full, rt.iota and rt.uniform_philox make values from
// attributes and integer scalars, so nothing flows back through them; a dropout mask
// built from them scales the cotangent. A differentiated argument that no result
// depends on gets a gradient of zeros (one rt.full).
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd dropout --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd positions --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd unused --seed 3 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences

func.func @dropout(%x: tensor<4x4xf32>, %seed: i64, %offset: i64) -> tensor<4x4xf32>
    attributes {rt.autodiff} {
  %p = arith.constant 2.000000e-01 : f32
  %scale = arith.constant 1.250000e+00 : f32
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x4xf32>
  %keep = "rt.ge"(%u, %p) : (tensor<4x4xf32>, f32) -> tensor<4x4xi1>
  %m = "rt.convert"(%keep) : (tensor<4x4xi1>) -> tensor<4x4xf32>
  %xm = "rt.mul"(%x, %m) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = "rt.mul"(%xm, %scale) : (tensor<4x4xf32>, f32) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// x + iota + full: the gradient is the cotangent itself.
func.func @positions(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.autodiff} {
  %i = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xf32>
  %f = "rt.full"() {value = 3.0 : f32} : () -> tensor<4x4xf32>
  %a = "rt.add"(%x, %i) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = "rt.mul"(%a, %f) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// w reaches no result: its gradient is zeros.
func.func @unused(%x: tensor<4x4xf32>, %w: tensor<2xf32>) -> tensor<4x4xf32>
    attributes {rt.autodiff} {
  %y = "rt.exp"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x4xf32>, %[[SEED:[^:]*]]: i64, %[[OFFSET:[^:]*]]: i64, %[[G0:[^:]*]]: tensor<4x4xf32> {rt.tangent}) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[P:.*]] = arith.constant 2.000000e-01 : f32
// CHECK-NEXT:   %[[SCALE:.*]] = arith.constant 1.250000e+00 : f32
// CHECK-NEXT:   %[[U:.*]] = "rt.uniform_philox"(%[[SEED]], %[[OFFSET]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[KEEP:.*]] = "rt.ge"(%[[U]], %[[P]]) : (tensor<4x4xf32>, f32) -> tensor<4x4xi1>
// CHECK-NEXT:   %[[M:.*]] = "rt.convert"(%[[KEEP]]) : (tensor<4x4xi1>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[XM:.*]] = "rt.mul"(%[[X]], %[[M]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[XM]], %[[SCALE]]) : (tensor<4x4xf32>, f32) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[SCALE]]) : (tensor<4x4xf32>, f32) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[MUL]], %[[M]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_1]] : tensor<4x4xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @positions(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x4xf32>, %[[G0:[^:]*]]: tensor<4x4xf32> {rt.tangent}) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[I:.*]] = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xf32>
// CHECK-NEXT:   %[[F:.*]] = "rt.full"() {value = 3.000000e+00 : f32} : () -> tensor<4x4xf32>
// CHECK-NEXT:   %[[A:.*]] = "rt.add"(%[[X]], %[[I]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[A]], %[[F]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[F]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]] : tensor<4x4xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @unused(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4x4xf32>, %[[W:[^:]*]]: tensor<2xf32>, %[[G0:[^:]*]]: tensor<4x4xf32> {rt.tangent}) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<2xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[Y:.*]] = "rt.exp"(%[[X]]) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:   %[[FULL:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<2xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL]], %[[FULL]] : tensor<4x4xf32>, tensor<4x4xf32>, tensor<2xf32>
// CHECK-NEXT: }
