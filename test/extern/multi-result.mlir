// An rt.extern of several results (aten.sort: values and i64 indices) of which the
// backward reads only the 2nd, through --remat-mincut and objective=peak: the split, the
// saved set and the peak estimate (docs/design.md, "Ops remat does not model").
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// objective=peak: the exact search and the enumeration of every subset agree.
// RUN: remat-opt --remat-mincut=objective=peak --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PEAK
// RUN: remat-opt --remat-mincut=objective=peak,peak-search=enumerate --remat-report %s 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=PEAK
//
// @moved: only the backward reads the op: it moves there and runs once.
// REPORT-LABEL: remat-mincut: @moved -> @moved_fwd, @moved_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal
// REPORT-NEXT:  saved bytes: 128 (rt.param: 0; no-remat baseline: 256, 50.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 1)
// CHECK-LABEL: func.func @moved_fwd(
// CHECK-NOT:   rt.extern
// CHECK-LABEL: func.func @moved_bwd(
// CHECK-SAME:  %[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[G:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent})
// CHECK-NEXT:  %[[E:[a-z0-9_]+]]:2 = "rt.extern"(%[[X]]) {name = "aten.sort.default"}
// CHECK-NEXT:  "rt.gather"(%[[G]], %[[E]]#1)
//
// @out_first: the output needs the 1st result, so the forward runs the op, which is banned:
// the backward gets the 2nd result saved, never by running the op again (a source edge for
// every result of a banned op the outputs need).
// REPORT-LABEL: remat-mincut: @out_first -> @out_first_fwd, @out_first_bwd
// REPORT:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// REPORT-NEXT:  saved bytes: 256 (rt.param: 0; no-remat baseline: 256, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 0)
// CHECK-LABEL: func.func @out_first_fwd(
// CHECK-NEXT:  %[[E:[a-z0-9_]+]]:2 = "rt.extern"
// CHECK-NEXT:  return %[[E]]#0, %[[E]]#1 : tensor<4x8xf32>, tensor<4x8xi64>
// CHECK-LABEL: func.func @out_first_bwd(
// CHECK-SAME:  %[[I:[a-z0-9_]+]]: tensor<4x8xi64>, %[[G:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent})
// CHECK-NEXT:  "rt.gather"(%[[G]], %[[I]])
//
// @out_first_pure: recompute = "pure": the backward runs the op again from %x (128 bytes
// rather than the 256 of the indices).
// REPORT-LABEL: remat-mincut: @out_first_pure -> @out_first_pure_fwd, @out_first_pure_bwd
// REPORT:         0  %arg0                tensor<4x8xf32>                   128  primal
// REPORT-NEXT:  saved bytes: 128 (rt.param: 0; no-remat baseline: 256, 50.0%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 0)
// CHECK-LABEL: func.func @out_first_pure_bwd(
// CHECK-SAME:  %[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[G:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent})
// CHECK-NEXT:  %[[E:[a-z0-9_]+]]:2 = "rt.extern"(%[[X]]) {name = "aten.sort.default", recompute = "pure"}
// CHECK-NEXT:  "rt.gather"(%[[G]], %[[E]]#1)
//
// @saved_first: nothing the outputs need reads the op, but a saved value (must_save) is
// computed from its 1st result, so the forward runs it: the 2nd result is saved too, not
// recomputed (the results of a banned op are tied to one side of the cut).
// REPORT-LABEL: remat-mincut: @saved_first -> @saved_first_fwd, @saved_first_bwd
// REPORT:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// REPORT-NEXT:    1  rt.exp               tensor<4x8xf32>                   128  policy
// REPORT-NEXT:  saved bytes: 384 (rt.param: 0; no-remat baseline: 384, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 0)
// CHECK-LABEL: func.func @saved_first_fwd(
// CHECK-NEXT:  %[[E:[a-z0-9_]+]]:2 = "rt.extern"
// CHECK-NEXT:  %[[Y:[a-z0-9_]+]] = "rt.exp"(%[[E]]#0)
// CHECK-NEXT:  %[[O:[a-z0-9_]+]] = "rt.neg"
// CHECK-NEXT:  return %[[O]], %[[E]]#1, %[[Y]] :
// CHECK-LABEL: func.func @saved_first_bwd(
// CHECK-NOT:   rt.extern
// CHECK:       return
//
// The peak: the forward holds %x, and both results at the op (128 + 128 + 256 = 512).
// Saving the indices peaks at 512 where moving the sort to the backward holds 640 there.
// PEAK-LABEL: remat-mincut: @moved -> @moved_fwd, @moved_bwd
// PEAK:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// PEAK:         chosen                       512               0
// PEAK-NEXT:    objective=bytes              640               0
// PEAK:         this split                    512          256              2+1  step 0 (forward) aten.sort.default
// PEAK-LABEL: remat-mincut: @out_first -> @out_first_fwd, @out_first_bwd
// PEAK:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// PEAK:         chosen                       512               0
// PEAK-LABEL: remat-mincut: @out_first_pure -> @out_first_pure_fwd, @out_first_pure_bwd
// PEAK:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// PEAK:         chosen                       512               0
// PEAK-NEXT:    objective=bytes              640             512
// PEAK-LABEL: remat-mincut: @saved_first -> @saved_first_fwd, @saved_first_bwd
// PEAK:         0  aten.sort.default#1  tensor<4x8xi64>                   256  cut
// PEAK-NEXT:    1  rt.exp               tensor<4x8xf32>                   128  policy

func.func @moved(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e:2 = "rt.extern"(%x) {name = "aten.sort.default"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  %y = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %gx = "rt.gather"(%g, %e#1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  return %y, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @out_first(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e:2 = "rt.extern"(%x) {name = "aten.sort.default"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  %gx = "rt.gather"(%g, %e#1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  return %e#0, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @out_first_pure(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e:2 = "rt.extern"(%x) {name = "aten.sort.default", recompute = "pure"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  %gx = "rt.gather"(%g, %e#1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  return %e#0, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @saved_first(%x: tensor<4x8xf32>, %g: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e:2 = "rt.extern"(%x) {name = "aten.sort.default"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  %y = "rt.exp"(%e#0) {rt.policy = "must_save"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "rt.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %gy = "rt.gather"(%g, %e#1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  %gx = "rt.mul"(%gy, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %gx : tensor<4x8xf32>, tensor<4x8xf32>
}
