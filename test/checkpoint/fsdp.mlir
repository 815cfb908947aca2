// FSDP all-gathers of parameters (AutoParallel's rule).
//
// @fsdp: the local weight shard (rt.param) -> convert bf16 -> all_gather -> wait ->
// reshape -> matmul; the weight gradient goes through reduce_scatter. A sequence-parallel
// all_gather of an activation (%s, no rt.param) feeds the same layer.
// - fsdp=recompute (default): the cast, the gather, its wait and the single-user chain
//   after it (the reshape) are must_recompute, so the gathered weight is never saved and
//   the backward gathers again. The activation gather carries no tag.
// - fsdp=save: the last non-view op of the chain (the wait; the reshape is a view) is
//   must_save, the views after it prefer_recompute; the cast and gather are left alone.
// - fsdp=off: no FSDP tags.
// The default save list still saves the (only, so 1st) forward matmul in every mode.
//
// @chain: param -> reshape -> convert -> gather -> wait -> convert -> reshape: every
// single-input op from the parameter is part of the chain; with fsdp=save the convert
// after the wait is the last non-view op. The reshape after it has two users, so the
// chain ends there. The gather of rt.mul(%q, %scale) is an FSDP gather too: %scale is a
// scalar, an FX node's immediate, not an input (AutoParallel sees `mul(q, scale)` as a
// single-input node); its wait's user rt.mul(%qw, %qw) reads the wait twice, so the chain
// ends at the wait, which fsdp=save saves. (Two tensor inputs: fsdp-scalar.mlir.)
//
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s --check-prefix=REC
// RUN: remat-opt --remat-checkpoint=fsdp=save %s | FileCheck %s --check-prefix=SAVE
// RUN: remat-opt --remat-checkpoint=fsdp=off %s | FileCheck %s --check-prefix=OFF
//
// Then the min-cut. @fsdp: the backward needs the gathered weight (for dx).
// - recompute: the forward saves only the shard %w (rt.param), xc and y; the backward
//   converts, gathers, waits and reshapes again.
// - save: the forward saves the wait's result (512 x bf16), the backward only reshapes it.
// - off: the min-cut alone saves the reshaped weight (16x32 bf16).
// @chain: recompute saves the parameter shards; save keeps the converted f32 weight
// (512 x f32, the must_save op) and, its wait being must_save, gathers q in the forward,
// where the min-cut saves gq = qw * qw (the gradient it returns, as big as qw) instead of
// recomputing it from the shard; off lets the min-cut save the smaller bf16 wait result.
// RUN: remat-opt --remat-checkpoint --remat-mincut %s | FileCheck %s --check-prefix=REC-SPLIT
// RUN: remat-opt --remat-checkpoint=fsdp=save --remat-mincut %s | FileCheck %s --check-prefix=SAVE-SPLIT
// RUN: remat-opt --remat-checkpoint=fsdp=off --remat-mincut %s | FileCheck %s --check-prefix=OFF-SPLIT

// REC-SPLIT-LABEL: func.func @fsdp_fwd(
// REC-SPLIT: return %10, %arg2, %7, %8 : tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xbf16>, tensor<8x32xbf16>
// REC-SPLIT-LABEL: func.func @fsdp_bwd(%arg0: tensor<256xf32> {rt.param}, %arg1: tensor<8x16xbf16>, %arg2: tensor<8x32xbf16>, %arg3: tensor<8x32xf32> {rt.tangent})
// The weight is gathered again just before the matmul that reads it, after the other
// gradient's reduce_scatter:
// REC-SPLIT-NOT: rt.all_gather
// REC-SPLIT: "rt.reduce_scatter"
// REC-SPLIT: %13 = "rt.convert"(%arg0) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// REC-SPLIT-NEXT: %14 = "rt.all_gather"(%13) {dim = 0 : i64, group = "dp", group_size = 2 : i64, rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// REC-SPLIT-NEXT: %15 = "rt.wait"(%14) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// REC-SPLIT-NEXT: %16 = "rt.reshape"(%15) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"}
// REC-SPLIT-NEXT: "rt.matmul"(%16, %{{.*}}) : (tensor<16x32xbf16>, tensor<32x8xbf16>)
// REC-SPLIT-LABEL: func.func @chain_fwd(
// REC-SPLIT: return %6, %arg0, %arg1, %arg2, %6 :
// REC-SPLIT-LABEL: func.func @chain_bwd(
// REC-SPLIT-NEXT: "rt.mul"(%arg4, %arg3)
// REC-SPLIT-NEXT: "rt.reshape"(%arg0)
// REC-SPLIT-NEXT: "rt.convert"
// REC-SPLIT-NEXT: "rt.all_gather"
// REC-SPLIT-NEXT: "rt.wait"
// REC-SPLIT-NEXT: "rt.convert"
// REC-SPLIT-NEXT: "rt.reshape"

// SAVE-SPLIT-LABEL: func.func @fsdp_fwd(
// SAVE-SPLIT: return %10, %2, %7, %8 : tensor<8x32xf32>, tensor<512xbf16>, tensor<8x16xbf16>, tensor<8x32xbf16>
// SAVE-SPLIT-LABEL: func.func @fsdp_bwd(%arg0: tensor<512xbf16>, %arg1: tensor<8x16xbf16>, %arg2: tensor<8x32xbf16>, %arg3: tensor<8x32xf32> {rt.tangent})
// SAVE-SPLIT-NOT: rt.all_gather
// SAVE-SPLIT: %13 = "rt.reshape"(%arg0) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// SAVE-SPLIT-NEXT: "rt.matmul"(%13,
// SAVE-SPLIT-NOT: rt.all_gather
// SAVE-SPLIT-LABEL: func.func @chain_fwd(
// SAVE-SPLIT: return %9, %4, %9, %10 : tensor<8x16xf32>, tensor<512xf32>, tensor<8x16xf32>, tensor<512xf32>

// OFF-SPLIT-LABEL: func.func @fsdp_fwd(
// OFF-SPLIT: return %10, %3, %7, %8 : tensor<8x32xf32>, tensor<16x32xbf16>, tensor<8x16xbf16>, tensor<8x32xbf16>
// OFF-SPLIT-LABEL: func.func @chain_fwd(
// OFF-SPLIT: return %6, %arg1, %arg2, %3, %6 : tensor<8x16xf32>, tensor<256xf32>, f32, tensor<512xbf16>, tensor<8x16xf32>

// REC-LABEL: func.func @fsdp(
// REC-NEXT: %0 = "rt.convert"(%arg2) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xf32>) -> tensor<256xbf16>
// REC-NEXT: %1 = "rt.all_gather"(%0) {dim = 0 : i64, group = "dp", group_size = 2 : i64, rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xbf16>) -> tensor<512xbf16>
// REC-NEXT: %2 = "rt.wait"(%1) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xbf16>) -> tensor<512xbf16>
// REC-NEXT: %3 = "rt.reshape"(%2) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xbf16>) -> tensor<16x32xbf16>
// REC-NEXT: %4 = "rt.all_gather"(%arg1) {dim = 0 : i64, group = "sp", group_size = 2 : i64} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// REC-NEXT: %5 = "rt.wait"(%4) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// REC-NEXT: %6 = "rt.add"(%arg0, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// REC-NEXT: %7 = "rt.convert"(%6) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
// REC-NEXT: %8 = "rt.matmul"(%7, %3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// REC-NEXT: %9 = "rt.convert"(%8) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
// REC-NEXT: %10 = "rt.tanh"(%9) : (tensor<8x32xf32>) -> tensor<8x32xf32>
// REC-NEXT: %11 = "rt.mul"(%arg3, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// REC-NEXT: %12 = "rt.mul"(%11, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// REC-NEXT: %13 = "rt.sub"(%arg3, %12) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// REC-NEXT: %14 = "rt.convert"(%13) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
// REC-NEXT: %15 = "rt.transpose"(%14) {perm = array<i64: 1, 0>} : (tensor<8x32xbf16>) -> tensor<32x8xbf16>
// REC-NEXT: %16 = "rt.matmul"(%15, %7) : (tensor<32x8xbf16>, tensor<8x16xbf16>) -> tensor<32x16xbf16>
// REC-NEXT: %17 = "rt.transpose"(%16) {perm = array<i64: 1, 0>} : (tensor<32x16xbf16>) -> tensor<16x32xbf16>
// REC-NEXT: %18 = "rt.reshape"(%17) : (tensor<16x32xbf16>) -> tensor<512xbf16>
// REC-NEXT: %19 = "rt.convert"(%18) : (tensor<512xbf16>) -> tensor<512xf32>
// REC-NEXT: %20 = "rt.reduce_scatter"(%19) {dim = 0 : i64, group = "dp", group_size = 2 : i64, reduce = "sum"} : (tensor<512xf32>) -> tensor<256xf32>
// REC-NEXT: %21 = "rt.wait"(%20) : (tensor<256xf32>) -> tensor<256xf32>
// REC-NEXT: %22 = "rt.matmul"(%3, %15) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
// REC-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x8xbf16>) -> tensor<8x16xbf16>
// REC-NEXT: %24 = "rt.convert"(%23) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
// REC-NEXT: return %10, %21, %24 : tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xf32>
// REC-LABEL: func.func @chain(
// REC-NEXT: %0 = "rt.reshape"(%arg0) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<16x16xf32>) -> tensor<256xf32>
// REC-NEXT: %1 = "rt.convert"(%0) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xf32>) -> tensor<256xbf16>
// REC-NEXT: %2 = "rt.all_gather"(%1) {dim = 0 : i64, group = "dp", group_size = 2 : i64, rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xbf16>) -> tensor<512xbf16>
// REC-NEXT: %3 = "rt.wait"(%2) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xbf16>) -> tensor<512xbf16>
// REC-NEXT: %4 = "rt.convert"(%3) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xbf16>) -> tensor<512xf32>
// REC-NEXT: %5 = "rt.reshape"(%4) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xf32>) -> tensor<32x16xf32>
// REC-NEXT: %6 = "rt.mul"(%arg1, %arg2) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xf32>, f32) -> tensor<256xf32>
// REC-NEXT: %7 = "rt.all_gather"(%6) {dim = 0 : i64, group = "dp", group_size = 2 : i64, rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<256xf32>) -> tensor<512xf32>
// REC-NEXT: %8 = "rt.wait"(%7) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_recompute"} : (tensor<512xf32>) -> tensor<512xf32>
// REC-NEXT: %9 = "rt.matmul"(%arg3, %5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// REC-NEXT: %10 = "rt.mul"(%8, %8) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
// REC-NEXT: %11 = "rt.mul"(%arg4, %9) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// REC-NEXT: %12 = "rt.transpose"(%5) {perm = array<i64: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
// REC-NEXT: %13 = "rt.matmul"(%11, %12) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// REC-NEXT: return %9, %10, %13 : tensor<8x16xf32>, tensor<512xf32>, tensor<8x32xf32>

// SAVE-LABEL: func.func @fsdp(
// SAVE-NEXT: %0 = "rt.convert"(%arg2) : (tensor<256xf32>) -> tensor<256xbf16>
// SAVE-NEXT: %1 = "rt.all_gather"(%0) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
// SAVE-NEXT: %2 = "rt.wait"(%1) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<512xbf16>) -> tensor<512xbf16>
// SAVE-NEXT: %3 = "rt.reshape"(%2) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<512xbf16>) -> tensor<16x32xbf16>
// SAVE-NEXT: %4 = "rt.all_gather"(%arg1) {dim = 0 : i64, group = "sp", group_size = 2 : i64} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// SAVE-NEXT: %5 = "rt.wait"(%4) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// SAVE-NEXT: %6 = "rt.add"(%arg0, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// SAVE-NEXT: %7 = "rt.convert"(%6) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
// SAVE-NEXT: %8 = "rt.matmul"(%7, %3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// SAVE-NEXT: %9 = "rt.convert"(%8) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
// SAVE-NEXT: %10 = "rt.tanh"(%9) : (tensor<8x32xf32>) -> tensor<8x32xf32>
// SAVE-NEXT: %11 = "rt.mul"(%arg3, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// SAVE-NEXT: %12 = "rt.mul"(%11, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// SAVE-NEXT: %13 = "rt.sub"(%arg3, %12) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// SAVE-NEXT: %14 = "rt.convert"(%13) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
// SAVE-NEXT: %15 = "rt.transpose"(%14) {perm = array<i64: 1, 0>} : (tensor<8x32xbf16>) -> tensor<32x8xbf16>
// SAVE-NEXT: %16 = "rt.matmul"(%15, %7) : (tensor<32x8xbf16>, tensor<8x16xbf16>) -> tensor<32x16xbf16>
// SAVE-NEXT: %17 = "rt.transpose"(%16) {perm = array<i64: 1, 0>} : (tensor<32x16xbf16>) -> tensor<16x32xbf16>
// SAVE-NEXT: %18 = "rt.reshape"(%17) : (tensor<16x32xbf16>) -> tensor<512xbf16>
// SAVE-NEXT: %19 = "rt.convert"(%18) : (tensor<512xbf16>) -> tensor<512xf32>
// SAVE-NEXT: %20 = "rt.reduce_scatter"(%19) {dim = 0 : i64, group = "dp", group_size = 2 : i64, reduce = "sum"} : (tensor<512xf32>) -> tensor<256xf32>
// SAVE-NEXT: %21 = "rt.wait"(%20) : (tensor<256xf32>) -> tensor<256xf32>
// SAVE-NEXT: %22 = "rt.matmul"(%3, %15) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
// SAVE-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x8xbf16>) -> tensor<8x16xbf16>
// SAVE-NEXT: %24 = "rt.convert"(%23) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
// SAVE-NEXT: return %10, %21, %24 : tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xf32>
// SAVE-LABEL: func.func @chain(
// SAVE-NEXT: %0 = "rt.reshape"(%arg0) : (tensor<16x16xf32>) -> tensor<256xf32>
// SAVE-NEXT: %1 = "rt.convert"(%0) : (tensor<256xf32>) -> tensor<256xbf16>
// SAVE-NEXT: %2 = "rt.all_gather"(%1) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
// SAVE-NEXT: %3 = "rt.wait"(%2) : (tensor<512xbf16>) -> tensor<512xbf16>
// SAVE-NEXT: %4 = "rt.convert"(%3) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<512xbf16>) -> tensor<512xf32>
// SAVE-NEXT: %5 = "rt.reshape"(%4) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<512xf32>) -> tensor<32x16xf32>
// SAVE-NEXT: %6 = "rt.mul"(%arg1, %arg2) : (tensor<256xf32>, f32) -> tensor<256xf32>
// SAVE-NEXT: %7 = "rt.all_gather"(%6) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xf32>) -> tensor<512xf32>
// SAVE-NEXT: %8 = "rt.wait"(%7) {rt.ac_reason = "fsdp", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<512xf32>) -> tensor<512xf32>
// SAVE-NEXT: %9 = "rt.matmul"(%arg3, %5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// SAVE-NEXT: %10 = "rt.mul"(%8, %8) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
// SAVE-NEXT: %11 = "rt.mul"(%arg4, %9) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// SAVE-NEXT: %12 = "rt.transpose"(%5) {perm = array<i64: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
// SAVE-NEXT: %13 = "rt.matmul"(%11, %12) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// SAVE-NEXT: return %9, %10, %13 : tensor<8x16xf32>, tensor<512xf32>, tensor<8x32xf32>

// OFF-LABEL: func.func @fsdp(
// OFF-NEXT: %0 = "rt.convert"(%arg2) : (tensor<256xf32>) -> tensor<256xbf16>
// OFF-NEXT: %1 = "rt.all_gather"(%0) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
// OFF-NEXT: %2 = "rt.wait"(%1) : (tensor<512xbf16>) -> tensor<512xbf16>
// OFF-NEXT: %3 = "rt.reshape"(%2) : (tensor<512xbf16>) -> tensor<16x32xbf16>
// OFF-NEXT: %4 = "rt.all_gather"(%arg1) {dim = 0 : i64, group = "sp", group_size = 2 : i64} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// OFF-NEXT: %5 = "rt.wait"(%4) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// OFF-NEXT: %6 = "rt.add"(%arg0, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// OFF-NEXT: %7 = "rt.convert"(%6) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
// OFF-NEXT: %8 = "rt.matmul"(%7, %3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// OFF-NEXT: %9 = "rt.convert"(%8) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
// OFF-NEXT: %10 = "rt.tanh"(%9) : (tensor<8x32xf32>) -> tensor<8x32xf32>
// OFF-NEXT: %11 = "rt.mul"(%arg3, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// OFF-NEXT: %12 = "rt.mul"(%11, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// OFF-NEXT: %13 = "rt.sub"(%arg3, %12) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// OFF-NEXT: %14 = "rt.convert"(%13) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
// OFF-NEXT: %15 = "rt.transpose"(%14) {perm = array<i64: 1, 0>} : (tensor<8x32xbf16>) -> tensor<32x8xbf16>
// OFF-NEXT: %16 = "rt.matmul"(%15, %7) : (tensor<32x8xbf16>, tensor<8x16xbf16>) -> tensor<32x16xbf16>
// OFF-NEXT: %17 = "rt.transpose"(%16) {perm = array<i64: 1, 0>} : (tensor<32x16xbf16>) -> tensor<16x32xbf16>
// OFF-NEXT: %18 = "rt.reshape"(%17) : (tensor<16x32xbf16>) -> tensor<512xbf16>
// OFF-NEXT: %19 = "rt.convert"(%18) : (tensor<512xbf16>) -> tensor<512xf32>
// OFF-NEXT: %20 = "rt.reduce_scatter"(%19) {dim = 0 : i64, group = "dp", group_size = 2 : i64, reduce = "sum"} : (tensor<512xf32>) -> tensor<256xf32>
// OFF-NEXT: %21 = "rt.wait"(%20) : (tensor<256xf32>) -> tensor<256xf32>
// OFF-NEXT: %22 = "rt.matmul"(%3, %15) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
// OFF-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x8xbf16>) -> tensor<8x16xbf16>
// OFF-NEXT: %24 = "rt.convert"(%23) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
// OFF-NEXT: return %10, %21, %24 : tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xf32>
// OFF-LABEL: func.func @chain(
// OFF-NEXT: %0 = "rt.reshape"(%arg0) : (tensor<16x16xf32>) -> tensor<256xf32>
// OFF-NEXT: %1 = "rt.convert"(%0) : (tensor<256xf32>) -> tensor<256xbf16>
// OFF-NEXT: %2 = "rt.all_gather"(%1) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
// OFF-NEXT: %3 = "rt.wait"(%2) : (tensor<512xbf16>) -> tensor<512xbf16>
// OFF-NEXT: %4 = "rt.convert"(%3) : (tensor<512xbf16>) -> tensor<512xf32>
// OFF-NEXT: %5 = "rt.reshape"(%4) : (tensor<512xf32>) -> tensor<32x16xf32>
// OFF-NEXT: %6 = "rt.mul"(%arg1, %arg2) : (tensor<256xf32>, f32) -> tensor<256xf32>
// OFF-NEXT: %7 = "rt.all_gather"(%6) {dim = 0 : i64, group = "dp", group_size = 2 : i64} : (tensor<256xf32>) -> tensor<512xf32>
// OFF-NEXT: %8 = "rt.wait"(%7) : (tensor<512xf32>) -> tensor<512xf32>
// OFF-NEXT: %9 = "rt.matmul"(%arg3, %5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// OFF-NEXT: %10 = "rt.mul"(%8, %8) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
// OFF-NEXT: %11 = "rt.mul"(%arg4, %9) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// OFF-NEXT: %12 = "rt.transpose"(%5) {perm = array<i64: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
// OFF-NEXT: %13 = "rt.matmul"(%11, %12) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// OFF-NEXT: return %9, %10, %13 : tensor<8x16xf32>, tensor<512xf32>, tensor<8x32xf32>

func.func @fsdp(%x: tensor<8x16xf32>, %s: tensor<4x16xf32>,
                %w: tensor<256xf32> {rt.param},
                %g: tensor<8x32xf32> {rt.tangent})
    -> (tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  // FSDP: the local shard of the weight, cast to bf16, gathered, reshaped, used.
  %wc = "rt.convert"(%w) : (tensor<256xf32>) -> tensor<256xbf16>
  %wg = "rt.all_gather"(%wc) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
  %ww = "rt.wait"(%wg) : (tensor<512xbf16>) -> tensor<512xbf16>
  %wr = "rt.reshape"(%ww) : (tensor<512xbf16>) -> tensor<16x32xbf16>
  // Sequence parallel: an all-gather of an activation (not a parameter).
  %sg = "rt.all_gather"(%s) {group = "sp", group_size = 2 : i64, dim = 0 : i64} : (tensor<4x16xf32>) -> tensor<8x16xf32>
  %sw = "rt.wait"(%sg) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %xs = "rt.add"(%x, %sw) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %xc = "rt.convert"(%xs) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  %y = "rt.matmul"(%xc, %wr) : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
  %yf = "rt.convert"(%y) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
  %out = "rt.tanh"(%yf) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // backward (every op depends on %g)
  %u = "rt.mul"(%g, %out) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %v = "rt.mul"(%u, %out) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %dyf = "rt.sub"(%g, %v) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %dy = "rt.convert"(%dyf) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  %dyt = "rt.transpose"(%dy) {perm = array<i64: 1, 0>} : (tensor<8x32xbf16>) -> tensor<32x8xbf16>
  %m = "rt.matmul"(%dyt, %xc) : (tensor<32x8xbf16>, tensor<8x16xbf16>) -> tensor<32x16xbf16>
  %dwt = "rt.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<32x16xbf16>) -> tensor<16x32xbf16>
  %dwr = "rt.reshape"(%dwt) : (tensor<16x32xbf16>) -> tensor<512xbf16>
  %dwf = "rt.convert"(%dwr) : (tensor<512xbf16>) -> tensor<512xf32>
  %dws = "rt.reduce_scatter"(%dwf) {group = "dp", group_size = 2 : i64, dim = 0 : i64, reduce = "sum"} : (tensor<512xf32>) -> tensor<256xf32>
  %dw = "rt.wait"(%dws) : (tensor<256xf32>) -> tensor<256xf32>
  %dxt = "rt.matmul"(%wr, %dyt) : (tensor<16x32xbf16>, tensor<32x8xbf16>) -> tensor<16x8xbf16>
  %dxb = "rt.transpose"(%dxt) {perm = array<i64: 1, 0>} : (tensor<16x8xbf16>) -> tensor<8x16xbf16>
  %dx = "rt.convert"(%dxb) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  return %out, %dw, %dx : tensor<8x32xf32>, tensor<256xf32>, tensor<8x16xf32>
}

// A longer chain: param -> reshape -> convert -> gather -> wait -> convert -> reshape ->
// matmul; and a gather of a two-input op of a parameter, which is no FSDP gather.
func.func @chain(%p: tensor<16x16xf32> {rt.param}, %q: tensor<256xf32> {rt.param},
                 %scale: f32, %x: tensor<8x32xf32>, %g: tensor<8x16xf32> {rt.tangent})
    -> (tensor<8x16xf32>, tensor<512xf32>, tensor<8x32xf32>) attributes {rt.num_outputs = 1 : i64} {
  %pr = "rt.reshape"(%p) : (tensor<16x16xf32>) -> tensor<256xf32>
  %pc = "rt.convert"(%pr) : (tensor<256xf32>) -> tensor<256xbf16>
  %pg = "rt.all_gather"(%pc) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<256xbf16>) -> tensor<512xbf16>
  %pw = "rt.wait"(%pg) : (tensor<512xbf16>) -> tensor<512xbf16>
  %pf = "rt.convert"(%pw) : (tensor<512xbf16>) -> tensor<512xf32>
  %pm = "rt.reshape"(%pf) : (tensor<512xf32>) -> tensor<32x16xf32>
  %qs = "rt.mul"(%q, %scale) : (tensor<256xf32>, f32) -> tensor<256xf32>
  %qg = "rt.all_gather"(%qs) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<256xf32>) -> tensor<512xf32>
  %qw = "rt.wait"(%qg) : (tensor<512xf32>) -> tensor<512xf32>
  %y = "rt.matmul"(%x, %pm) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %gq = "rt.mul"(%qw, %qw) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %dq = "rt.mul"(%g, %y) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %pmt = "rt.transpose"(%pm) {perm = array<i64: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
  %dx = "rt.matmul"(%dq, %pmt) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y, %gq, %dx : tensor<8x16xf32>, tensor<512xf32>, tensor<8x32xf32>
}
