// memory-budget on a dropout model: the mask is recomputed from the seed and the offset,
// never fixed. The Philox offset of the second dropout is offset + 1 (arith.addi, as
// PyTorch's importer writes it): scalar arith is recomputable like any cheap op, so the
// masks' chains (uniform_philox -> lt -> convert) are ordinary candidates' chains.
//
// @drop: h = tanh(x); m1 = convert(lt(uniform(seed, offset), 0.5)); d1 = h * m1 * 2;
// k = exp(d1); m2 from uniform(seed, offset + 1); y = k * m2 * 2. The backward reads
// h, m1, k and m2 (64 x f32 = 256 bytes each).
// Budget 0: nothing is fixed (the masks were: 512 bytes, "must be saved"), nothing is
// saved; every candidate and every op of its chain (the uniform draws and the offset
// addition included) is prefer_recompute.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// Then the min-cut saves only primals: x, the seed and the offset. The backward draws
// both masks again.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=SPLIT
// And the split runs: the recomputed masks are bit for bit the ones the forward drew.
// RUN: remat-opt --remat-checkpoint=memory-budget=0 --remat-mincut %s -o %t.mlir
// RUN: remat-run --check-split drop --split %t.mlir %s --seed 3 | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @drop(
// CHECK: "rt.tanh"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: "rt.uniform_philox"(%arg1, %arg2) {{.*}}rt.policy = "prefer_recompute"
// CHECK-NEXT: "rt.lt"({{.*}}rt.policy = "prefer_recompute"
// CHECK-NEXT: "rt.convert"({{.*}}rt.policy = "prefer_recompute"
// CHECK: arith.addi %arg2, %{{.*}} : i64
// CHECK-NEXT: "rt.uniform_philox"(%arg1, %{{.*}}) {{.*}}rt.policy = "prefer_recompute"
// CHECK-NEXT: "rt.lt"({{.*}}rt.policy = "prefer_recompute"
// CHECK-NEXT: "rt.convert"({{.*}}rt.policy = "prefer_recompute"
// CHECK-NOT: must_save

// REPORT: budget: 0 bytes: 0 fixed, 0 chosen among 4 candidates

// SPLIT-LABEL: remat-mincut: @drop -> @drop_fwd, @drop_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg0                tensor<64xf32>                    256  primal
// SPLIT-NEXT: 1  %arg1                i64                                 8  primal
// SPLIT-NEXT: 2  %arg2                i64                                 8  primal
// SPLIT-NEXT: saved bytes: 272
// SPLIT-LABEL: func.func @drop_bwd(
// SPLIT: "rt.uniform_philox"
// SPLIT: "rt.uniform_philox"

// EXEC: random tensors recomputed in the backward: 2, 2 bit-exact with the joint function's
// EXEC-NEXT: ok:

func.func @drop(%x: tensor<64xf32>, %seed: i64, %offset: i64, %g: tensor<64xf32> {rt.tangent})
    -> (tensor<64xf32>, tensor<64xf32>) attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %one = arith.constant 1 : i64
  %h = "rt.tanh"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %u1 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<64xf32>
  %b1 = "rt.lt"(%u1, %half) : (tensor<64xf32>, f32) -> tensor<64xi1>
  %m1 = "rt.convert"(%b1) : (tensor<64xi1>) -> tensor<64xf32>
  %e1 = "rt.mul"(%h, %m1) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %d1 = "rt.mul"(%e1, %two) : (tensor<64xf32>, f32) -> tensor<64xf32>
  %k = "rt.exp"(%d1) : (tensor<64xf32>) -> tensor<64xf32>
  %off2 = "arith.addi"(%offset, %one) : (i64, i64) -> i64
  %u2 = "rt.uniform_philox"(%seed, %off2) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<64xf32>
  %b2 = "rt.lt"(%u2, %half) : (tensor<64xf32>, f32) -> tensor<64xi1>
  %m2 = "rt.convert"(%b2) : (tensor<64xi1>) -> tensor<64xf32>
  %e2 = "rt.mul"(%k, %m2) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %y = "rt.mul"(%e2, %two) : (tensor<64xf32>, f32) -> tensor<64xf32>
  // backward: dy -> through the second dropout, exp, the first dropout, tanh
  %g1 = "rt.mul"(%g, %m2) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %g2 = "rt.mul"(%g1, %two) : (tensor<64xf32>, f32) -> tensor<64xf32>
  %g3 = "rt.mul"(%g2, %k) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %g4 = "rt.mul"(%g3, %m1) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %g5 = "rt.mul"(%g4, %two) : (tensor<64xf32>, f32) -> tensor<64xf32>
  %hh = "rt.mul"(%h, %h) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %g6 = "rt.mul"(%g5, %hh) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %dx = "rt.sub"(%g5, %g6) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %y, %dx : tensor<64xf32>, tensor<64xf32>
}
