// The heuristic (budget-greedy=true) against the exact choice, where it loses.
//
// Cost units: bytes moved. The backward reads p1, p2, x and y:
//   s = exp(w)       1024 x f32, not read by the backward: shared by the chains of p1 and
//                    p2, cost 8192
//   p1 = mul(s, q1)  4096 bytes, cost 12288      p2 = mul(s, q2)  4096 bytes, cost 12288
//   x = mul(u1, u2)  256 x f32 = 1024 bytes, cost 3072 (3 per byte)
//   y = exp(v)       4096 bytes, cost 8192 (2 per byte)
// p1 and p2 saved together avoid 12288 + 12288 + 8192 = 32768 for 8192 bytes (4 per
// byte). Everything costs 32768 + 3072 + 8192 = 44032. Budget 12800:
//   heuristic: by value per byte, p1 + p2 (8192), then x (1024); 3584 bytes are left and
//     y does not fit: recomputes y, 8192. Taking the most valuable option that fits alone
//     first (p1 + p2) climbs the same way.
//   exact: p1, p2 and y (12288 bytes): recomputes x, 3072.
// RUN: remat-opt --remat-checkpoint=memory-budget=12800 %s | FileCheck %s --check-prefix=EXACT
// RUN: remat-opt --remat-checkpoint=memory-budget=12800 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXACT-REPORT
// RUN: remat-opt --remat-checkpoint=memory-budget=12800,budget-greedy=true %s | FileCheck %s --check-prefix=HEUR
// RUN: remat-opt --remat-checkpoint=memory-budget=12800,budget-greedy=true --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=HEUR-REPORT
// Then the min-cut: exact saves p1, p2 and y (12288 bytes of op results) and recomputes
// x from u1 and u2; the heuristic's split saves p1, p2 and x and recomputes y.
// RUN: remat-opt --remat-checkpoint=memory-budget=12800 --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXACT-SPLIT
// RUN: remat-opt --remat-checkpoint=memory-budget=12800,budget-greedy=true --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=HEUR-SPLIT

// EXACT-LABEL: func.func @climb(
// EXACT-NEXT: "rt.exp"(%arg0) :
// EXACT-NEXT: "rt.mul"({{.*}}rt.policy = "must_save"
// EXACT-NEXT: "rt.mul"({{.*}}rt.policy = "must_save"
// EXACT-NEXT: "rt.mul"(%arg3, %arg4) {{.*}}rt.policy = "prefer_recompute"
// EXACT-NEXT: "rt.exp"(%arg5) {{.*}}rt.policy = "must_save"
// EXACT-REPORT: recompute cost 3072 (exact)

// HEUR-LABEL: func.func @climb(
// HEUR-NEXT: "rt.exp"(%arg0) :
// HEUR-NEXT: "rt.mul"({{.*}}rt.policy = "must_save"
// HEUR-NEXT: "rt.mul"({{.*}}rt.policy = "must_save"
// HEUR-NEXT: "rt.mul"(%arg3, %arg4) {{.*}}rt.policy = "must_save"
// HEUR-NEXT: "rt.exp"(%arg5) {{.*}}rt.policy = "prefer_recompute"
// HEUR-REPORT: recompute cost 8192 (heuristic)

// EXACT-SPLIT-LABEL: remat-mincut: @climb
// EXACT-SPLIT: 0  %arg3                tensor<256xf32>                   1024  primal
// EXACT-SPLIT-NEXT: 1  %arg4                tensor<256xf32>                   1024  primal
// EXACT-SPLIT-NEXT: 2  rt.mul               tensor<1024xf32>                 4096  budget
// EXACT-SPLIT-NEXT: 3  rt.mul               tensor<1024xf32>                 4096  budget
// EXACT-SPLIT-NEXT: 4  rt.exp               tensor<1024xf32>                 4096  budget
// EXACT-SPLIT-NEXT: saved bytes: 14336

// HEUR-SPLIT-LABEL: remat-mincut: @climb
// HEUR-SPLIT: 0  %arg5                tensor<1024xf32>                 4096  primal
// HEUR-SPLIT-NEXT: 1  rt.mul               tensor<1024xf32>                 4096  budget
// HEUR-SPLIT-NEXT: 2  rt.mul               tensor<1024xf32>                 4096  budget
// HEUR-SPLIT-NEXT: 3  rt.mul               tensor<256xf32>                  1024  budget
// HEUR-SPLIT-NEXT: saved bytes: 13312

func.func @climb(%w: tensor<1024xf32>, %q1: tensor<1024xf32>, %q2: tensor<1024xf32>,
                 %u1: tensor<256xf32>, %u2: tensor<256xf32>, %v: tensor<1024xf32>,
                 %g: tensor<1024xf32> {rt.tangent}, %h: tensor<256xf32> {rt.tangent})
    -> (tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<256xf32>)
    attributes {rt.num_outputs = 2 : i64} {
  %s = "rt.exp"(%w) : (tensor<1024xf32>) -> tensor<1024xf32>
  %p1 = "rt.mul"(%s, %q1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %p2 = "rt.mul"(%s, %q2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %x = "rt.mul"(%u1, %u2) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %y = "rt.exp"(%v) : (tensor<1024xf32>) -> tensor<1024xf32>
  %o1 = "rt.add"(%p1, %p2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %o2 = "rt.neg"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  // backward: reads p1, p2, y and x
  %t1 = "rt.mul"(%g, %p1) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t2 = "rt.mul"(%t1, %p2) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t3 = "rt.mul"(%t2, %y) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %t4 = "rt.mul"(%h, %x) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %o1, %o2, %t3, %t4 : tensor<1024xf32>, tensor<256xf32>, tensor<1024xf32>, tensor<256xf32>
}
