// User tags (rt.policy without rt.ac_reason, with or without the user's own
// rt.ac_region) survive every mode; tags an earlier run wrote (rt.ac_reason present) are
// the pass's own: a later run recomputes them.
//
// %ww: the user saves an FSDP-gathered weight (the FSDP rule still tags the gather and
// the reshape around it); %e prefer_save; %y a matmul the user recomputes; %y2 a
// PyTorch-style region tag; %n carries a stale tag of an earlier run (must_save, stage 1).
//
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s --check-prefixes=CHECK,STALE
// RUN: remat-opt --remat-checkpoint=ac=auto %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=ac=0.000001 %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=fsdp=save %s | FileCheck %s --check-prefixes=CHECK,STALE
// RUN: remat-opt --remat-checkpoint=fsdp=off,save-every=1 %s | FileCheck %s --check-prefixes=CHECK,STALE
// RUN: remat-opt --remat-checkpoint=save-ops=rt.matmul,rt.exp,rt.wait,save-every=1 %s | FileCheck %s --check-prefixes=CHECK,STALE
// RUN: remat-opt --remat-checkpoint=memory-budget=1000000 %s | FileCheck %s
//
// A second run with other options removes the first run's tags, keeps the user's:
// RUN: remat-opt --remat-checkpoint=ac=0.000001 %s | remat-opt --remat-checkpoint=fsdp=off,save-ops=none | FileCheck %s --check-prefixes=CHECK,CLEAR
// The min-cut honours the user's save tags (the report's "why" is "policy" for them):
// RUN: remat-opt --remat-checkpoint --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: remat-mincut: @tagged -> @tagged_fwd, @tagged_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg1                tensor<2048xf32>                 8192  primal
// SPLIT-NEXT: 1  %arg2                tensor<64x64xf32>               16384  primal
// SPLIT-NEXT: 2  rt.wait              tensor<4096xf32>                16384  policy
// SPLIT-NEXT: 3  rt.exp               tensor<64x64xf32>               16384  policy
// SPLIT-NEXT: saved bytes: 57344
// Running twice with the same options changes nothing:
// RUN: remat-opt --remat-checkpoint=ac=0.000001 %s > %t.1
// RUN: remat-opt --remat-checkpoint=ac=0.000001 %t.1 > %t.2
// RUN: diff %t.1 %t.2

// CHECK-LABEL: func.func @tagged(
// CHECK: "rt.wait"(%{{.*}}) {rt.policy = "must_save"} :
// CHECK: "rt.exp"(%{{.*}}) {rt.policy = "prefer_save"} :
// CHECK: "rt.matmul"(%{{.*}}) {rt.policy = "must_recompute"} :
// CHECK: "rt.matmul"(%{{.*}}) {rt.ac_region = 7 : i64, rt.policy = "prefer_recompute"} :
// STALE-NEXT: %{{.*}} = "rt.neg"(%{{.*}}) : (tensor<64x64xf32>)
// CLEAR-NOT: rt.ac_reason
func.func @tagged(%x: tensor<64x64xf32>, %w: tensor<2048xf32> {rt.param},
                  %w2: tensor<64x64xf32> {rt.param}, %g: tensor<64x64xf32> {rt.tangent})
    -> (tensor<64x64xf32>, tensor<64x64xf32>) attributes {rt.num_outputs = 1 : i64} {
  %wg = "rt.all_gather"(%w) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<2048xf32>) -> tensor<4096xf32>
  %ww = "rt.wait"(%wg) {rt.policy = "must_save"} : (tensor<4096xf32>) -> tensor<4096xf32>
  %wr = "rt.reshape"(%ww) : (tensor<4096xf32>) -> tensor<64x64xf32>
  %e = "rt.exp"(%x) {rt.policy = "prefer_save"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = "rt.matmul"(%e, %wr) {rt.policy = "must_recompute"} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = "rt.tanh"(%y) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %y2 = "rt.matmul"(%t, %w2) {rt.ac_region = 7 : i64, rt.policy = "prefer_recompute"} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %n = "rt.neg"(%y2) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %o = "rt.add"(%n, %t) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d1 = "rt.mul"(%g, %t) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d2 = "rt.mul"(%d1, %y2) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d3 = "rt.matmul"(%d2, %wr) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d4 = "rt.mul"(%d3, %e) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %o, %d4 : tensor<64x64xf32>, tensor<64x64xf32>
}
