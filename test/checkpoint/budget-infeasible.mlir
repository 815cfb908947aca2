// A budget below what must be saved whatever the choice is an error at the function.
// Here: the user's must_save on %u (4096 bytes, used by the backward), the all_gather
// result %w the backward uses (collectives are not recomputed: 4096 bytes) and the slice
// %v of another gather (recomputing it would need that gather's result, so it is saved:
// 1024 bytes) take 9216 bytes.
// RUN: not remat-opt --remat-checkpoint=memory-budget=9215 %s 2>&1 | FileCheck %s
// RUN: remat-opt --remat-checkpoint=memory-budget=9216 %s | FileCheck %s --check-prefix=FITS
// The count is conservative: the min-cut may run a gather the forward does not need in the
// backward (here %sg, saving its 2048-byte input instead of %w), so the activations it
// saves (u and the slice, 5120 bytes) stay within the budget.
// RUN: remat-opt --remat-checkpoint=memory-budget=9216 --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: remat-mincut: @f -> @f_fwd, @f_bwd
// SPLIT-NEXT: #  value
// SPLIT-NEXT: 0  %arg1                tensor<512xf32>                  2048  primal
// SPLIT-NEXT: 1  rt.exp               tensor<1024xf32>                 4096  policy
// SPLIT-NEXT: 2  rt.slice             tensor<256xf32>                  1024  budget
// SPLIT-NEXT: saved bytes: 7168

// The error names every reason a value can be fixed, then each fixed value: its op,
// location, reason and bytes.
// CHECK: budget-infeasible.mlir:[[@LINE+1]]:1: error: memory-budget=9215 is infeasible for '@f': 9216 bytes must be saved whatever the choice (save tags of the user, fsdp=save and always-save; collective results and those of rt.extern ops with recompute=forward; values whose recompute needs one of those or a non-rt op): rt.exp at budget-infeasible.mlir:[[@LINE+12]]:8 (user save tag, 4096 bytes); rt.wait at budget-infeasible.mlir:[[@LINE+14]]:8 (collective result, 4096 bytes); rt.slice at budget-infeasible.mlir:[[@LINE+17]]:8 (its recompute needs a collective result, 1024 bytes){{$}}
func.func @f(%x: tensor<1024xf32>, %s: tensor<512xf32>, %s2: tensor<512xf32>,
             %g: tensor<1024xf32> {rt.tangent})
    -> (tensor<1024xf32>, tensor<1024xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  // FITS: "rt.exp"(%arg0) {rt.policy = "must_save"}
  // FITS-NEXT: "rt.all_gather"(%arg1) {dim = 0 : i64, group = "sp", group_size = 2 : i64}
  // FITS-NEXT: "rt.wait"(%{{.*}}) :
  // FITS-NEXT: "rt.all_gather"(%arg2) {dim = 0 : i64, group = "sp", group_size = 2 : i64}
  // FITS-NEXT: "rt.wait"(%{{.*}}) :
  // FITS-NEXT: "rt.slice"(%{{.*}}) {limit = array<i64: 256>, rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save", start = array<i64: 0>, stride = array<i64: 1>}
  // FITS-NEXT: "rt.neg"(%{{.*}}) :
  // FITS-NOT: rt.policy
  %u = "rt.exp"(%x) {rt.policy = "must_save"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %sg = "rt.all_gather"(%s) {group = "sp", group_size = 2 : i64, dim = 0 : i64} : (tensor<512xf32>) -> tensor<1024xf32>
  %w = "rt.wait"(%sg) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sg2 = "rt.all_gather"(%s2) {group = "sp", group_size = 2 : i64, dim = 0 : i64} : (tensor<512xf32>) -> tensor<1024xf32>
  %w2 = "rt.wait"(%sg2) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v = "rt.slice"(%w2) {start = array<i64: 0>, limit = array<i64: 256>, stride = array<i64: 1>} : (tensor<1024xf32>) -> tensor<256xf32>
  %n = "rt.neg"(%u) : (tensor<1024xf32>) -> tensor<1024xf32>
  %d = "rt.mul"(%g, %u) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %d2 = "rt.mul"(%d, %w) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %gs = "rt.slice"(%g) {start = array<i64: 0>, limit = array<i64: 256>, stride = array<i64: 1>} : (tensor<1024xf32>) -> tensor<256xf32>
  %d3 = "rt.mul"(%gs, %v) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %n, %d2, %d3 : tensor<1024xf32>, tensor<1024xf32>, tensor<256xf32>
}
