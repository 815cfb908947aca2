// memory-budget and ops outside rt: a candidate whose recompute would run a tensor op that
// is neither rt nor arith is fixed (saved whatever the choice: the min-cut refuses such
// ops), and the infeasible-budget error names it with that reason; a tensor op of arith
// is a chain op like an rt op and fixes nothing.
//
// @foreign (all values 256 x f32 = 1024 bytes): t = math.exp(x) (no rt op), c = neg(t),
// e = tanh(x) (the output); the backward reads c and e. c's chain would run math.exp:
// c is fixed, 1024 bytes. Budget 1023 is an error that names c, its location and the
// reason; budget 1024 saves c (reason budget) and recomputes e.
// RUN: not remat-opt --split-input-file --remat-checkpoint=memory-budget=1023 %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: remat-opt --split-input-file --remat-checkpoint=memory-budget=1024 %s | FileCheck %s --check-prefix=FITS
// RUN: remat-opt --split-input-file --remat-checkpoint=memory-budget=1024 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// @arith: the same with t = arith.addf(x, x) on tensors: c is an ordinary candidate whose
// chain runs addf. Budget 0 fixes nothing and saves nothing; the min-cut recomputes
// addf and neg in the backward and saves only x. (At budget 0 @foreign's part of the
// file fails as above, hence `not`; the min-cut refuses math.exp anyway.)
// RUN: not remat-opt --split-input-file --remat-checkpoint=memory-budget=0 %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not remat-opt --split-input-file --remat-checkpoint=memory-budget=0 --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ZERO-REPORT
// RUN: not remat-opt --split-input-file --remat-checkpoint=memory-budget=0 --remat-mincut --remat-report %s 2>&1 | FileCheck %s --check-prefix=ZERO-SPLIT

// ERR: budget-foreign.mlir:[[@LINE+9]]:1: error: memory-budget=1023 is infeasible for '@foreign': 1024 bytes must be saved whatever the choice (save tags of the user, fsdp=save and always-save; collective results and those of rt.extern ops with recompute=forward; values whose recompute needs one of those or a non-rt op): rt.neg at budget-foreign.mlir:[[@LINE+12]]:8 (its recompute needs a non-rt op, 1024 bytes){{$}}

// FITS-LABEL: func.func @foreign(
// FITS-NEXT: math.exp %arg0 : tensor<256xf32>
// FITS-NEXT: "rt.neg"(%{{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// FITS-NEXT: "rt.tanh"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}

// REPORT-LABEL: remat-checkpoint: @foreign
// REPORT: budget: 1024 bytes: 1024 fixed, 0 chosen among 1 candidate
func.func @foreign(%x: tensor<256xf32>, %g: tensor<256xf32> {rt.tangent})
    -> (tensor<256xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %t = math.exp %x : tensor<256xf32>
  %c = "rt.neg"(%t) : (tensor<256xf32>) -> tensor<256xf32>
  %e = "rt.tanh"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %d = "rt.mul"(%g, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %d2 = "rt.mul"(%d, %e) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e, %d2 : tensor<256xf32>, tensor<256xf32>
}

// -----

// ZERO-LABEL: func.func @arith(
// ZERO-NEXT: arith.addf %arg0, %arg0 : tensor<256xf32>
// ZERO-NEXT: "rt.neg"(%{{.*}}) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ZERO-NEXT: "rt.tanh"(%arg0) {rt.ac_reason = "budget", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ZERO-NOT: must_save

// ZERO-REPORT-LABEL: remat-checkpoint: @arith
// ZERO-REPORT: budget: 0 bytes: 0 fixed, 0 chosen among 2 candidates

// ZERO-SPLIT-LABEL: remat-mincut: @arith -> @arith_fwd, @arith_bwd
// ZERO-SPLIT-NEXT: #  value
// ZERO-SPLIT-NEXT: 0  %arg0                tensor<256xf32>                  1024  primal
// ZERO-SPLIT-NEXT: saved bytes: 1024
// ZERO-SPLIT-LABEL: func.func @arith_bwd(
// ZERO-SPLIT-NEXT: arith.addf %arg0, %arg0 : tensor<256xf32>
// ZERO-SPLIT-NEXT: "rt.neg"
func.func @arith(%x: tensor<256xf32>, %g: tensor<256xf32> {rt.tangent})
    -> (tensor<256xf32>, tensor<256xf32>) attributes {rt.num_outputs = 1 : i64} {
  %t = arith.addf %x, %x : tensor<256xf32>
  %c = "rt.neg"(%t) : (tensor<256xf32>) -> tensor<256xf32>
  %e = "rt.tanh"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %d = "rt.mul"(%g, %c) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %d2 = "rt.mul"(%d, %e) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %e, %d2 : tensor<256xf32>, tensor<256xf32>
}
