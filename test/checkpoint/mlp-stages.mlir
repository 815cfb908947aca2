// A 4-layer MLP joint graph (tanh activations, bias broadcast): the stage heuristic.
//
// Forward, in block order (S = bytes of one [16384,D] f32 value: 0.5 GiB for D = 8192,
// 0.25 GiB for D = 4096): per layer i, z_i = matmul, bb_i = broadcast, h_i = add,
// a_i = tanh. Matmuls are not recomputable (banned), so the stage walk visits
// bb, h, a of each layer: 3 x 0.5 + 3 x 0.25 + 3 x 0.5 + 3 x 0.25 = 4.5 GiB.
// The default save list (mm: rank-2 rt.matmul, every 2nd) saves z1, z3 and recomputes z2, z4.
//
// Live bytes after each walked op (values defined so far with a forward use later; a4 is
// the forward output, live to the end; arguments are not counted):
//   layer 1 (0.5):  bb1: z1+bb1 = 1.0   h1: 0.5   a1: 0.5
//   layer 2 (0.25): bb2: z2+bb2 = 0.5   h2: 0.25  a2: 0.25
//   layer 3 (0.5):  bb3: 1.0            h3: 0.5   a3: 0.5
//   layer 4 (0.25): bb4: 0.5            h4: 0.25  a4: 0.25
//
// ac=auto: stage size sqrt(4.5) = 2.121 GiB. Stage 1 = bb1..a2 (sum reaches 2.25 at a2),
// stage 2 = bb3..a4 (2.25). Smallest live set: stage 1 h2 = a2 = 0.25, tie -> the later
// point a2: a2 must_save (region 1); stage 2: a4 must_save (region 2). The other walked
// ops prefer_recompute.
//
// ac=1: stages close when the sum reaches 1 GiB:
//   1: bb1 h1 (1.0)           min h1 (0.5)         -> h1 must_save, region 1
//   2: a1 bb2 h2 (1.0)        min h2 (0.25)        -> h2 must_save, region 2
//   3: a2 bb3 h3 (1.25)       min a2 (0.25)        -> a2 must_save, region 3
//   4: a3 bb4 h4 (1.0)        min h4 (0.25)        -> h4 must_save, region 4
//   5: a4 (0.25, last stage)  min a4               -> a4 must_save, region 5
//
// RUN: remat-opt --remat-checkpoint=ac=auto %s | FileCheck %s --check-prefix=AUTO
// RUN: remat-opt --remat-checkpoint=ac=1 %s | FileCheck %s --check-prefix=GIB
//
// Then the min-cut (rt.param arguments are free to save). The backward reads x, a1..a4
// and the weights. ac=auto: saved z1, z3 (save list; a1 and a3 are recomputed from them),
// a2, a4 (stage boundaries), and x: 268435456 (x) + 402751488 (rt.param) +
// 2 x 0.5 GiB + 2 x 0.25 GiB = 2281799680 bytes. z2 and z4 are
// not needed (a2 and a4 are saved), so no matmul is recomputed.
// ac=1: h1 replaces z1 (h1 is saved, so z1 is not needed); a2, z3 (for a3), a4 as above.
// RUN: remat-opt --remat-checkpoint=ac=auto --remat-mincut %s | FileCheck %s --check-prefix=AUTO-SPLIT
// RUN: remat-opt --remat-checkpoint=ac=1 --remat-mincut %s | FileCheck %s --check-prefix=GIB-SPLIT
// The report says which rule saved each value:
// RUN: remat-opt --remat-checkpoint=ac=auto --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// AUTO: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// AUTO-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// AUTO-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// AUTO-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// AUTO-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "must_save"}
// AUTO-NOT: rt.policy

// GIB: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 1 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 2 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 3 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 3 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 3 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 4 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.broadcast"({{.*}}) {dims = array<i64: 1>, rt.ac_reason = "ac-stage", rt.ac_region = 4 : i64, rt.policy = "prefer_recompute"}
// GIB-NEXT: "rt.add"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 4 : i64, rt.policy = "must_save"}
// GIB-NEXT: "rt.tanh"({{.*}}) {rt.ac_reason = "ac-stage", rt.ac_region = 5 : i64, rt.policy = "must_save"}
// GIB-NOT: rt.policy

// AUTO-SPLIT-LABEL: func.func @mlp_fwd(
// AUTO-SPLIT-SAME: rt.saved_bytes = 2281799680 : i64
// AUTO-SPLIT: %0 = "rt.matmul"(%arg0, %arg1)
// AUTO-SPLIT: %7 = "rt.tanh"(%6)
// AUTO-SPLIT-NEXT: %8 = "rt.matmul"(%7, %arg5)
// AUTO-SPLIT: %15 = "rt.tanh"(%14)
// AUTO-SPLIT-NEXT: return %15, %arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %0, %7, %8, %15 :
// Each recomputed a_i runs just before the first backward matmul that reads it:
// AUTO-SPLIT-LABEL: func.func @mlp_bwd(
// AUTO-SPLIT-NEXT: %0 = "rt.mul"(%arg12, %arg11)
// AUTO-SPLIT-NOT: "rt.matmul"(%{{.*}}, %arg{{.*}}) {rt.ac_reason
// AUTO-SPLIT: %3 = "rt.transpose"(%2)
// AUTO-SPLIT-NEXT: %4 = "rt.broadcast"(%arg5)
// AUTO-SPLIT-NEXT: %5 = "rt.add"(%arg10, %4)
// AUTO-SPLIT-NEXT: %6 = "rt.tanh"(%5)
// AUTO-SPLIT-NEXT: %7 = "rt.matmul"(%3, %6)
// AUTO-SPLIT-NOT: "rt.matmul"(%{{.*}}, %arg{{.*}}) {rt.ac_reason
// AUTO-SPLIT: %24 = "rt.transpose"(%23)
// AUTO-SPLIT-NEXT: %25 = "rt.broadcast"(%arg1)
// AUTO-SPLIT-NEXT: %26 = "rt.add"(%arg8, %25)
// AUTO-SPLIT-NEXT: %27 = "rt.tanh"(%26)
// AUTO-SPLIT-NEXT: %28 = "rt.matmul"(%24, %27)
// AUTO-SPLIT-NOT: "rt.matmul"(%{{.*}}, %arg{{.*}}) {rt.ac_reason

// GIB-SPLIT-LABEL: func.func @mlp_fwd(
// GIB-SPLIT-SAME: rt.saved_bytes = 2281799680 : i64
// GIB-SPLIT: %2 = "rt.add"(%0, %1)
// GIB-SPLIT: %7 = "rt.tanh"(%6)
// GIB-SPLIT-NEXT: %8 = "rt.matmul"(%7, %arg5)
// GIB-SPLIT: %15 = "rt.tanh"(%14)
// GIB-SPLIT-NEXT: return %15, %arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %2, %7, %8, %15 :
// GIB-SPLIT-LABEL: func.func @mlp_bwd(
// GIB-SPLIT-NEXT: %0 = "rt.mul"(%arg12, %arg11)
// GIB-SPLIT: %3 = "rt.transpose"(%2)
// GIB-SPLIT-NEXT: %4 = "rt.broadcast"(%arg5)
// GIB-SPLIT-NEXT: %5 = "rt.add"(%arg10, %4)
// GIB-SPLIT-NEXT: %6 = "rt.tanh"(%5)
// GIB-SPLIT-NEXT: %7 = "rt.matmul"(%3, %6)
// GIB-SPLIT: %24 = "rt.transpose"(%23)
// GIB-SPLIT-NEXT: %25 = "rt.tanh"(%arg8)
// GIB-SPLIT-NEXT: %26 = "rt.matmul"(%24, %25)

// REPORT-LABEL: remat-checkpoint: @mlp
// REPORT-NEXT: #  value                type                            bytes  why      location
// REPORT-NEXT: 0  rt.matmul            tensor<16384x8192xf32>      536870912  save-ops mlp-stages.mlir:{{[0-9]+}}:9
// REPORT-NEXT: 1  rt.tanh              tensor<16384x4096xf32>      268435456  stage 1  mlp-stages.mlir:{{[0-9]+}}:9
// REPORT-NEXT: 2  rt.matmul            tensor<16384x8192xf32>      536870912  save-ops mlp-stages.mlir:{{[0-9]+}}:9
// REPORT-NEXT: 3  rt.tanh              tensor<16384x4096xf32>      268435456  stage 2  mlp-stages.mlir:{{[0-9]+}}:9
// REPORT-NEXT: fsdp: 0 parameter gathers (recompute)
// REPORT-NEXT: save-ops: 4 matched; saved the 1st of every 2
// REPORT-NEXT: stages: 2 of 2.12132 GiB
// REPORT-NEXT: stage 1: 6 ops, 2415919104 bytes; point rt.tanh mlp-stages.mlir:{{[0-9]+}}:9, 268435456 bytes live
// REPORT-NEXT: stage 2: 6 ops, 2415919104 bytes; point rt.tanh mlp-stages.mlir:{{[0-9]+}}:9, 268435456 bytes live
// REPORT-NEXT: tags: 4 must_save, 0 must_recompute, 12 prefer_recompute; user tags kept: 0
// REPORT-LABEL: remat-mincut: @mlp -> @mlp_fwd, @mlp_bwd
// REPORT: 8  rt.matmul            tensor<16384x8192xf32>      536870912  save-ops
// REPORT-NEXT: 9  rt.tanh              tensor<16384x4096xf32>      268435456  stage 1
// REPORT-NEXT: 10  rt.matmul            tensor<16384x8192xf32>      536870912  save-ops
// REPORT-NEXT: 11  rt.tanh              tensor<16384x4096xf32>      268435456  stage 2
// REPORT-NEXT: saved bytes: 2281799680

func.func @mlp(%x: tensor<16384x4096xf32>,
               %w1: tensor<4096x8192xf32> {rt.param}, %b1: tensor<8192xf32> {rt.param},
               %w2: tensor<8192x4096xf32> {rt.param}, %b2: tensor<4096xf32> {rt.param},
               %w3: tensor<4096x8192xf32> {rt.param}, %b3: tensor<8192xf32> {rt.param},
               %w4: tensor<8192x4096xf32> {rt.param}, %b4: tensor<4096xf32> {rt.param},
               %g: tensor<16384x4096xf32> {rt.tangent})
    -> (tensor<16384x4096xf32>, tensor<4096x8192xf32>, tensor<8192xf32>, tensor<8192x4096xf32>, tensor<4096xf32>,
        tensor<4096x8192xf32>, tensor<8192xf32>, tensor<8192x4096xf32>, tensor<4096xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  // layer 1: [16384,8192] f32 values, 0.5 GiB each
  %z1 = "rt.matmul"(%x, %w1) : (tensor<16384x4096xf32>, tensor<4096x8192xf32>) -> tensor<16384x8192xf32>
  %bb1 = "rt.broadcast"(%b1) {dims = array<i64: 1>} : (tensor<8192xf32>) -> tensor<16384x8192xf32>
  %h1 = "rt.add"(%z1, %bb1) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %a1 = "rt.tanh"(%h1) : (tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  // layer 2: [16384,4096] f32 values, 0.25 GiB each
  %z2 = "rt.matmul"(%a1, %w2) : (tensor<16384x8192xf32>, tensor<8192x4096xf32>) -> tensor<16384x4096xf32>
  %bb2 = "rt.broadcast"(%b2) {dims = array<i64: 1>} : (tensor<4096xf32>) -> tensor<16384x4096xf32>
  %h2 = "rt.add"(%z2, %bb2) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %a2 = "rt.tanh"(%h2) : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  // layer 3: [16384,8192] f32 values, 0.5 GiB each
  %z3 = "rt.matmul"(%a2, %w3) : (tensor<16384x4096xf32>, tensor<4096x8192xf32>) -> tensor<16384x8192xf32>
  %bb3 = "rt.broadcast"(%b3) {dims = array<i64: 1>} : (tensor<8192xf32>) -> tensor<16384x8192xf32>
  %h3 = "rt.add"(%z3, %bb3) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %a3 = "rt.tanh"(%h3) : (tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  // layer 4: [16384,4096] f32 values, 0.25 GiB each
  %z4 = "rt.matmul"(%a3, %w4) : (tensor<16384x8192xf32>, tensor<8192x4096xf32>) -> tensor<16384x4096xf32>
  %bb4 = "rt.broadcast"(%b4) {dims = array<i64: 1>} : (tensor<4096xf32>) -> tensor<16384x4096xf32>
  %h4 = "rt.add"(%z4, %bb4) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %a4 = "rt.tanh"(%h4) : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  // backward: every op depends on %g (dz = da - da*a*a; dW and da through transposes)
  %u4 = "rt.mul"(%g, %a4) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %v4 = "rt.mul"(%u4, %a4) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %dz4 = "rt.sub"(%g, %v4) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %dzt4 = "rt.transpose"(%dz4) {perm = array<i64: 1, 0>} : (tensor<16384x4096xf32>) -> tensor<4096x16384xf32>
  %m4 = "rt.matmul"(%dzt4, %a3) : (tensor<4096x16384xf32>, tensor<16384x8192xf32>) -> tensor<4096x8192xf32>
  %dw4 = "rt.transpose"(%m4) {perm = array<i64: 1, 0>} : (tensor<4096x8192xf32>) -> tensor<8192x4096xf32>
  %db4 = "rt.sum"(%dz4) {dims = array<i64: 0>} : (tensor<16384x4096xf32>) -> tensor<4096xf32>
  %dat3 = "rt.matmul"(%w4, %dzt4) : (tensor<8192x4096xf32>, tensor<4096x16384xf32>) -> tensor<8192x16384xf32>
  %da3 = "rt.transpose"(%dat3) {perm = array<i64: 1, 0>} : (tensor<8192x16384xf32>) -> tensor<16384x8192xf32>
  %u3 = "rt.mul"(%da3, %a3) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %v3 = "rt.mul"(%u3, %a3) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %dz3 = "rt.sub"(%da3, %v3) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %dzt3 = "rt.transpose"(%dz3) {perm = array<i64: 1, 0>} : (tensor<16384x8192xf32>) -> tensor<8192x16384xf32>
  %m3 = "rt.matmul"(%dzt3, %a2) : (tensor<8192x16384xf32>, tensor<16384x4096xf32>) -> tensor<8192x4096xf32>
  %dw3 = "rt.transpose"(%m3) {perm = array<i64: 1, 0>} : (tensor<8192x4096xf32>) -> tensor<4096x8192xf32>
  %db3 = "rt.sum"(%dz3) {dims = array<i64: 0>} : (tensor<16384x8192xf32>) -> tensor<8192xf32>
  %dat2 = "rt.matmul"(%w3, %dzt3) : (tensor<4096x8192xf32>, tensor<8192x16384xf32>) -> tensor<4096x16384xf32>
  %da2 = "rt.transpose"(%dat2) {perm = array<i64: 1, 0>} : (tensor<4096x16384xf32>) -> tensor<16384x4096xf32>
  %u2 = "rt.mul"(%da2, %a2) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %v2 = "rt.mul"(%u2, %a2) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %dz2 = "rt.sub"(%da2, %v2) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %dzt2 = "rt.transpose"(%dz2) {perm = array<i64: 1, 0>} : (tensor<16384x4096xf32>) -> tensor<4096x16384xf32>
  %m2 = "rt.matmul"(%dzt2, %a1) : (tensor<4096x16384xf32>, tensor<16384x8192xf32>) -> tensor<4096x8192xf32>
  %dw2 = "rt.transpose"(%m2) {perm = array<i64: 1, 0>} : (tensor<4096x8192xf32>) -> tensor<8192x4096xf32>
  %db2 = "rt.sum"(%dz2) {dims = array<i64: 0>} : (tensor<16384x4096xf32>) -> tensor<4096xf32>
  %dat1 = "rt.matmul"(%w2, %dzt2) : (tensor<8192x4096xf32>, tensor<4096x16384xf32>) -> tensor<8192x16384xf32>
  %da1 = "rt.transpose"(%dat1) {perm = array<i64: 1, 0>} : (tensor<8192x16384xf32>) -> tensor<16384x8192xf32>
  %u1 = "rt.mul"(%da1, %a1) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %v1 = "rt.mul"(%u1, %a1) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %dz1 = "rt.sub"(%da1, %v1) : (tensor<16384x8192xf32>, tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  %dzt1 = "rt.transpose"(%dz1) {perm = array<i64: 1, 0>} : (tensor<16384x8192xf32>) -> tensor<8192x16384xf32>
  %m1 = "rt.matmul"(%dzt1, %x) : (tensor<8192x16384xf32>, tensor<16384x4096xf32>) -> tensor<8192x4096xf32>
  %dw1 = "rt.transpose"(%m1) {perm = array<i64: 1, 0>} : (tensor<8192x4096xf32>) -> tensor<4096x8192xf32>
  %db1 = "rt.sum"(%dz1) {dims = array<i64: 0>} : (tensor<16384x8192xf32>) -> tensor<8192xf32>
  return %a4, %dw1, %db1, %dw2, %db2, %dw3, %db3, %dw4, %db4
      : tensor<16384x4096xf32>, tensor<4096x8192xf32>, tensor<8192xf32>, tensor<8192x4096xf32>, tensor<4096xf32>,
        tensor<4096x8192xf32>, tensor<8192xf32>, tensor<8192x4096xf32>, tensor<4096xf32>
}
