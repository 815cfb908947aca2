// Functions with several blocks and nested regions: each block is grouped on its own
// (kernel numbers continue across the blocks of a function); scalar constants are cloned
// from whichever block defines them; a use inside a nested region counts as a use by
// the op that holds the region (it seals the group), and ops inside nested regions are
// not fused.
// RUN: remat-opt --remat-fuse=dedup=false %s | FileCheck %s
// RUN: remat-opt --remat-fuse=dedup=false %s | remat-opt | FileCheck %s

// CHECK-LABEL: func.func @blocks(%arg0: tensor<4xf32>, %arg1: i1) -> tensor<4xf32> {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @blocks_k0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: cf.cond_br %arg1, ^bb1, ^bb2(%[[V0]] : tensor<4xf32>)
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = call @blocks_k1(%[[V0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: cf.br ^bb2(%[[V1]] : tensor<4xf32>)
// CHECK-NEXT: ^bb2(%[[V2:[a-z0-9_]+]]: tensor<4xf32>):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = call @blocks_k2(%[[V2]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @blocks_k0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.exp"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @blocks_k1(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.mul"(%arg0, %cst) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = "rt.neg"(%[[V0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @blocks_k2(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
func.func @blocks(%x: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  %two = arith.constant 2.000000e+00 : f32
  %a = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  cf.cond_br %p, ^bb1, ^bb2(%a : tensor<4xf32>)
^bb1:
  %b = "rt.mul"(%a, %two) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %c = "rt.neg"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  cf.br ^bb2(%c : tensor<4xf32>)
^bb2(%r: tensor<4xf32>):
  %d = "rt.abs"(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// %a is used inside the scf.if: the group of %a is sealed there, so %b (after the if)
// opens a second kernel; the rt.neg inside the region stays where it is.
// CHECK-LABEL: func.func @nested(%arg0: tensor<4xf32>, %arg1: i1) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = call @nested_k0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = scf.if %arg1 -> (tensor<4xf32>) {
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = "rt.neg"(%[[V0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: scf.yield %[[V3]] : tensor<4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = call @nested_k1(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @nested_k0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.exp"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @nested_k1(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = "rt.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4xf32>
// CHECK-NEXT: }
func.func @nested(%x: tensor<4xf32>, %p: i1) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %p -> tensor<4xf32> {
    %n = "rt.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %b = "rt.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r, %b : tensor<4xf32>, tensor<4xf32>
}
