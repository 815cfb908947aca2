// Matmul kinds in the save lists. rt.matmul covers aten.mm (rank-2 operands: the linear
// layers) and aten.bmm (batched: attention). AutoParallel's Llama setting alternates the
// mm ops and always saves its attention op (SDPA) without advancing the counter.
//
// Default save-ops=mm: the projections q, k, v (mm) alternate: q must_save, k
// prefer_recompute, v must_save; the output projection y = o2 x wo is forward-only (the
// backward reads o2, not y) and not counted. The attention matmuls s = q k^T and o = p v
// (bmm) are left to the min-cut, which never recomputes an untagged matmul: each runs
// once, as AutoParallel's always-saved attention does, and the min-cut picks the cheapest
// values around them (here p = exp(s) and v^T). This is the default: always-save=bmm
// would tag the score matrix (B x T x T) must_save even where the min-cut keeps a
// smaller value, and rt's attention has no fused op to save whole.
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s --check-prefix=DEFAULT
// RUN: remat-opt --remat-checkpoint --remat-mincut %s | FileCheck %s --check-prefix=DEFAULT-SPLIT
//
// always-save=bmm: both attention matmuls must_save (reason always-save) and the mm
// alternation is unchanged (they do not advance the counter).
// RUN: remat-opt --remat-checkpoint=always-save=bmm %s | FileCheck %s --check-prefix=ALWAYS
// RUN: remat-opt --remat-checkpoint=always-save=bmm --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ALWAYS-REPORT
//
// save-ops=rt.matmul (all matmuls, the earlier default): the bmm s joins the alternation
// as the 4th match and is prefer_recompute, so the backward runs the attention matmul
// q k^T again; save-ops=bmm alternates the attention matmuls only.
// RUN: remat-opt --remat-checkpoint=save-ops=rt.matmul %s | FileCheck %s --check-prefix=ALL
// RUN: remat-opt --remat-checkpoint=save-ops=rt.matmul --remat-mincut %s | FileCheck %s --check-prefix=ALL-SPLIT
// RUN: remat-opt --remat-checkpoint=save-ops=bmm %s | FileCheck %s --check-prefix=BMM

// DEFAULT-LABEL: func.func @attn(
// DEFAULT-NEXT: "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// DEFAULT-NEXT: "rt.matmul"(%arg0, %arg2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// DEFAULT-NEXT: "rt.matmul"(%arg0, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// DEFAULT-NOT: rt.policy
// DEFAULT: return

// The backward recomputes k (prefer_recompute) and no batched matmul: its bmms are its own
// (dP = dO v^T, dV = p^T dO, dQ = dS k).
// DEFAULT-SPLIT-LABEL: func.func @attn_bwd(
// DEFAULT-SPLIT-NOT: rt.ac_reason
// DEFAULT-SPLIT: "rt.mul"
// DEFAULT-SPLIT-NEXT: "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>)
// DEFAULT-SPLIT-NOT: rt.ac_reason
// DEFAULT-SPLIT: return

// ALWAYS-LABEL: func.func @attn(
// ALWAYS-NEXT: "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// ALWAYS-NEXT: "rt.matmul"(%arg0, %arg2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// ALWAYS-NEXT: "rt.matmul"(%arg0, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"}
// ALWAYS: "rt.matmul"({{.*}}) {rt.ac_reason = "always-save", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1x8x16xf32>, tensor<1x16x8xf32>)
// ALWAYS: "rt.matmul"({{.*}}) {rt.ac_reason = "always-save", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1x8x8xf32>, tensor<1x8x16xf32>)
// ALWAYS-NEXT: "rt.reshape"
// ALWAYS-NEXT: "rt.matmul"({{.*}}) : (
// ALWAYS-NOT: rt.policy
// ALWAYS: return

// The report names the rule; the min-cut keeps p = exp(s) rather than s itself (as big
// here), and o is not needed by the backward (it reads o2^T): the always-save tags cost
// nothing more than the min-cut's own choice.
// ALWAYS-REPORT-LABEL: remat-checkpoint: @attn
// ALWAYS-REPORT: rt.matmul            tensor<1x8x8xf32>                 256  always-save
// ALWAYS-REPORT-NEXT: rt.matmul            tensor<1x8x16xf32>                512  always-save
// ALWAYS-REPORT: save-ops: 3 matched; saved the 1st of every 2
// ALWAYS-REPORT-LABEL: remat-mincut: @attn -> @attn_fwd, @attn_bwd
// ALWAYS-REPORT: rt.exp               tensor<1x8x8xf32>                 256  cut
// ALWAYS-REPORT: saved bytes: 3840

// ALL-LABEL: func.func @attn(
// ALL: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1x8x16xf32>, tensor<1x16x8xf32>)
// ALL: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1x8x8xf32>, tensor<1x8x16xf32>)
// ALL-SPLIT-LABEL: func.func @attn_bwd(
// ALL-SPLIT: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1x8x16xf32>, tensor<1x16x8xf32>)

// BMM-LABEL: func.func @attn(
// BMM-NEXT: "rt.matmul"(%arg0, %arg1) :
// BMM-NEXT: "rt.matmul"(%arg0, %arg2) :
// BMM-NEXT: "rt.matmul"(%arg0, %arg3) :
// BMM: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<1x8x16xf32>, tensor<1x16x8xf32>)
// BMM: "rt.matmul"({{.*}}) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<1x8x8xf32>, tensor<1x8x16xf32>)

func.func @attn(%x: tensor<8x16xf32>, %wq: tensor<16x16xf32> {rt.param}, %wk: tensor<16x16xf32> {rt.param},
                %wv: tensor<16x16xf32> {rt.param}, %wo: tensor<16x16xf32> {rt.param}, %g: tensor<8x16xf32> {rt.tangent})
    -> (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %q = "rt.matmul"(%x, %wq) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %k = "rt.matmul"(%x, %wk) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %v = "rt.matmul"(%x, %wv) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %q3 = "rt.reshape"(%q) : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
  %k3 = "rt.reshape"(%k) : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
  %kt3 = "rt.transpose"(%k3) {perm = array<i64: 0, 2, 1>} : (tensor<1x8x16xf32>) -> tensor<1x16x8xf32>
  %v3 = "rt.reshape"(%v) : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
  %s = "rt.matmul"(%q3, %kt3) : (tensor<1x8x16xf32>, tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
  %p = "rt.exp"(%s) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %o = "rt.matmul"(%p, %v3) : (tensor<1x8x8xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %o2 = "rt.reshape"(%o) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
  %y = "rt.matmul"(%o2, %wo) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  // backward (shapes as in attention's; enough calculus to read what attention's reads)
  %wot = "rt.transpose"(%wo) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %do2 = "rt.matmul"(%g, %wot) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %o2t = "rt.transpose"(%o2) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dwo = "rt.matmul"(%o2t, %g) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %do = "rt.reshape"(%do2) : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
  %v3t = "rt.transpose"(%v3) {perm = array<i64: 0, 2, 1>} : (tensor<1x8x16xf32>) -> tensor<1x16x8xf32>
  %dp = "rt.matmul"(%do, %v3t) : (tensor<1x8x16xf32>, tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
  %pt = "rt.transpose"(%p) {perm = array<i64: 0, 2, 1>} : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %dv = "rt.matmul"(%pt, %do) : (tensor<1x8x8xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %ds = "rt.mul"(%dp, %p) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %dq = "rt.matmul"(%ds, %k3) : (tensor<1x8x8xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %dq2 = "rt.reshape"(%dq) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
  %xt = "rt.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %dwq = "rt.matmul"(%xt, %dq2) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dv2 = "rt.reshape"(%dv) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
  %dwv = "rt.matmul"(%xt, %dv2) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %y, %dwq, %dwv, %dwo : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
