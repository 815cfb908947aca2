// Reductions are kernels: layernorm, softmax and RMSNorm, forward and backward, written
// out in rt ops, each fuse into at most two kernels: a row kernel (a block per row on a
// GPU) with the reductions' producers recomputed in their passes and the normalization as
// its epilogue, and for the backwards of layernorm and RMSNorm the column reductions of
// the weight gradients. The fused functions equal the unfused ones bit for bit (the
// reduction order is the interpreter's), compiled and on the reference interpreter.
// RUN: remat-opt --remat-fuse=dedup=false %s -o %t.fused
// RUN: FileCheck %s < %t.fused
// RUN: remat-run %s --fn layernorm --seed 1 > %t.ref.ln
// RUN: remat-run %t.fused --fn layernorm --seed 1 | diff %t.ref.ln -
// RUN: remat-run %s --fn layernorm_bwd --seed 2 > %t.ref.lnb
// RUN: remat-run %t.fused --fn layernorm_bwd --seed 2 | diff %t.ref.lnb -
// RUN: remat-run %s --fn layernorm_bwd_dw_first --seed 2 > %t.ref.lnb2
// RUN: remat-run %t.fused --fn layernorm_bwd_dw_first --seed 2 | diff %t.ref.lnb2 -
// RUN: remat-run %s --fn softmax --seed 3 > %t.ref.sm
// RUN: remat-run %t.fused --fn softmax --seed 3 | diff %t.ref.sm -
// RUN: remat-run %s --fn softmax_bwd --seed 4 > %t.ref.smb
// RUN: remat-run %t.fused --fn softmax_bwd --seed 4 | diff %t.ref.smb -
// RUN: remat-run %s --fn rmsnorm --seed 5 > %t.ref.rms
// RUN: remat-run %t.fused --fn rmsnorm --seed 5 | diff %t.ref.rms -
// RUN: remat-run %s --fn rmsnorm_bwd --seed 6 > %t.ref.rmsb
// RUN: remat-run %t.fused --fn rmsnorm_bwd --seed 6 | diff %t.ref.rmsb -
// RUN: remat-run %s --fn layernorm_keepdim --seed 8 > %t.ref.lnk
// RUN: remat-run %t.fused --fn layernorm_keepdim --seed 8 | diff %t.ref.lnk -
// RUN: remat-run %t.fused --check-compiled-all --seed 7 | FileCheck %s --check-prefix=SAME
// SAME: ok: 8 functions
// The row kernels lower to PTX that assembles; a row is reduced by a 256-thread block
// with warp shuffles:
// RUN: remat-translate --emit=ptx %t.fused -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .visible .entry layernorm_k0(
// PTX: shfl.sync.down.b32
// PTX: bar.sync 0

// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<64xf32>, %[[ARG2:[^:]*]]: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) {
// CHECK-NEXT: %[[V0:.*]]:3 = call @layernorm_k0(%[[ARG0]], %[[ARG1]], %[[ARG2]]) : (tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>)
// CHECK-NEXT: return %[[V0]]#2, %[[V0]]#0, %[[V0]]#1 : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_k0(%[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<64xf32>, %[[ARG2:[^:]*]]: tensor<64xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT: %[[CST_0:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.sum"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[V0]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.broadcast"(%[[V1]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.sub"(%[[ARG0]], %[[V2]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[V3]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.sum"(%[[V4]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.mul"(%[[V5]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.add"(%[[V6]], %[[CST_0]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.rsqrt"(%[[V7]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.broadcast"(%[[V8]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V10:.*]] = "rt.mul"(%[[V3]], %[[V9]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V11:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V12:.*]] = "rt.broadcast"(%[[ARG2]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V13:.*]] = "rt.mul"(%[[V10]], %[[V11]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V14:.*]] = "rt.add"(%[[V13]], %[[V12]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V1]], %[[V8]], %[[V14]] : tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>
// CHECK-NEXT: }
func.func @layernorm(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) {
  %inv = arith.constant 1.562500e-02 : f32
  %eps = arith.constant 1.000000e-05 : f32
  %s = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %mean = "rt.mul"(%s, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %mb = "rt.broadcast"(%mean) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %xc = "rt.sub"(%x, %mb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %sq = "rt.mul"(%xc, %xc) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %vs = "rt.sum"(%sq) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %var = "rt.mul"(%vs, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %ve = "rt.add"(%var, %eps) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %rstd = "rt.rsqrt"(%ve) : (tensor<16xf32>) -> tensor<16xf32>
  %rb = "rt.broadcast"(%rstd) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %xh = "rt.mul"(%xc, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %gb = "rt.broadcast"(%g) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %bb = "rt.broadcast"(%b) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %y0 = "rt.mul"(%xh, %gb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = "rt.add"(%y0, %bb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y, %mean, %rstd : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>
}

// dx in a row kernel (two sums over each row, then the epilogue); dgamma and dbeta reduce
// the columns (dims 0), in a second kernel that recomputes xhat.
// CHECK-LABEL: func.func @layernorm_bwd(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<16x64xf32>, %[[ARG2:[^:]*]]: tensor<16xf32>, %[[ARG3:[^:]*]]: tensor<16xf32>, %[[ARG4:[^:]*]]: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @layernorm_bwd_k0(%[[ARG2]], %[[ARG3]], %[[ARG1]], %[[ARG4]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]]:2 = call @layernorm_bwd_k1(%[[ARG2]], %[[ARG3]], %[[ARG1]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
// CHECK-NEXT: return %[[V0]], %[[V1]]#0, %[[V1]]#1 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_bwd_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>, %[[ARG3:[^:]*]]: tensor<64xf32>, %[[ARG4:[^:]*]]: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG2]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.broadcast"(%[[ARG3]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.mul"(%[[ARG4]], %[[V4]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.sum"(%[[V5]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.mul"(%[[V5]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.sum"(%[[V7]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.mul"(%[[V6]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V10:.*]] = "rt.mul"(%[[V8]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V11:.*]] = "rt.broadcast"(%[[V9]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V12:.*]] = "rt.broadcast"(%[[V10]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V13:.*]] = "rt.sub"(%[[V5]], %[[V11]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V14:.*]] = "rt.mul"(%[[V3]], %[[V12]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V15:.*]] = "rt.sub"(%[[V13]], %[[V14]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V16:.*]] = "rt.mul"(%[[V15]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V16]] : tensor<16x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_bwd_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>, %[[ARG3:[^:]*]]: tensor<16x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG2]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[ARG3]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.sum"(%[[V4]]) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.sum"(%[[ARG3]]) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: return %[[V5]], %[[V6]] : tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
func.func @layernorm_bwd(%dy: tensor<16x64xf32>, %x: tensor<16x64xf32>, %mean: tensor<16xf32>, %rstd: tensor<16xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %inv = arith.constant 1.562500e-02 : f32
  %mb = "rt.broadcast"(%mean) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %rb = "rt.broadcast"(%rstd) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %xc = "rt.sub"(%x, %mb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %xh = "rt.mul"(%xc, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %gb = "rt.broadcast"(%g) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %dxh = "rt.mul"(%dy, %gb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s1 = "rt.sum"(%dxh) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %p = "rt.mul"(%dxh, %xh) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s2 = "rt.sum"(%p) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %m1 = "rt.mul"(%s1, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %m2 = "rt.mul"(%s2, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %m1b = "rt.broadcast"(%m1) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %m2b = "rt.broadcast"(%m2) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %t1 = "rt.sub"(%dxh, %m1b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %t2 = "rt.mul"(%xh, %m2b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %t3 = "rt.sub"(%t1, %t2) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dx = "rt.mul"(%t3, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %q = "rt.mul"(%dy, %xh) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dg = "rt.sum"(%q) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
  %db = "rt.sum"(%dy) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
  return %dx, %dg, %db : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
}

// The same with the weight gradients written first.
// CHECK-LABEL: func.func @layernorm_bwd_dw_first(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<16x64xf32>, %[[ARG2:[^:]*]]: tensor<16xf32>, %[[ARG3:[^:]*]]: tensor<16xf32>, %[[ARG4:[^:]*]]: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) {
// CHECK-NEXT: %[[V0:.*]]:2 = call @layernorm_bwd_dw_first_k0(%[[ARG2]], %[[ARG3]], %[[ARG1]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
// CHECK-NEXT: %[[V1:.*]] = call @layernorm_bwd_dw_first_k1(%[[ARG2]], %[[ARG3]], %[[ARG1]], %[[ARG4]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V1]], %[[V0]]#0, %[[V0]]#1 : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_bwd_dw_first_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>, %[[ARG3:[^:]*]]: tensor<16x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG2]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[ARG3]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.sum"(%[[V4]]) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.sum"(%[[ARG3]]) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: return %[[V5]], %[[V6]] : tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_bwd_dw_first_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>, %[[ARG3:[^:]*]]: tensor<64xf32>, %[[ARG4:[^:]*]]: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG2]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.broadcast"(%[[ARG3]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.mul"(%[[ARG4]], %[[V4]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.sum"(%[[V5]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.mul"(%[[V5]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.sum"(%[[V7]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.mul"(%[[V6]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V10:.*]] = "rt.mul"(%[[V8]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V11:.*]] = "rt.broadcast"(%[[V9]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V12:.*]] = "rt.broadcast"(%[[V10]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V13:.*]] = "rt.sub"(%[[V5]], %[[V11]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V14:.*]] = "rt.mul"(%[[V3]], %[[V12]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V15:.*]] = "rt.sub"(%[[V13]], %[[V14]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V16:.*]] = "rt.mul"(%[[V15]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V16]] : tensor<16x64xf32>
// CHECK-NEXT: }
func.func @layernorm_bwd_dw_first(%dy: tensor<16x64xf32>, %x: tensor<16x64xf32>, %mean: tensor<16xf32>, %rstd: tensor<16xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %inv = arith.constant 1.562500e-02 : f32
  %mb = "rt.broadcast"(%mean) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %rb = "rt.broadcast"(%rstd) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %xc = "rt.sub"(%x, %mb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %xh = "rt.mul"(%xc, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %q = "rt.mul"(%dy, %xh) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dg = "rt.sum"(%q) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
  %db = "rt.sum"(%dy) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
  %gb = "rt.broadcast"(%g) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %dxh = "rt.mul"(%dy, %gb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s1 = "rt.sum"(%dxh) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %p = "rt.mul"(%dxh, %xh) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s2 = "rt.sum"(%p) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %m1 = "rt.mul"(%s1, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %m2 = "rt.mul"(%s2, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %m1b = "rt.broadcast"(%m1) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %m2b = "rt.broadcast"(%m2) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %t1 = "rt.sub"(%dxh, %m1b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %t2 = "rt.mul"(%xh, %m2b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %t3 = "rt.sub"(%t1, %t2) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dx = "rt.mul"(%t3, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %dx, %dg, %db : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32>
}

// Softmax over the last dim (max subtracted): one row kernel, two phases (amax, then the
// sum of the exps), the division as epilogue.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @softmax_k0(%[[ARG0]]) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @softmax_k0(%[[ARG0:[^:]*]]: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.amax"(%[[ARG0]]) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[V0]]) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.sub"(%[[ARG0]], %[[V1]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.exp"(%[[V2]]) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.sum"(%[[V3]]) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.broadcast"(%[[V4]]) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.div"(%[[V3]], %[[V5]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: return %[[V6]] : tensor<4x8x32xf32>
// CHECK-NEXT: }
func.func @softmax(%x: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %m = "rt.amax"(%x) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
  %mb = "rt.broadcast"(%m) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
  %s = "rt.sub"(%x, %mb) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %e = "rt.exp"(%s) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %z = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
  %zb = "rt.broadcast"(%z) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
  %y = "rt.div"(%e, %zb) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}

// dx = y * (dy - sum(dy * y)): one row kernel.
// CHECK-LABEL: func.func @softmax_bwd(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<4x8x32xf32>, %[[ARG1:[^:]*]]: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @softmax_bwd_k0(%[[ARG1]], %[[ARG0]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<4x8x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @softmax_bwd_k0(%[[ARG0:[^:]*]]: tensor<4x8x32xf32>, %[[ARG1:[^:]*]]: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.mul"(%[[ARG0]], %[[ARG1]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.sum"(%[[V0]]) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.broadcast"(%[[V1]]) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.sub"(%[[ARG0]], %[[V2]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.mul"(%[[ARG1]], %[[V3]]) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: return %[[V4]] : tensor<4x8x32xf32>
// CHECK-NEXT: }
func.func @softmax_bwd(%y: tensor<4x8x32xf32>, %dy: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %p = "rt.mul"(%dy, %y) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %s = "rt.sum"(%p) {dims = array<i64: 2>} : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
  %sb = "rt.broadcast"(%s) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
  %d = "rt.sub"(%dy, %sb) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %dx = "rt.mul"(%y, %d) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %dx : tensor<4x8x32xf32>
}

// RMSNorm: one row kernel.
// CHECK-LABEL: func.func @rmsnorm(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
// CHECK-NEXT: %[[V0:.*]]:2 = call @rmsnorm_k0(%[[ARG0]], %[[ARG1]]) : (tensor<16x64xf32>, tensor<64xf32>) -> (tensor<16xf32>, tensor<16x64xf32>)
// CHECK-NEXT: return %[[V0]]#1, %[[V0]]#0 : tensor<16x64xf32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @rmsnorm_k0(%[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<64xf32>) -> (tensor<16xf32>, tensor<16x64xf32>) attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT: %[[CST_0:.*]] = arith.constant 9.99999997E-7 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.mul"(%[[ARG0]], %[[ARG0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.sum"(%[[V0]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[V1]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.add"(%[[V2]], %[[CST_0]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.rsqrt"(%[[V3]]) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.broadcast"(%[[V4]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.mul"(%[[ARG0]], %[[V5]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.mul"(%[[V7]], %[[V6]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V4]], %[[V8]] : tensor<16xf32>, tensor<16x64xf32>
// CHECK-NEXT: }
func.func @rmsnorm(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %inv = arith.constant 1.562500e-02 : f32
  %eps = arith.constant 1.000000e-06 : f32
  %sq = "rt.mul"(%x, %x) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %ss = "rt.sum"(%sq) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %ms = "rt.mul"(%ss, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %me = "rt.add"(%ms, %eps) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %r = "rt.rsqrt"(%me) : (tensor<16xf32>) -> tensor<16xf32>
  %rb = "rt.broadcast"(%r) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %gb = "rt.broadcast"(%g) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %xn = "rt.mul"(%x, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = "rt.mul"(%xn, %gb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y, %r : tensor<16x64xf32>, tensor<16xf32>
}

// RMSNorm backward: dx in a row kernel, dg as column sums.
// CHECK-LABEL: func.func @rmsnorm_bwd(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>, %[[ARG1:[^:]*]]: tensor<16x64xf32>, %[[ARG2:[^:]*]]: tensor<16xf32>, %[[ARG3:[^:]*]]: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>) {
// CHECK-NEXT: %[[V0:.*]] = call @rmsnorm_bwd_k0(%[[ARG2]], %[[ARG3]], %[[ARG0]], %[[ARG1]]) : (tensor<16xf32>, tensor<64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = call @rmsnorm_bwd_k1(%[[ARG2]], %[[ARG1]], %[[ARG0]]) : (tensor<16xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<16x64xf32>, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @rmsnorm_bwd_k0(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<64xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>, %[[ARG3:[^:]*]]: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 1.562500e-02 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.broadcast"(%[[ARG1]]) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[ARG2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.mul"(%[[V2]], %[[ARG3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.sum"(%[[V3]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.mul"(%[[ARG0]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.mul"(%[[V5]], %[[ARG0]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.mul"(%[[V6]], %[[V4]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.mul"(%[[V7]], %[[CST]]) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.broadcast"(%[[V8]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V10:.*]] = "rt.mul"(%[[V2]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V11:.*]] = "rt.mul"(%[[ARG3]], %[[V9]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V12:.*]] = "rt.sub"(%[[V10]], %[[V11]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V12]] : tensor<16x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @rmsnorm_bwd_k1(%[[ARG0:[^:]*]]: tensor<16xf32>, %[[ARG1:[^:]*]]: tensor<16x64xf32>, %[[ARG2:[^:]*]]: tensor<16x64xf32>) -> tensor<64xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[V0:.*]] = "rt.broadcast"(%[[ARG0]]) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.mul"(%[[ARG1]], %[[V0]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.mul"(%[[ARG2]], %[[V1]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.sum"(%[[V2]]) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
// CHECK-NEXT: return %[[V3]] : tensor<64xf32>
// CHECK-NEXT: }
func.func @rmsnorm_bwd(%dy: tensor<16x64xf32>, %x: tensor<16x64xf32>, %r: tensor<16xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<64xf32>) {
  %inv = arith.constant 1.562500e-02 : f32
  %rb = "rt.broadcast"(%r) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %gb = "rt.broadcast"(%g) {dims = array<i64: 1>} : (tensor<64xf32>) -> tensor<16x64xf32>
  %gdy = "rt.mul"(%dy, %gb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %p = "rt.mul"(%gdy, %x) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s = "rt.sum"(%p) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %r2 = "rt.mul"(%r, %r) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r3 = "rt.mul"(%r2, %r) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c = "rt.mul"(%r3, %s) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c2 = "rt.mul"(%c, %inv) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %cb = "rt.broadcast"(%c2) {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %a = "rt.mul"(%gdy, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %bx = "rt.mul"(%x, %cb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dx = "rt.sub"(%a, %bx) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %xn = "rt.mul"(%x, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %q = "rt.mul"(%dy, %xn) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %dg = "rt.sum"(%q) {dims = array<i64: 0>} : (tensor<16x64xf32>) -> tensor<64xf32>
  return %dx, %dg : tensor<16x64xf32>, tensor<64xf32>
}

// A keepdim reduction (mean as [16, 1], as PyTorch's decomposition writes it): shapes of
// the rows' size with dims of size 1 are per-row values too; one kernel.
// CHECK-LABEL: func.func @layernorm_keepdim(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<16x64xf32>) -> tensor<16x64xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @layernorm_keepdim_k0(%[[ARG0]]) : (tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @layernorm_keepdim_k0(%[[ARG0:[^:]*]]: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 6.400000e+01 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.sum"(%[[ARG0]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.reshape"(%[[V0]]) : (tensor<16xf32>) -> tensor<16x1xf32>
// CHECK-NEXT: %[[V2:.*]] = "rt.div"(%[[V1]], %[[CST]]) : (tensor<16x1xf32>, f32) -> tensor<16x1xf32>
// CHECK-NEXT: %[[V3:.*]] = "rt.broadcast"(%[[V2]]) {dims = array<i64: 0, 1>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V4:.*]] = "rt.sub"(%[[ARG0]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V5:.*]] = "rt.mul"(%[[V4]], %[[V4]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V6:.*]] = "rt.sum"(%[[V5]]) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[V7:.*]] = "rt.reshape"(%[[V6]]) : (tensor<16xf32>) -> tensor<16x1xf32>
// CHECK-NEXT: %[[V8:.*]] = "rt.div"(%[[V7]], %[[CST]]) : (tensor<16x1xf32>, f32) -> tensor<16x1xf32>
// CHECK-NEXT: %[[V9:.*]] = "rt.rsqrt"(%[[V8]]) : (tensor<16x1xf32>) -> tensor<16x1xf32>
// CHECK-NEXT: %[[V10:.*]] = "rt.broadcast"(%[[V9]]) {dims = array<i64: 0, 1>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V11:.*]] = "rt.sub"(%[[ARG0]], %[[V3]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: %[[V12:.*]] = "rt.mul"(%[[V11]], %[[V10]]) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: return %[[V12]] : tensor<16x64xf32>
// CHECK-NEXT: }
func.func @layernorm_keepdim(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %n = arith.constant 6.400000e+01 : f32
  %s = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %s1 = "rt.reshape"(%s) : (tensor<16xf32>) -> tensor<16x1xf32>
  %mean = "rt.div"(%s1, %n) : (tensor<16x1xf32>, f32) -> tensor<16x1xf32>
  %mb = "rt.broadcast"(%mean) {dims = array<i64: 0, 1>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
  %xc = "rt.sub"(%x, %mb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %sq = "rt.mul"(%xc, %xc) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %v = "rt.sum"(%sq) {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %v1 = "rt.reshape"(%v) : (tensor<16xf32>) -> tensor<16x1xf32>
  %var = "rt.div"(%v1, %n) : (tensor<16x1xf32>, f32) -> tensor<16x1xf32>
  %r = "rt.rsqrt"(%var) : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %rb = "rt.broadcast"(%r) {dims = array<i64: 0, 1>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
  %xc2 = "rt.sub"(%x, %mb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = "rt.mul"(%xc2, %rb) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
