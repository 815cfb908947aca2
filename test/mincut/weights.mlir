// Weights: rt.param arguments (params-free) and 0-d values (scalar-factor).
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut=params-free=false %s | FileCheck %s --check-prefix=NOFREE
// RUN: remat-opt --remat-mincut=scalar-factor=100 %s | FileCheck %s --check-prefix=SF100
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
//
// @params: bf16 copies of an input x and of a parameter w (the "fp8 weight copies saved"
// problem). The backward reads wb and xb (4x8 bf16 = 64 bytes each); x and w are 128.
//   params-free (default): w weighs 0, so the backward recasts w: saved {w, xb}, flow 64,
//   rt.saved_bytes = 128 + 64 = 192 (w is alive for the whole step anyway: the report
//   shows it apart).
//   params-free=false: w = 128 > wb = 64: saved {wb, xb}, flow 128, rt.saved_bytes = 128.
// @zero_d: m = amax(x) is 0-d (4 bytes x 0.1 = 0.4); the backward reads its broadcast
//   (64). amax is banned and the output needs it, so the cut is m or mb: m (0.4) by
//   default; with scalar-factor=100 m weighs 400 and mb (64) is saved instead.

// REPORT-LABEL: remat-mincut: @params -> @params_fwd, @params_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg1                tensor<4x8xf32>                   128  primal   weights.mlir:
// REPORT-NEXT:    1  rt.convert           tensor<4x8xbf16>                   64  cut      weights.mlir:
// REPORT-NEXT:  saved bytes: 192 (rt.param: 128; no-remat baseline: 128, 150.0%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 0)
// REPORT-NEXT:  max-flow value: 64
// REPORT-LABEL: remat-mincut: @zero_d -> @zero_d_fwd, @zero_d_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  rt.amax              tensor<f32>                         4  cut      weights.mlir:
// REPORT-NEXT:  saved bytes: 4 (rt.param: 0; no-remat baseline: 64, 6.2%)
// REPORT-NEXT:  recomputed ops: 1 (moved to the backward: 0)
// REPORT-NEXT:  max-flow value: 0.4

func.func @params(%x: tensor<4x8xf32>, %w: tensor<4x8xf32> {rt.param},
                  %g: tensor<4x8xbf16> {rt.tangent})
    -> (tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.num_outputs = 1 : i64} {
  %wb = "rt.convert"(%w) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %xb = "rt.convert"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %y = "rt.mul"(%xb, %wb) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %gxb = "rt.mul"(%g, %wb) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %gx = "rt.convert"(%gxb) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  %gwb = "rt.mul"(%g, %xb) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %gw = "rt.convert"(%gwb) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  return %y, %gx, %gw : tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @zero_d(%x: tensor<16xf32>, %g: tensor<16xf32> {rt.tangent})
    -> (tensor<16xf32>, tensor<16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %m = "rt.amax"(%x) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<f32>
  %mb = "rt.broadcast"(%m) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
  %o = "rt.div"(%x, %mb) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %gx = "rt.div"(%g, %mb) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %o, %gx : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @params_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32> {rt.param}) -> (tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xbf16>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 192 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.convert"(%[[ARG1]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.convert"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V0]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:  return %[[V2]], %[[ARG1]], %[[V1]] : tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xbf16>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @params_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32> {rt.param}, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xbf16> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.forward = @params_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.convert"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[V0]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.convert"(%[[V1]]) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG1]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:  %[[V4:[a-z0-9_]+]] = "rt.convert"(%[[V3]]) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[V2]], %[[V4]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @zero_d_fwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<16xf32>, tensor<f32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 4 : i64} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.amax"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<f32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.broadcast"(%[[V0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.div"(%[[ARG0]], %[[V1]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:  return %[[V2]], %[[V0]] : tensor<16xf32>, tensor<f32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @zero_d_bwd(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<f32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32> {rt.tangent}) -> tensor<16xf32> attributes {rt.forward = @zero_d_fwd} {
// CHECK-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.div"(%[[ARG1]], %[[V0]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:  return %[[V1]] : tensor<16xf32>
// CHECK-NEXT:  }

// NOFREE-LABEL: func.func @params_fwd(
// NOFREE-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xf32> {rt.param}) -> (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 128 : i64} {
// NOFREE-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.convert"(%[[ARG1]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// NOFREE-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.convert"(%[[ARG0]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// NOFREE-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[V1]], %[[V0]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// NOFREE-NEXT:  return %[[V2]], %[[V0]], %[[V1]] : tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>
// NOFREE-NEXT:  }
// NOFREE-LABEL: func.func @params_bwd(
// NOFREE-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<4x8xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<4x8xbf16> {rt.tangent}) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {rt.forward = @params_fwd} {
// NOFREE-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG0]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// NOFREE-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.convert"(%[[V0]]) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// NOFREE-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.mul"(%[[ARG2]], %[[ARG1]]) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// NOFREE-NEXT:  %[[V3:[a-z0-9_]+]] = "rt.convert"(%[[V2]]) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// NOFREE-NEXT:  return %[[V1]], %[[V3]] : tensor<4x8xf32>, tensor<4x8xf32>
// NOFREE-NEXT:  }
// NOFREE-LABEL: func.func @zero_d_fwd(
// NOFREE-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<16xf32>, tensor<f32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 4 : i64} {
// NOFREE-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.amax"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<f32>
// NOFREE-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.broadcast"(%[[V0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
// NOFREE-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.div"(%[[ARG0]], %[[V1]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// NOFREE-NEXT:  return %[[V2]], %[[V0]] : tensor<16xf32>, tensor<f32>
// NOFREE-NEXT:  }
// NOFREE-LABEL: func.func @zero_d_bwd(
// NOFREE-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<f32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32> {rt.tangent}) -> tensor<16xf32> attributes {rt.forward = @zero_d_fwd} {
// NOFREE-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
// NOFREE-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.div"(%[[ARG1]], %[[V0]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// NOFREE-NEXT:  return %[[V1]] : tensor<16xf32>
// NOFREE-NEXT:  }
// SF100-LABEL: func.func @zero_d_fwd(
// SF100-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 64 : i64} {
// SF100-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.amax"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<f32>
// SF100-NEXT:  %[[V1:[a-z0-9_]+]] = "rt.broadcast"(%[[V0]]) {dims = array<i64>} : (tensor<f32>) -> tensor<16xf32>
// SF100-NEXT:  %[[V2:[a-z0-9_]+]] = "rt.div"(%[[ARG0]], %[[V1]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// SF100-NEXT:  return %[[V2]], %[[V1]] : tensor<16xf32>, tensor<16xf32>
// SF100-NEXT:  }
// SF100-LABEL: func.func @zero_d_bwd(
// SF100-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32> {rt.tangent}) -> tensor<16xf32> attributes {rt.forward = @zero_d_fwd} {
// SF100-NEXT:  %[[V0:[a-z0-9_]+]] = "rt.div"(%[[ARG1]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// SF100-NEXT:  return %[[V0]] : tensor<16xf32>
// SF100-NEXT:  }
