// memory-budget with a capacity no dense table over bytes could hold: sizes whose gcd is
// 4 bytes and a budget of 20971528 bytes (5242882 units). The merge works on the
// (weight, value) pairs the choices reach, not on every byte count, so it stays exact.
//   a = add(p, q)  3145729 x f32 = 12582916 bytes, cost 3 x 12582916 = 37748748
//   b = exp(xb)    2621441 x f32 = 10485764 bytes, cost 2 x 10485764 = 20971528
//   c = exp(xc)    10485764 bytes, cost 20971528
// Budget 20971528 = b + c exactly. Climbing by value per byte (a 3, b and c 2) keeps a
// and then has 8388612 bytes left: recomputes b and c (41943056). Exact: keeps b and c,
// recomputes a (37748748). The heuristic (budget-greedy) also tries the most valuable
// option that fits alone first (both copies of b and c: 41943056 > a's 37748748) and
// keeps b and c as well.
// RUN: remat-opt --remat-checkpoint=memory-budget=20971528 %s | FileCheck %s --check-prefix=EXACT
// RUN: remat-opt --remat-checkpoint=memory-budget=20971528,budget-greedy=true %s | FileCheck %s --check-prefix=EXACT

// EXACT: "rt.add"(%arg0, %arg1) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// EXACT-NEXT: "rt.exp"(%arg2) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// EXACT-NEXT: "rt.exp"(%arg3) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
func.func @large(%p: tensor<3145729xf32>, %q: tensor<3145729xf32>, %xb: tensor<2621441xf32>,
                 %xc: tensor<2621441xf32>, %ga: tensor<3145729xf32> {rt.tangent},
                 %gb: tensor<2621441xf32> {rt.tangent}, %gc: tensor<2621441xf32> {rt.tangent})
    -> (tensor<3145729xf32>, tensor<2621441xf32>, tensor<2621441xf32>,
        tensor<3145729xf32>, tensor<2621441xf32>, tensor<2621441xf32>)
    attributes {rt.num_outputs = 3 : i64} {
  %a = "rt.add"(%p, %q) : (tensor<3145729xf32>, tensor<3145729xf32>) -> tensor<3145729xf32>
  %b = "rt.exp"(%xb) : (tensor<2621441xf32>) -> tensor<2621441xf32>
  %c = "rt.exp"(%xc) : (tensor<2621441xf32>) -> tensor<2621441xf32>
  %da = "rt.mul"(%ga, %a) : (tensor<3145729xf32>, tensor<3145729xf32>) -> tensor<3145729xf32>
  %db = "rt.mul"(%gb, %b) : (tensor<2621441xf32>, tensor<2621441xf32>) -> tensor<2621441xf32>
  %dc = "rt.mul"(%gc, %c) : (tensor<2621441xf32>, tensor<2621441xf32>) -> tensor<2621441xf32>
  return %a, %b, %c, %da, %db, %dc : tensor<3145729xf32>, tensor<2621441xf32>, tensor<2621441xf32>,
                                      tensor<3145729xf32>, tensor<2621441xf32>, tensor<2621441xf32>
}
