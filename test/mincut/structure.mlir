// What the split keeps and drops, beyond the cut itself.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// The joint function is gone:
// RUN: remat-opt --remat-mincut %s | FileCheck %s --check-prefix=GONE
// GONE-NOT: @shapes(
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// - @other (no rt.num_outputs) is left alone.
// - Forward values that only feed the backward (sum, broadcast) are candidates like any
//   other; the sum is banned but the forward outputs do not need it, so it gets no source
//   edge and the cut places it: saving x (128, also covering exp) beats saving exp(x) and
//   the 16-byte sum (144), so sum and broadcast run once, in the backward ("moved").
// - The arith scalar s * s (4 bytes x 0.1) ties with s; the cut closest to the sink saves
//   s * s, which the forward then computes only to save it. Flow 128 + 0.4 = 128.4;
//   rt.saved_bytes = 128 + 4 = 132.
// - Dead ops (exp(y), g2 * g2) are dropped; the constant gradient rt.full is recomputed in
//   the backward; an argument returned as a forward output (y) and a tangent returned as
//   a gradient (g2) stay plain block arguments.
// - Visibility, discardable function attributes (rt.ac_region) and result attributes
//   (rt.name) carry over to both functions; rt.num_outputs only to the forward.

// REPORT:      remat-mincut: @shapes -> @shapes_fwd, @shapes_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<4x8xf32>                   128  primal   structure.mlir:
// REPORT-NEXT:    1  arith.mulf           f32                                 4  cut      structure.mlir:
// REPORT-NEXT:  saved bytes: 132 (rt.param: 0; no-remat baseline: 260, 50.8%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 2)
// REPORT-NEXT:  max-flow value: 128.4

func.func @other(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "rt.exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @shapes(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %s: f32,
                          %g1: tensor<4x8xf32> {rt.tangent}, %g2: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32> {rt.name = "out"}, tensor<4x8xf32>, tensor<4x8xf32> {rt.name = "dx"},
        tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 2 : i64, rt.ac_region = 3 : i64} {
  %o1 = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %dead = "rt.exp"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %sum = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %sb = "rt.broadcast"(%sum) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %s2 = arith.mulf %s, %s : f32
  %a = "rt.mul"(%g1, %o1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.mul"(%g1, %sb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "rt.mul"(%b, %s2) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %gx = "rt.add"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %deadbw = "rt.mul"(%g2, %g2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = "rt.full"() {value = 0.0 : f32} : () -> tensor<4x8xf32>
  return %o1, %y, %gx, %zero, %g2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @other(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  return %[[V0]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @shapes_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG2:[a-z0-9_]+]]: f32) -> (tensor<4x8xf32> {rt.name = "out"}, tensor<4x8xf32>, tensor<4x8xf32>, f32) attributes {rt.ac_region = 3 : i64, rt.num_outputs = 2 : i64, rt.saved_bytes = 132 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = arith.mulf %[[ARG2]], %[[ARG2]] : f32
// CHECK-NEXT:  return %[[V0]], %[[ARG1]], %[[ARG0]], %[[V1]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @shapes_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: f32, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}, %[[ARG3:[a-z0-9_]+]]: tensor<4x8xf32> {rt.tangent}) -> (tensor<4x8xf32> {rt.name = "dx"}, tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.ac_region = 3 : i64, rt.forward = @shapes_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.exp"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V0]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.sum"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.broadcast"(%[[V2]]) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V3]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V5:[a-z0-9_]+]] = "rt.mul"(%[[V4]], %[[ARG1]]) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V6:[a-z0-9_]+]] = "rt.add"(%[[V1]], %[[V5]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V7:[a-z0-9_]+]] = "rt.full"() {value = 0.000000e+00 : f32} : () -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V6]], %[[V7]], %[[ARG3]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
