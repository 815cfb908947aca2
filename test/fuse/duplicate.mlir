// Producer duplication (the inline rule, docs/design.md "Inlined producers"): a cheap
// producer whose consumers land in different kernels is recomputed inside each of them
// when that moves no more bytes than materializing it, its recompute holds at most 8 ops
// and it is not expensive work read again through an expanding broadcast; otherwise it
// is materialized once. The fused functions compute the same bits (reference and
// compiled). dedup=false: some functions' kernels are equal (chain9_k1, two_leaves_k1),
// and each function's own kernels are the point here.
// RUN: remat-opt --remat-fuse=dedup=false %s -o %t.fused
// RUN: FileCheck %s < %t.fused
// RUN: remat-opt --remat-fuse=dedup=false,duplicate=false %s | FileCheck %s --check-prefix=NODUP
// RUN: remat-run %s --fn cheap --seed 1 > %t.ref.cheap
// RUN: remat-run %t.fused --fn cheap --seed 1 | diff %t.ref.cheap -
// RUN: remat-run %s --fn two_leaves --seed 1 > %t.ref.two_leaves
// RUN: remat-run %t.fused --fn two_leaves --seed 1 | diff %t.ref.two_leaves -
// RUN: remat-run %s --fn chain8 --seed 1 > %t.ref.chain8
// RUN: remat-run %t.fused --fn chain8 --seed 1 | diff %t.ref.chain8 -
// RUN: remat-run %s --fn chain9 --seed 1 > %t.ref.chain9
// RUN: remat-run %t.fused --fn chain9 --seed 1 | diff %t.ref.chain9 -
// RUN: remat-run %s --fn mask --seed 1 > %t.ref.mask
// RUN: remat-run %t.fused --fn mask --seed 1 | diff %t.ref.mask -
// RUN: remat-run %s --fn mask_bcast --seed 1 > %t.ref.mask_bcast
// RUN: remat-run %t.fused --fn mask_bcast --seed 1 | diff %t.ref.mask_bcast -
// RUN: remat-run %t.fused --check-compiled-all --seed 2 | FileCheck %s --check-prefix=SAME
// SAME: ok: 6 functions

// A cheap producer (neg of a [16] argument) read by two kernels of other shapes, through
// a broadcast and a reshape: recomputed in both (2 * 64 bytes of leaves <= 3 * 64 bytes
// of the value: recomputing reads x twice, materializing writes the value once and
// reads it twice). With duplicate=false it is a kernel of its own (NODUP).
// CHECK-LABEL: func.func @cheap(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @cheap_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @cheap_k1(%[[ARG0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @cheap_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.add"(%[[V1]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @cheap_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[V1]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x4xf32>
// CHECK-NEXT: }
// NODUP-LABEL: func.func @cheap(
// NODUP-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// NODUP-NEXT: %[[V0:.*]] = call @cheap_k0(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// NODUP-NEXT: %[[V1:.*]] = call @cheap_k1(%[[V0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// NODUP-NEXT: %[[V2:.*]] = call @cheap_k2(%[[V0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// NODUP-NEXT: return %[[V1]], %[[V2]] : tensor<4x16xf32>, tensor<4x4xf32>
// NODUP-NEXT: }
// NODUP-NEXT: func.func private @cheap_k0(%[[ARG0:[^:]*]]: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// NODUP-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// NODUP-NEXT: return %[[V0]] : tensor<16xf32>
// NODUP-NEXT: }
// NODUP-NEXT: func.func private @cheap_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// NODUP-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// NODUP-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// NODUP-NEXT: return %[[V1]] : tensor<4x16xf32>
// NODUP-NEXT: }
// NODUP-NEXT: func.func private @cheap_k2(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// NODUP-NEXT: %[[V0:.*]] = "rt.reshape"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// NODUP-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// NODUP-NEXT: return %[[V1]] : tensor<4x4xf32>
// NODUP-NEXT: }
func.func @cheap(%x: tensor<16xf32>, %y: tensor<4x16xf32>, %z: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %a = "rt.neg"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "rt.broadcast"(%a) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %c = "rt.add"(%b, %y) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<4x16xf32>, tensor<4x4xf32>
}

// x + w of two [16] tensors read by two kernels: recomputing reads 2 * 128 bytes, more
// than materializing (3 * 64): its own kernel, both consumers read its result.
// CHECK-LABEL: func.func @two_leaves(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>, %[[ARG2:[^:]*]]: tensor<4x16xf32>, %[[ARG3:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @two_leaves_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @two_leaves_k1(%[[V0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = call @two_leaves_k2(%[[V0]], %[[ARG3]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_leaves_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.add"(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_leaves_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_leaves_k2(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.reshape"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @two_leaves(%x: tensor<16xf32>, %w: tensor<16xf32>, %y: tensor<4x16xf32>, %z: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %a = "rt.add"(%x, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %b = "rt.broadcast"(%a) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %c = "rt.add"(%b, %y) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<4x16xf32>, tensor<4x4xf32>
}

// A chain of 8 cheap ops read by two kernels: its recompute holds 8 ops (the bound,
// DUP_MAX_OPS), so each consumer's kernel computes the whole chain.
// CHECK-LABEL: func.func @chain8(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @chain8_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @chain8_k1(%[[ARG0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain8_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.add"(%[[ARG0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[V1]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.neg"(%[[V2]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.abs"(%[[V3]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.add"(%[[V4]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.mul"(%[[V5]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.neg"(%[[V6]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.broadcast"(%[[V7]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.add"(%[[V8]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V9]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain8_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.add"(%[[ARG0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[V1]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.neg"(%[[V2]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.abs"(%[[V3]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.add"(%[[V4]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.mul"(%[[V5]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.neg"(%[[V6]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.reshape"(%[[V7]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.mul"(%[[V8]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V9]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @chain8(%x: tensor<16xf32>, %y: tensor<4x16xf32>, %z: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %one = arith.constant 1.0 : f32
  %a1 = "rt.add"(%x, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a2 = "rt.mul"(%a1, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a3 = "rt.sub"(%a2, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a4 = "rt.neg"(%a3) : (tensor<16xf32>) -> tensor<16xf32>
  %a5 = "rt.abs"(%a4) : (tensor<16xf32>) -> tensor<16xf32>
  %a6 = "rt.add"(%a5, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a7 = "rt.mul"(%a6, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a = "rt.neg"(%a7) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "rt.broadcast"(%a) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %c = "rt.add"(%b, %y) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<4x16xf32>, tensor<4x4xf32>
}

// The same chain with one more op: 9 ops exceed the bound, so the chain is computed
// once, in a kernel of its own, and read by both consumers (no kernel's work grows
// without bound).
// CHECK-LABEL: func.func @chain9(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>, %[[ARG2:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @chain9_k0(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @chain9_k1(%[[V0]], %[[ARG1]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = call @chain9_k2(%[[V0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain9_k0(%[[ARG0:[^:]*]]: tensor<16xf32>) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[V1]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.sub"(%[[V2]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.neg"(%[[V3]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.abs"(%[[V4]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.add"(%[[V5]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.mul"(%[[V6]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.neg"(%[[V7]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V8]] : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain9_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain9_k2(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.reshape"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @chain9(%x: tensor<16xf32>, %y: tensor<4x16xf32>, %z: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %one = arith.constant 1.0 : f32
  %a0 = "rt.neg"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %a1 = "rt.add"(%a0, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a2 = "rt.mul"(%a1, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a3 = "rt.sub"(%a2, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a4 = "rt.neg"(%a3) : (tensor<16xf32>) -> tensor<16xf32>
  %a5 = "rt.abs"(%a4) : (tensor<16xf32>) -> tensor<16xf32>
  %a6 = "rt.add"(%a5, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a7 = "rt.mul"(%a6, %one) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %a = "rt.neg"(%a7) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "rt.broadcast"(%a) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %c = "rt.add"(%b, %y) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<4x16xf32>, tensor<4x4xf32>
}

// A dropout mask (uniform_philox, compare, convert: no tensor leaves) read through two
// reshapes by kernels of different shapes: each kernel draws it from seed and offset;
// no mask tensor is written.
// CHECK-LABEL: func.func @mask(
// CHECK-SAME: %[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64, %[[ARG2:[^:]*]]: tensor<2x8xf32>, %[[ARG3:[^:]*]]: tensor<4x4xf32>) -> (tensor<2x8xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @mask_k0(%[[ARG0]], %[[ARG1]], %[[ARG2]]) : (i64, i64, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[V1:.*]] = call @mask_k1(%[[ARG0]], %[[ARG1]], %[[ARG3]]) : (i64, i64, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<2x8xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @mask_k0(%[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64, %[[ARG2:[^:]*]]: tensor<2x8xf32>) -> tensor<2x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.uniform_philox"(%[[ARG0]], %[[ARG1]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.lt"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xi1>
// CHECK-NEXT: %[[V2:.*]] = "rt.convert"(%[[V1]]) : (tensor<16xi1>) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.reshape"(%[[V2]]) : (tensor<16xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[V3]], %[[ARG2]]) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[V4]] : tensor<2x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @mask_k1(%[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64, %[[ARG2:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.uniform_philox"(%[[ARG0]], %[[ARG1]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.lt"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xi1>
// CHECK-NEXT: %[[V2:.*]] = "rt.convert"(%[[V1]]) : (tensor<16xi1>) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.reshape"(%[[V2]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[V3]], %[[ARG2]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V4]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @mask(%seed: i64, %off: i64, %y: tensor<2x8xf32>, %z: tensor<4x4xf32>) -> (tensor<2x8xf32>, tensor<4x4xf32>) {
  %p = arith.constant 5.000000e-01 : f32
  %u = "rt.uniform_philox"(%seed, %off) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<16xf32>
  %m = "rt.lt"(%u, %p) : (tensor<16xf32>, f32) -> tensor<16xi1>
  %a = "rt.convert"(%m) : (tensor<16xi1>) -> tensor<16xf32>
  %b = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<2x8xf32>
  %c = "rt.mul"(%b, %y) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<2x8xf32>, tensor<4x4xf32>
}

// The same mask read through an expanding broadcast: philox is expensive work and the
// broadcast would draw each element 4 times, so the mask is computed once in its own
// kernel.
// CHECK-LABEL: func.func @mask_bcast(
// CHECK-SAME: %[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64, %[[ARG2:[^:]*]]: tensor<4x16xf32>, %[[ARG3:[^:]*]]: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @mask_bcast_k0(%[[ARG0]], %[[ARG1]]) : (i64, i64) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = call @mask_bcast_k1(%[[V0]], %[[ARG2]]) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V2:.*]] = call @mask_bcast_k2(%[[V0]], %[[ARG3]]) : (tensor<16xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @mask_bcast_k0(%[[ARG0:[^:]*]]: i64, %[[ARG1:[^:]*]]: i64) -> tensor<16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.uniform_philox"(%[[ARG0]], %[[ARG1]]) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.lt"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xi1>
// CHECK-NEXT: %[[V2:.*]] = "rt.convert"(%[[V1]]) : (tensor<16xi1>) -> tensor<16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @mask_bcast_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @mask_bcast_k2(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.reshape"(%[[ARG0]]) : (tensor<16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @mask_bcast(%seed: i64, %off: i64, %y: tensor<4x16xf32>, %z: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %p = arith.constant 5.000000e-01 : f32
  %u = "rt.uniform_philox"(%seed, %off) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<16xf32>
  %m = "rt.lt"(%u, %p) : (tensor<16xf32>, f32) -> tensor<16xi1>
  %a = "rt.convert"(%m) : (tensor<16xi1>) -> tensor<16xf32>
  %b = "rt.broadcast"(%a) {dims = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
  %c = "rt.mul"(%b, %y) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = "rt.reshape"(%a) : (tensor<16xf32>) -> tensor<4x4xf32>
  %d = "rt.mul"(%r, %z) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %d : tensor<4x16xf32>, tensor<4x4xf32>
}
