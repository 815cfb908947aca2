// The joint function's form: the same name; forward results first (rt.num_outputs); one
// {rt.tangent} argument per floating-point tensor result, appended in result order
// (integer, i1 and scalar results get none); one gradient per differentiated argument,
// in `wrt` order (default: every floating-point tensor argument in argument order);
// rt.param, rt.policy and result attributes kept; functions without rt.autodiff are not
// touched. Cotangents of a value with several uses are summed; a value returned twice
// receives both tangents; a returned argument receives its tangent directly.
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd mixed --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd reorder --wrt 2,0 --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd returns --seed 3 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd fanout --seed 4 | FileCheck %s --check-prefix=FD
// FD: gradient elements agree with central differences
// The result is a valid joint function: --remat-mincut splits it.
// RUN: remat-opt --remat-mincut %t.mlir | FileCheck %s --check-prefix=SPLIT
// SPLIT: func.func @mixed_fwd(
// SPLIT: func.func @mixed_bwd(

// Integer and scalar arguments get no gradient, an i1 result and an i64 result no
// tangent; a user's rt.policy tag and result attribute stay.
func.func @mixed(%x: tensor<4xf32>, %n: i64, %w: tensor<4xf32> {rt.param}, %i: tensor<4xi32>,
                 %s: f32) -> (tensor<4xi1>, tensor<4xf32> {rt.name = "loss"}, i64)
    attributes {rt.autodiff} {
  %zero = arith.constant 0.000000e+00 : f32
  %a = "rt.mul"(%x, %w) {rt.policy = "must_save"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = "rt.mul"(%a, %s) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %c = "rt.gt"(%b, %zero) : (tensor<4xf32>, f32) -> tensor<4xi1>
  return %c, %b, %n : tensor<4xi1>, tensor<4xf32>, i64
}

// wrt [2, 0]: gradients for z then x, none for y.
func.func @reorder(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> tensor<4xf32>
    attributes {rt.autodiff = {wrt = [2, 0]}} {
  %a = "rt.mul"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = "rt.sub"(%a, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// exp(x) returned twice and x returned as is: three tangents.
func.func @returns(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    attributes {rt.autodiff} {
  %e = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %x, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// t used three times: its contributions are summed in reverse order of the uses.
func.func @fanout(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  %t = "rt.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "rt.exp"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "rt.sin"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %ab = "rt.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = "rt.mul"(%ab, %t) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Not marked: unchanged.
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[N:[^:]*]]: i64, %[[W:[^:]*]]: tensor<4xf32> {rt.param}, %[[I:[^:]*]]: tensor<4xi32>, %[[S:[^:]*]]: f32, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xi1>, tensor<4xf32> {rt.name = "loss"}, i64, tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 3 : i64} {
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[A:.*]] = "rt.mul"(%[[X]], %[[W]]) {rt.policy = "must_save"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.mul"(%[[A]], %[[S]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[C:.*]] = "rt.gt"(%[[B]], %[[ZERO]]) : (tensor<4xf32>, f32) -> tensor<4xi1>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[S]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[MUL]], %[[W]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[MUL]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[C]], %[[B]], %[[N]], %[[MUL_1]], %[[MUL_2]] : tensor<4xi1>, tensor<4xf32>, i64, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @reorder(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[Y:[^:]*]]: tensor<4xf32>, %[[Z:[^:]*]]: tensor<4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[A:.*]] = "rt.mul"(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.sub"(%[[A]], %[[Z]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[Y]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[NEG:.*]] = "rt.neg"(%[[G0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[B]], %[[NEG]], %[[MUL]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @returns(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}, %[[G1:[^:]*]]: tensor<4xf32> {rt.tangent}, %[[G2:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 3 : i64} {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[G0]], %[[G2]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[ADD]], %[[E]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ADD_1:.*]] = "rt.add"(%[[G1]], %[[MUL]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[E]], %[[X]], %[[E]], %[[ADD_1]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @fanout(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>, %[[G0:[^:]*]]: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
// CHECK-NEXT:   %[[T:.*]] = "rt.tanh"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[A:.*]] = "rt.exp"(%[[T]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[B:.*]] = "rt.sin"(%[[T]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[AB:.*]] = "rt.add"(%[[A]], %[[B]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[Y:.*]] = "rt.mul"(%[[AB]], %[[T]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL:.*]] = "rt.mul"(%[[G0]], %[[T]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_1:.*]] = "rt.mul"(%[[G0]], %[[AB]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[COS:.*]] = "rt.cos"(%[[T]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_2:.*]] = "rt.mul"(%[[MUL]], %[[COS]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ADD:.*]] = "rt.add"(%[[MUL_1]], %[[MUL_2]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_3:.*]] = "rt.mul"(%[[MUL]], %[[A]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ADD_1:.*]] = "rt.add"(%[[ADD]], %[[MUL_3]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_4:.*]] = "rt.mul"(%[[T]], %[[T]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %[[SUB:.*]] = "rt.sub"(%[[ONE]], %[[MUL_4]]) : (f32, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[MUL_5:.*]] = "rt.mul"(%[[ADD_1]], %[[SUB]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[Y]], %[[MUL_5]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:  %[[X:[^:]*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   %[[E:.*]] = "rt.exp"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[E]] : tensor<4xf32>
// CHECK-NEXT: }
