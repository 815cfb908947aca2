// Views (reshape, transpose, slice, broadcast) are index maps inside the kernel that reads
// them, never kernels of their own; concat and iota are computed per element like
// elementwise ops. A producer of another shape that one op reads is computed inside that
// op's kernel, at the index the views map to.
// RUN: remat-opt --remat-fuse %s | FileCheck %s
// The fused functions compute the same bits (the reference interpreter calls the
// kernels; compiled equals reference):
// RUN: remat-opt --remat-fuse %s -o %t.fused
// RUN: remat-run %s --fn transpose_matmul --seed 2 > %t.ref
// RUN: remat-run %t.fused --fn transpose_matmul --seed 2 | diff %t.ref -
// RUN: remat-run %s --fn reshape_chain --seed 2 > %t.ref2
// RUN: remat-run %t.fused --fn reshape_chain --seed 2 | diff %t.ref2 -
// RUN: remat-run %t.fused --check-compiled-all --seed 5 | FileCheck %s --check-prefix=SAME
// SAME: ok: 7 functions

// exp [4x8] -> reshape -> add [32]: one [32] kernel computes the exp at the index the
// reshape maps to; nothing is copied.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<32xf32>) -> tensor<32xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @reshape_k0(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @reshape_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<32xf32>) -> tensor<32xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.add"(%[[V1]], %[[ARG1]]) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %[[V2]] : tensor<32xf32>
// CHECK-NEXT: }
func.func @reshape(%x: tensor<4x8xf32>, %y: tensor<32xf32>) -> tensor<32xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  %s = "rt.add"(%r, %y) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %s : tensor<32xf32>
}

// A transpose of an argument, a mul, a transpose back: one [4x8] kernel computes the mul
// at the transposed index.
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x4xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @transpose_k0(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x4xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.transpose"(%[[ARG0]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[ARG1]]) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.transpose"(%[[V1]]) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.neg"(%[[V2]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @transpose(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %t = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %m = "rt.mul"(%t, %y) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %u = "rt.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %n = "rt.neg"(%u) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// Slice, concat and iota inside the add's kernel.
// CHECK-LABEL: func.func @slice_concat(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<2x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @slice_concat_k0(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @slice_concat_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<2x4xf32>) -> tensor<4x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.slice"(%[[ARG0]]) {limit = array<i64: 4, 8>, start = array<i64: 0, 0>, stride = array<i64: 2, 2>} : (tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.concat"(%[[V0]], %[[ARG1]]) {dim = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.add"(%[[V1]], %[[V2]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @slice_concat(%x: tensor<4x8xf32>, %c: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %s = "rt.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 4, 8>, stride = array<i64: 2, 2>} : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %k = "rt.concat"(%s, %c) {dim = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %i = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xf32>
  %y = "rt.add"(%k, %i) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// A reshape chain between two elementwise ops: one kernel, no copy (the reshapes are
// index maps inside it).
// CHECK-LABEL: func.func @reshape_chain(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<2x16xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @reshape_chain_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @reshape_chain_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<2x16xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.neg"(%[[V1]]) : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @reshape_chain(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  %q = "rt.reshape"(%r) : (tensor<32xf32>) -> tensor<2x16xf32>
  %n = "rt.neg"(%q) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %n : tensor<2x16xf32>
}

// A reshape a host op reads stays in the host: the runtime aliases the buffer.
// CHECK-LABEL: func.func @reshape_to_matmul(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<2x4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @reshape_to_matmul_k0(%[[ARG0]]) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.matmul"(%[[V1]], %[[ARG1]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @reshape_to_matmul_k0(%[[ARG0:[^:]*]]: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.tanh"(%[[ARG0]]) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x4x8xf32>
// CHECK-NEXT: }
func.func @reshape_to_matmul(%x: tensor<2x4x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = "rt.tanh"(%x) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %r = "rt.reshape"(%a) : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  %m = "rt.matmul"(%r, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// A transpose of the last two dims feeding rt.matmul is no kernel: it folds into the
// matmul's transpose_a / transpose_b (two transposes cancel). A transpose another op
// also reads is an index map in that op's kernel.
// CHECK-LABEL: func.func @transpose_matmul(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<16x8xf32>, %[[ARG2:[^:]*]]: tensor<2x8x4xf32>, %[[ARG3:[^:]*]]: tensor<2x8x4xf32>) -> (tensor<4x16xf32>, tensor<2x4x4xf32>, tensor<8x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.matmul"(%[[ARG2]], %[[ARG3]]) {transpose_a} : (tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.matmul"(%[[ARG0]], %[[ARG0]]) {transpose_a} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = call @transpose_matmul_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.matmul"(%[[V2]], %[[V3]]) : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V4]] : tensor<4x16xf32>, tensor<2x4x4xf32>, tensor<8x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @transpose_matmul_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.transpose"(%[[ARG0]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.neg"(%[[V0]]) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x4xf32>
// CHECK-NEXT: }
func.func @transpose_matmul(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x8x4xf32>) -> (tensor<4x16xf32>, tensor<2x4x4xf32>, tensor<8x4xf32>) {
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %y = "rt.matmul"(%x, %wt) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bt = "rt.transpose"(%b) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %ct = "rt.transpose"(%c) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %ctt = "rt.transpose"(%ct) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
  %z = "rt.matmul"(%bt, %ctt) : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %xt = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %u = "rt.matmul"(%xt, %x) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %n = "rt.neg"(%xt) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %v = "rt.matmul"(%u, %n) : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y, %z, %v : tensor<4x16xf32>, tensor<2x4x4xf32>, tensor<8x4xf32>
}

// Views are simplified first: a transpose of a transpose is one transpose (here the
// identity: a matmul's result transposed twice and returned needs no kernel), a reshape of
// a reshape one reshape.
// CHECK-LABEL: func.func @view_pairs(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
// CHECK-NEXT: %[[V0:.*]] = "rt.matmul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x8xf32>, tensor<32xf32>
// CHECK-NEXT: }
func.func @view_pairs(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %m = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = "rt.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %tt = "rt.transpose"(%t) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %r = "rt.reshape"(%m) : (tensor<4x8xf32>) -> tensor<2x16xf32>
  %rr = "rt.reshape"(%r) : (tensor<2x16xf32>) -> tensor<32xf32>
  return %tt, %rr : tensor<4x8xf32>, tensor<32xf32>
}
