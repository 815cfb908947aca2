// --remat-autodiff through the indexing ops (docs/design.md, "Indexing ops"): gather's
// VJP w.r.t. its source is a scatter_add of the cotangent into zeros (no gradient to the
// indices); scatter_add's is the cotangent for the base and a gather of it for the
// updates; argmax has none. Checked against central differences. Random integer inputs
// are drawn from [-8, 8): each function adds 8 to its raw indices and every indexed dim
// has size 16 (15 draws from 16 values repeat indices in these seeds).
// RUN: remat-opt --remat-autodiff --remat-verify %s > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: remat-run %t.mlir --check-fd gather --seed 1 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd gather --seed 2 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd scatter --seed 3 | FileCheck %s --check-prefix=FD2
// RUN: remat-run %t.mlir --check-fd scatter --seed 4 | FileCheck %s --check-prefix=FD2
// RUN: remat-run %t.mlir --check-fd max_pick --seed 5 | FileCheck %s --check-prefix=FD
// RUN: remat-run %t.mlir --check-fd embedding --seed 6 | FileCheck %s --check-prefix=FD
// FD: gradient #0 (argument #0, {{[0-9]+}} elements): {{.*}}: ok
// FD-NEXT: gradient elements agree with central differences
// FD2: gradient #0 (argument #0, 48 elements): {{.*}}: ok
// FD2-NEXT: gradient #1 (argument #2, 15 elements): {{.*}}: ok
// FD2-NEXT: 63 gradient elements agree with central differences
//
// A wrong VJP fails: the gather's gradient scattered along the wrong dim (here the
// indices address dim 0 of a [16, 16] source; scattering along dim 1 is still well
// typed).
// RUN: not remat-run %s --check-fd wrong_vjp --seed 1 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: error: 1 of 1 gradients of '@wrong_vjp' disagree with finite differences

func.func @gather(%src: tensor<16x3xf32>, %raw: tensor<5x3xi64>) -> tensor<5x3xf32> attributes {rt.autodiff} {
  %c8 = arith.constant 8 : i64
  %idx = "rt.add"(%raw, %c8) : (tensor<5x3xi64>, i64) -> tensor<5x3xi64>
  %g = "rt.gather"(%src, %idx) {dim = 0 : i64} : (tensor<16x3xf32>, tensor<5x3xi64>) -> tensor<5x3xf32>
  %y = "rt.tanh"(%g) : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

func.func @scatter(%base: tensor<3x16xf32>, %raw: tensor<3x5xi64>, %upd: tensor<3x5xf32>) -> tensor<3x16xf32> attributes {rt.autodiff} {
  %c8 = arith.constant 8 : i64
  %idx = "rt.add"(%raw, %c8) : (tensor<3x5xi64>, i64) -> tensor<3x5xi64>
  %s = "rt.scatter_add"(%base, %idx, %upd) {dim = 1 : i64} : (tensor<3x16xf32>, tensor<3x5xi64>, tensor<3x5xf32>) -> tensor<3x16xf32>
  %y = "rt.tanh"(%s) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  return %y : tensor<3x16xf32>
}

// max.dim's values through its indices: x[i, argmax(x[i, :])].
func.func @max_pick(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {rt.autodiff} {
  %a = "rt.argmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  %i = "rt.reshape"(%a) : (tensor<4xi64>) -> tensor<4x1xi64>
  %m = "rt.gather"(%x, %i) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x1xi64>) -> tensor<4x1xf32>
  %y = "rt.mul"(%m, %m) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// An embedding: ids [2, 3] -> [6, 1] -> broadcast [6, 4] -> gather dim 0 of W [16, 4].
func.func @embedding(%w: tensor<16x4xf32> {rt.param}, %raw: tensor<2x3xi64>) -> tensor<f32> attributes {rt.autodiff} {
  %c8 = arith.constant 8 : i64
  %ids = "rt.add"(%raw, %c8) : (tensor<2x3xi64>, i64) -> tensor<2x3xi64>
  %r = "rt.reshape"(%ids) : (tensor<2x3xi64>) -> tensor<6x1xi64>
  %b = "rt.broadcast"(%r) {dims = array<i64: 0, 1>} : (tensor<6x1xi64>) -> tensor<6x4xi64>
  %e = "rt.gather"(%w, %b) {dim = 0 : i64} : (tensor<16x4xf32>, tensor<6x4xi64>) -> tensor<6x4xf32>
  %h = "rt.reshape"(%e) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %t = "rt.tanh"(%h) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s = "rt.sum"(%t) {dims = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// A joint function written by hand with a wrong VJP (scatter along dim 1, not 0).
func.func @wrong_vjp(%src: tensor<16x16xf32>, %raw: tensor<5x16xi64>, %g0: tensor<5x16xf32> {rt.tangent}) -> (tensor<5x16xf32>, tensor<16x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %c8 = arith.constant 8 : i64
  %idx = "rt.add"(%raw, %c8) : (tensor<5x16xi64>, i64) -> tensor<5x16xi64>
  %g = "rt.gather"(%src, %idx) {dim = 0 : i64} : (tensor<16x16xf32>, tensor<5x16xi64>) -> tensor<5x16xf32>
  %z = "rt.full"() {value = 0.0 : f32} : () -> tensor<16x16xf32>
  %t = "rt.transpose"(%g0) {perm = array<i64: 1, 0>} : (tensor<5x16xf32>) -> tensor<16x5xf32>
  %it = "rt.transpose"(%idx) {perm = array<i64: 1, 0>} : (tensor<5x16xi64>) -> tensor<16x5xi64>
  %d = "rt.scatter_add"(%z, %it, %t) {dim = 1 : i64} : (tensor<16x16xf32>, tensor<16x5xi64>, tensor<16x5xf32>) -> tensor<16x16xf32>
  return %g, %d : tensor<5x16xf32>, tensor<16x16xf32>
}

// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[SRC:[^:]*]]: tensor<16x3xf32>, %[[RAW:[^:]*]]: tensor<5x3xi64>, %[[G0:[^:]*]]: tensor<5x3xf32> {rt.tangent}) -> (tensor<5x3xf32>, tensor<16x3xf32>)
// CHECK:      %[[IDX:.*]] = "rt.add"(%[[RAW]],
// CHECK-NEXT: %[[G:.*]] = "rt.gather"(%[[SRC]], %[[IDX]]) {dim = 0 : i64}
// CHECK:      %[[DG:.*]] = "rt.mul"(%[[G0]],
// CHECK-NEXT: %[[Z:.*]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<16x3xf32>
// CHECK-NEXT: %[[DS:.*]] = "rt.scatter_add"(%[[Z]], %[[IDX]], %[[DG]]) {dim = 0 : i64} : (tensor<16x3xf32>, tensor<5x3xi64>, tensor<5x3xf32>) -> tensor<16x3xf32>
// CHECK-NEXT: return %{{.*}}, %[[DS]] : tensor<5x3xf32>, tensor<16x3xf32>
//
// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: %[[BASE:[^:]*]]: tensor<3x16xf32>, %[[RAW:[^:]*]]: tensor<3x5xi64>, %[[UPD:[^:]*]]: tensor<3x5xf32>, %[[G0:[^:]*]]: tensor<3x16xf32> {rt.tangent}) -> (tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x5xf32>)
// CHECK:      %[[IDX:.*]] = "rt.add"(%[[RAW]],
// CHECK-NEXT: "rt.scatter_add"(%[[BASE]], %[[IDX]], %[[UPD]]) {dim = 1 : i64}
// CHECK:      %[[DS:.*]] = "rt.mul"(%[[G0]],
// CHECK-NEXT: %[[DU:.*]] = "rt.gather"(%[[DS]], %[[IDX]]) {dim = 1 : i64} : (tensor<3x16xf32>, tensor<3x5xi64>) -> tensor<3x5xf32>
// CHECK-NEXT: return %{{.*}}, %[[DS]], %[[DU]] : tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x5xf32>
//
// argmax passes no gradient: max_pick's gradient is the scatter of the picked values'.
// CHECK-LABEL: func.func @max_pick(
// CHECK:      %[[A:.*]] = "rt.argmax"
// CHECK-NEXT: %[[I:.*]] = "rt.reshape"(%[[A]])
// CHECK:      "rt.scatter_add"(%{{.*}}, %[[I]], %{{.*}}) {dim = 1 : i64}
// CHECK-NOT:  "rt.argmax"
// CHECK:      return
