// memory-budget pays a recompute op that several chains share once (set-union knapsack),
// as the backward does; the additive model paid it in each chain and chose worse.
//
// Cost units: bytes moved (an op reads its operands and writes its results). Every
// tensor is 1024 x f32 = 4096 bytes. The backward reads a, b and c:
//   s = exp(x)            not read by the backward: in the chains of b and c, cost 8192
//   b = mul(s, p)         cost 12288          c = mul(s, q)    cost 12288
//   n = neg(u)            not read by the backward: in the chain of a, cost 8192
//   a = exp(n)            cost 8192, chain a + n = 16384
// Recomputing everything costs b + c + s + a + n = 12288 + 12288 + 8192 + 16384 = 49152.
//
// Budget 4096: one value fits.
//   additive model: b "saves" 12288 + 8192 = 20480 (c likewise), a 16384: it saved b. But s
//     is still recomputed for c: the backward pays 49152 - 12288 = 36864.
//   true optimum: save a, recompute b, c and s once: 49152 - 16384 = 32768
//     (36864 / 32768 = 1.125: the additive choice was 12.5% worse).
// Budget 8192: b and c (s is then never recomputed): 49152 - 32768 = 16384, better than
//   a and b (49152 - 28672 = 20480).
// RUN: remat-opt --remat-checkpoint=memory-budget=4096 %s | FileCheck %s --check-prefix=ONE
// RUN: remat-opt --remat-checkpoint=memory-budget=4096 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE-REPORT
// RUN: remat-opt --remat-checkpoint=memory-budget=8192 %s | FileCheck %s --check-prefix=TWO
// RUN: remat-opt --remat-checkpoint=memory-budget=8192 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO-REPORT
//
// Then the min-cut saves exactly a (4096 bytes besides the primals x, p, q) and the
// backward recomputes s once for both b and c.
// RUN: remat-opt --remat-checkpoint=memory-budget=4096 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT

// ONE-LABEL: func.func @shared(
// ONE-NEXT: "rt.exp"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ONE-NEXT: "rt.mul"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ONE-NEXT: "rt.mul"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ONE-NEXT: "rt.neg"(%arg3) :
// ONE-NEXT: "rt.exp"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// ONE-NOT: rt.policy
// ONE-REPORT: budget: 4096 bytes: 0 fixed, 4096 chosen among 3 candidates (2 parts, largest 2, widest 1); recompute cost 32768 (exact)

// TWO-LABEL: func.func @shared(
// TWO-NEXT: "rt.exp"(%arg0) :
// TWO-NEXT: "rt.mul"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// TWO-NEXT: "rt.mul"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// TWO-NEXT: "rt.neg"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// TWO-NEXT: "rt.exp"({{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// TWO-REPORT: recompute cost 16384 (exact)

// SPLIT-LABEL: remat-mincut: @shared -> @shared_fwd, @shared_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg0                tensor<1024xf32>                 4096  primal
// SPLIT-NEXT: 1  %arg1                tensor<1024xf32>                 4096  primal
// SPLIT-NEXT: 2  %arg2                tensor<1024xf32>                 4096  primal
// SPLIT-NEXT: 3  rt.exp               tensor<1024xf32>                 4096  budget
// SPLIT-NEXT: saved bytes: 16384
// SPLIT-LABEL: func.func @shared_bwd(
// SPLIT-NEXT: %[[G:.*]] = "rt.mul"(%arg4, %arg3)
// SPLIT-NEXT: %[[S:.*]] = "rt.exp"(%arg0)
// SPLIT-NEXT: "rt.mul"(%[[S]], %arg1)
// SPLIT-NEXT: "rt.mul"(%[[G]],
// SPLIT-NEXT: "rt.mul"(%[[S]], %arg2)
// SPLIT-NOT: "rt.exp"

func.func @shared(%x: tensor<1024xf32>, %p: tensor<1024xf32>, %q: tensor<1024xf32>,
                  %u: tensor<1024xf32>, %g: tensor<1024xf32> {rt.tangent})
    -> (tensor<1024xf32>, tensor<1024xf32>) attributes {rt.num_outputs = 1 : i64} {
  %s = "rt.exp"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "rt.mul"(%s, %p) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %c = "rt.mul"(%s, %q) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %n = "rt.neg"(%u) : (tensor<1024xf32>) -> tensor<1024xf32>
  %a = "rt.exp"(%n) : (tensor<1024xf32>) -> tensor<1024xf32>
  %y = "rt.add"(%b, %c) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  // backward: reads a, b and c
  %t1 = "rt.mul"(%g, %a) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t2 = "rt.mul"(%t1, %b) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t3 = "rt.mul"(%t2, %c) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %y, %t3 : tensor<1024xf32>, tensor<1024xf32>
}
