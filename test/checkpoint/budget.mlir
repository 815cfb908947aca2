// memory-budget: the exact choice beats the greedy one.
//
// Cost units (docs/design.md): bytes moved; an elementwise op reads its operands and
// writes its result. The budget applies to each joint function on its own.
//
// @knap: three values the backward uses, no other forward op:
//   a = add(p, q)  1536 x f32 = 6144 bytes, recompute cost 3 x 6144 = 18432 (18432/6144 = 3 per byte)
//   b = exp(xb)    1280 x f32 = 5120 bytes, recompute cost 2 x 5120 = 10240 (2 per byte)
//   c = exp(xc)    5120 bytes, 10240
// Budget 10240 bytes:
//   greedy (best cost per byte first): a (6144); 4096 left, neither b nor c fits;
//     recomputed b + c = 20480.
//   exact: {b, c} = 10240 bytes fits ({a, b} = 11264 does not); recomputed a = 18432 < 20480.
// Budget 11264: {a, b} (recompute c: 10240) -- every pair costs at least that much.
// Budget 4096: nothing of @knap fits; all three are recomputed.
//
// @chain: d = exp(neg(r)) and e = mul(s, t), both 4096 bytes; neg is needed only by d, so
// recomputing d costs exp + neg = 8192 + 8192 = 16384, e costs 3 x 4096 = 12288. With
// 4096 bytes d is saved (it would be e if the chain were not counted: 8192 < 12288).
// Forward ops the backward does not use (neg, the output add) are prefer_recompute.
//
// RUN: remat-opt --remat-checkpoint=memory-budget=10240 %s | FileCheck %s --check-prefix=EXACT
// RUN: remat-opt --remat-checkpoint=memory-budget=10240,budget-greedy=true %s | FileCheck %s --check-prefix=GREEDY
// RUN: remat-opt --remat-checkpoint=memory-budget=11264 %s | FileCheck %s --check-prefix=PAIR
// RUN: remat-opt --remat-checkpoint=memory-budget=4096 %s | FileCheck %s --check-prefix=SMALL

// EXACT-LABEL: func.func @knap(
// EXACT-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// EXACT-NEXT: %1 = "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %2 = "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %3 = "rt.mul"(%arg4, %0) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// EXACT-NEXT: %4 = "rt.mul"(%arg5, %1) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: %5 = "rt.mul"(%arg6, %2) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// EXACT-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>, tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>
// EXACT-LABEL: func.func @chain(
// EXACT-NEXT: %0 = "rt.neg"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %1 = "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %2 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %3 = "rt.add"(%1, %2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %4 = "rt.mul"(%arg3, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: %5 = "rt.mul"(%4, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// EXACT-NEXT: return %3, %5 : tensor<1024xf32>, tensor<1024xf32>

// GREEDY-LABEL: func.func @knap(
// GREEDY-NEXT: %0 = "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// GREEDY-NEXT: %1 = "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1280xf32>) -> tensor<1280xf32>
// GREEDY-NEXT: %2 = "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1280xf32>) -> tensor<1280xf32>
// GREEDY-NEXT: %3 = "rt.mul"(%arg4, %0) : (tensor<1536xf32>, tensor<1536xf32>) -> tensor<1536xf32>
// GREEDY-NEXT: %4 = "rt.mul"(%arg5, %1) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// GREEDY-NEXT: %5 = "rt.mul"(%arg6, %2) : (tensor<1280xf32>, tensor<1280xf32>) -> tensor<1280xf32>
// GREEDY-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>, tensor<1536xf32>, tensor<1280xf32>, tensor<1280xf32>
// GREEDY-LABEL: func.func @chain(
// GREEDY-NEXT: %0 = "rt.neg"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: %1 = "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: %2 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: %3 = "rt.add"(%1, %2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: %4 = "rt.mul"(%arg3, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: %5 = "rt.mul"(%4, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// GREEDY-NEXT: return %3, %5 : tensor<1024xf32>, tensor<1024xf32>

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
// SMALL-NEXT: %0 = "rt.neg"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %1 = "rt.exp"(%0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %2 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %3 = "rt.add"(%1, %2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %4 = "rt.mul"(%arg3, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: %5 = "rt.mul"(%4, %2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
// SMALL-NEXT: return %3, %5 : tensor<1024xf32>, tensor<1024xf32>

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
