// Never a cycle: an op that depends on a group through a non-fused op (a matmul) cannot
// join that group. Every output verifies again.
// RUN: remat-opt --remat-fuse=dedup=false %s | FileCheck %s
// RUN: remat-opt --remat-fuse=dedup=false %s | remat-opt | FileCheck %s

// exp -> matmul -> exp: two kernels around the matmul.
// CHECK-LABEL: func.func @exp_matmul_exp(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @exp_matmul_exp_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.matmul"(%[[V0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = call @exp_matmul_exp_k1(%[[V1]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @exp_matmul_exp_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @exp_matmul_exp_k1(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @exp_matmul_exp(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%a, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "rt.exp"(%m) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// exp -> matmul, and an add that uses both the exp and the matmul: the add cannot join
// the exp's kernel (it would need the matmul, which needs the kernel); the exp's value
// is a result of the first kernel and an argument of the second.
// CHECK-LABEL: func.func @uses_both(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @uses_both_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.matmul"(%[[V0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]]:2 = call @uses_both_k1(%[[V1]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @uses_both_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @uses_both_k1(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[ARG1]], %[[ARG0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
func.func @uses_both(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%a, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "rt.exp"(%m) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%a, %m) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b, %c : tensor<4x8xf32>, tensor<4x8xf32>
}

// A cycle through two fused groups: kernel A = {a1, a2} would need %t from kernel B,
// and B = {b1, b2} would need %a1 from A. No kernel waits for the other: %b1 has one
// consumer and is computed inside A at the transposed index, and %a1 (one read of %x per
// element, as cheap to recompute as to load) is recomputed inside B.
// CHECK-LABEL: func.func @cross(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @cross_k0(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = call @cross_k1(%[[ARG0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x8xf32>, tensor<8x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @cross_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x4xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.neg"(%[[ARG1]]) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.transpose"(%[[V1]]) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.add"(%[[V0]], %[[V2]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V3]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @cross_k1(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.transpose"(%[[V0]]) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.add"(%[[V1]], %[[ARG1]]) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8x4xf32>
// CHECK-NEXT: }
func.func @cross(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %a1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b1 = "rt.neg"(%y) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = "rt.transpose"(%b1) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %a2 = "rt.add"(%a1, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %u = "rt.transpose"(%a1) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %b2 = "rt.add"(%u, %y) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %a2, %b2 : tensor<4x8xf32>, tensor<8x4xf32>
}

// A later op that does not depend on the matmul still starts a new kernel once the
// matmul has used the group (the host keeps its order, and the call of a group stands at
// its last op, so no outside user of the group may come before that op).
// CHECK-LABEL: func.func @sealed(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @sealed_k0(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.matmul"(%[[V0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = call @sealed_k1(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @sealed_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @sealed_k1(%[[ARG0:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.neg"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @sealed(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%a, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "rt.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// A matmul that does not use the group does not seal it: the group takes %c after it.
// CHECK-LABEL: func.func @independent_matmul(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<4x8xf32>, %[[ARG2:[^:]*]]: tensor<8x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:.*]] = "rt.matmul"(%[[ARG1]], %[[ARG2]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = call @independent_matmul_k0(%[[ARG0]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @independent_matmul_k0(%[[ARG0:[^:]*]]: tensor<4x8xf32>, %[[ARG1:[^:]*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.add"(%[[V0]], %[[ARG1]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @independent_matmul(%x: tensor<4x8xf32>, %p: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%p, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%a, %m) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
