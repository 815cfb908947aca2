// memory-budget: the exact choice beats climbing by value per byte.
//
// Cost units (docs/design.md): bytes moved; an elementwise op reads its operands and
// writes its result. The budget applies to each joint function on its own.
//
// @knap: three values the backward uses, no other forward op:
//   a = add(p, q)  1536 x f32 = 6144 bytes, recompute cost 3 x 6144 = 18432 (18432/6144 = 3 per byte)
//   b = exp(xb)    1280 x f32 = 5120 bytes, recompute cost 2 x 5120 = 10240 (2 per byte)
//   c = exp(xc)    5120 bytes, 10240
// Budget 10240 bytes:
//   best value per byte first: a (6144); 4096 left, neither b nor c fits;
//     recomputed b + c = 20480.
//   exact: {b, c} = 10240 bytes fits ({a, b} = 11264 does not); recomputed a = 18432 < 20480.
//   The heuristic (budget-greedy=true) climbs by value per byte too, but also tries the
//   single most valuable option that fits alone first: b and c are equal, one part of two
//   copies whose option "both" (20480) beats a (18432); it keeps the better, b and c, as
//   the exact choice does. (budget-heuristic.mlir shows it losing.)
// Budget 11264: {a, b} (recompute c: 10240) -- every pair costs at least that much.
// Budget 4096: nothing of @knap fits; all three are recomputed.
//
// @chain: d = exp(neg(r)) and e = mul(s, t), both 4096 bytes; neg is needed only by d, so
// recomputing d costs exp + neg = 8192 + 8192 = 16384, e costs 3 x 4096 = 12288. With
// 4096 bytes d is saved (it would be e if the chain were not counted: 8192 < 12288).
// The ops an unsaved candidate needs are prefer_recompute too (neg when d is not saved);
// other forward ops (the output add) stay untagged.
//
// RUN: remat-opt --remat-checkpoint=memory-budget=10240 %s | FileCheck %s --check-prefix=EXACT
// RUN: remat-opt --remat-checkpoint=memory-budget=10240,budget-greedy=true %s | FileCheck %s --check-prefix=EXACT
// RUN: remat-opt --remat-checkpoint=memory-budget=11264 %s | FileCheck %s --check-prefix=PAIR
// RUN: remat-opt --remat-checkpoint=memory-budget=4096 %s | FileCheck %s --check-prefix=SMALL
// Budget 0: nothing is saved; neg, needed to recompute d, is prefer_recompute as well.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 %s | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: func.func @chain(
// ZERO-NEXT: "rt.neg"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ZERO-NEXT: "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ZERO-NEXT: "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ZERO-NEXT: "rt.add"(%1, %2) :
//
// Then the min-cut saves exactly the chosen values and the arguments the recomputation
// needs. @knap: b, c and p, q (to recompute a): 2 x 5120 + 2 x 6144 = 22528 bytes.
// @chain: d and e, 8192 bytes.
// RUN: remat-opt --remat-checkpoint=memory-budget=10240 --remat-mincut %s | FileCheck %s --check-prefix=EXACT-SPLIT
// RUN: remat-opt --remat-checkpoint=memory-budget=10240,budget-greedy=true --remat-mincut %s | FileCheck %s --check-prefix=EXACT-SPLIT

// EXACT-LABEL: func.func @knap(
// EXACT-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// EXACT-NEXT: %1 = "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %2 = "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %3 = "rt.mul"(%arg4, %0) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// EXACT-NEXT: %4 = "rt.mul"(%arg5, %1) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %5 = "rt.mul"(%arg6, %2) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>, tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>
// EXACT-LABEL: func.func @chain(
// EXACT-NEXT: %0 = "rt.neg"(%arg0) : (tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %1 = "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %2 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %3 = "rt.add"(%1, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %4 = "rt.mul"(%arg3, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %5 = "rt.mul"(%4, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: return %3, %5 : tensor<1024xf32>, tensor<1024xf32>


// PAIR-LABEL: func.func @knap(
// PAIR-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// PAIR-NEXT: %1 = "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1280xf32>) -> tensor<1280xf32>
// PAIR-NEXT: %2 = "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1280xf32>) -> tensor<1280xf32>
// PAIR-LABEL: func.func @chain(

// SMALL-LABEL: func.func @knap(
// SMALL-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// SMALL-NEXT: %1 = "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1280xf32>) -> tensor<1280xf32>
// SMALL-NEXT: %2 = "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1280xf32>) -> tensor<1280xf32>
// SMALL-NEXT: %3 = "rt.mul"(%arg4, %0) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// SMALL-NEXT: %4 = "rt.mul"(%arg5, %1) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// SMALL-NEXT: %5 = "rt.mul"(%arg6, %2) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// SMALL-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>, tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>
// SMALL-LABEL: func.func @chain(
// SMALL-NEXT: %0 = "rt.neg"(%arg0) : (tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %1 = "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %2 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %3 = "rt.add"(%1, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %4 = "rt.mul"(%arg3, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %5 = "rt.mul"(%4, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: return %3, %5 : tensor<1024xf32>, tensor<1024xf32>

// EXACT-SPLIT-LABEL: func.func @knap_fwd(
// EXACT-SPLIT-SAME: rt.saved_bytes = 22528 : i64
// EXACT-SPLIT: return %0, %1, %2, %arg0, %arg1, %1, %2 :
// EXACT-SPLIT-LABEL: func.func @knap_bwd(
// EXACT-SPLIT-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// EXACT-SPLIT-NEXT: %1 = "rt.mul"(%arg4, %0)
// EXACT-SPLIT-NEXT: %2 = "rt.mul"(%arg5, %arg2)
// EXACT-SPLIT-NEXT: %3 = "rt.mul"(%arg6, %arg3)
// EXACT-SPLIT-LABEL: func.func @chain_fwd(
// EXACT-SPLIT-SAME: rt.saved_bytes = 8192 : i64
// EXACT-SPLIT: return %3, %1, %2 :


func.func @knap(%p: tensor<1536xf32>, %q: tensor<1536xf32>, %xb: tensor<1280xf32>,
                %xc: tensor<1280xf32>, %ga: tensor<1536xf32> {rt.tangent},
                %gb: tensor<1280xf32> {rt.tangent}, %gc: tensor<1280xf32> {rt.tangent})
    -> (tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>,
        tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>)
    attributes {rt.num_outputs = 3 : i64} {
  %a = "rt.add"(%p, %q) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
  %b = "rt.exp"(%xb) : (tensor<1280xf32>) -> tensor<1280xf32>
  %c = "rt.exp"(%xc) : (tensor<1280xf32>) -> tensor<1280xf32>
  %da = "rt.mul"(%ga, %a) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
  %db = "rt.mul"(%gb, %b) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
  %dc = "rt.mul"(%gc, %c) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
  return %a, %b, %c, %da, %db, %dc : tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>,
                                      tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>
}

func.func @chain(%r: tensor<1024xf32>, %s: tensor<1024xf32>, %t: tensor<1024xf32>,
                 %g: tensor<1024xf32> {rt.tangent})
    -> (tensor<1024xf32>, tensor<1024xf32>) attributes {rt.num_outputs = 1 : i64} {
  %n = "rt.neg"(%r) : (tensor<1024xf32>) -> tensor<1024xf32>
  %d = "rt.exp"(%n) : (tensor<1024xf32>) -> tensor<1024xf32>
  %e = "rt.mul"(%s, %t) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %o = "rt.add"(%d, %e) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %g1 = "rt.mul"(%g, %d) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %g2 = "rt.mul"(%g1, %e) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %o, %g2 : tensor<1024xf32>, tensor<1024xf32>
}
