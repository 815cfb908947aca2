// --remat-attention on hand-written forward-only attentions: each form it rewrites, with
// the attributes it writes, and each near miss it leaves alone, with the report's reason.
// RUN: remat-opt --remat-attention --remat-report %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s < %t.mlir
// The rewrite then autodiff: rt.attention is differentiated into rt.attention_grad.
// RUN: remat-opt --remat-attention --remat-autodiff %s | FileCheck %s --check-prefix=AD
// Autodiff first: its backward of the decomposed softmax (through the division, the exp and
// the row maximum) is recognised too; the module is the same as with the rewrite first.
// RUN: remat-opt --remat-autodiff --remat-attention --remat-report %s -o %t.adfirst.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ADFIRST
// RUN: remat-opt --remat-attention --remat-autodiff %s | diff - %t.adfirst.mlir

// Hand-written attentions, forward only, q k v [N=2, S=4, D=3]: one per form the pass
// rewrites (no scale, an additive mask, a causal mask from rt.iota in two spellings,
// dropout, no dropout) and the ones it must leave alone (softmax over the wrong axis, a
// probability tensor used outside the pattern, a mask that keeps the upper triangle).

// No scale, no mask, no dropout.
func.func @no_scale(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> attributes {rt.autodiff} {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// An additive mask [S, S] broadcast over N, a scale by division.
func.func @additive(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>, %mask: tensor<4x4xf32>) -> tensor<2x4x3xf32> attributes {rt.autodiff = {wrt = [0, 1, 2]}} {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s0 = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant 2.0 : f32
  %s1 = "rt.div"(%s0, %c) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %mb = "rt.broadcast"(%mask) {dims = array<i64: 1, 2>} : (tensor<4x4xf32>) -> tensor<2x4x4xf32>
  %s = "rt.add"(%s1, %mb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// A causal mask computed in the graph: row >= col keeps (select(keep, s, -inf)), scale
// by multiplication, Philox dropout as the importer writes it.
func.func @causal_iota(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>, %seed: i64, %offset: i64) -> tensor<2x4x3xf32> attributes {rt.autodiff} {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s0 = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant 0.5 : f32
  %s1 = "rt.mul"(%s0, %c) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %row = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xi64>
  %col = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xi64>
  %keep = "rt.ge"(%row, %col) : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi1>
  %keepb = "rt.broadcast"(%keep) {dims = array<i64: 1, 2>} : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %s = "rt.select"(%keepb, %s1, %ninf) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x4x4xf32>
  %kp = arith.constant 0.75 : f32
  %lt = "rt.lt"(%u, %kp) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xi1>
  %z = "rt.convert"(%lt) : (tensor<2x4x4xi1>) -> tensor<2x4x4xf32>
  %pz = "rt.mul"(%p, %z) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pd = "rt.div"(%pz, %kp) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%pd, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// torch.tril's lowering (col - row <= 1: keep), negated by rt.eq(x, false) into a
// masked_fill condition (select(drop, -inf, s)): causal = 1.
func.func @causal_tril(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> attributes {rt.autodiff} {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s0 = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %row = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xi64>
  %col = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xi64>
  %diff = "rt.sub"(%col, %row) : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi64>
  %one = arith.constant 1 : i64
  %keep = "rt.le"(%diff, %one) : (tensor<4x4xi64>, i64) -> tensor<4x4xi1>
  %f = arith.constant false
  %drop = "rt.eq"(%keep, %f) : (tensor<4x4xi1>, i1) -> tensor<4x4xi1>
  %dropb = "rt.broadcast"(%drop) {dims = array<i64: 1, 2>} : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %s = "rt.select"(%dropb, %ninf, %s0) : (tensor<2x4x4xi1>, f32, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// Not attention: the softmax is over axis 1 (the queries), not the last.
func.func @wrong_axis(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 1>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 2>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 1>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 2>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// Not rewritten: the probabilities are also returned, so they cannot be removed.
func.func @p_returned(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x4xf32>) {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o, %p : tensor<2x4x3xf32>, tensor<2x4x4xf32>
}

// Not rewritten: the mask keeps col - row >= 0 (the upper triangle), not a causal one.
func.func @upper(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s0 = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %row = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xi64>
  %col = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xi64>
  %keep = "rt.le"(%row, %col) : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi1>
  %keepb = "rt.broadcast"(%keep) {dims = array<i64: 1, 2>} : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %s = "rt.select"(%keepb, %s0, %ninf) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}

// REPORT:      remat-attention: @no_scale
// REPORT-NEXT:   rewritten: attention at near-miss.mlir:29:8: rt.attention {scale = 1}, no backward; 10 ops erased
// REPORT-NEXT:   attentions: 1 rewritten, 0 left
// REPORT-NEXT: remat-attention: @additive
// REPORT-NEXT:   rewritten: attention at near-miss.mlir:48:8: rt.attention {scale = 0.5, mask = "add"}, no backward; 14 ops erased
// REPORT-NEXT:   attentions: 1 rewritten, 0 left
// REPORT-NEXT: remat-attention: @causal_iota
// REPORT-NEXT:   rewritten: attention at near-miss.mlir:78:8: rt.attention {scale = 0.5, causal = 0, keep = 0.75}, no backward; 24 ops erased
// REPORT-NEXT:   attentions: 1 rewritten, 0 left
// REPORT-NEXT: remat-attention: @causal_tril
// REPORT-NEXT:   rewritten: attention at near-miss.mlir:104:8: rt.attention {scale = 1, causal = 1}, no backward; 20 ops erased
// REPORT-NEXT:   attentions: 1 rewritten, 0 left
// REPORT-NEXT: remat-attention: @wrong_axis
// REPORT-NEXT:   not rewritten: attention at near-miss.mlir:119:8: softmax over axis 1, not the last (2)
// REPORT-NEXT:   attentions: 0 rewritten, 1 left
// REPORT-NEXT: remat-attention: @p_returned
// REPORT-NEXT:   not rewritten: attention at near-miss.mlir:134:8: rt.div at near-miss.mlir:133:8 has a user outside the pattern (func.return): the backward, if any, was not recognised
// REPORT-NEXT:   attentions: 0 rewritten, 1 left
// REPORT-NEXT: remat-attention: @upper
// REPORT-NEXT:   not rewritten: attention at near-miss.mlir:155:8: the mask computed from rt.iota keeps j - i >= 0, not a lower triangle (causal)
// REPORT-NEXT:   attentions: 0 rewritten, 1 left

// Each rewritten function is one rt.attention on its arguments (the iota masks, the
// dropout's uniforms and every view erased); the others are unchanged.
// CHECK-LABEL: func.func @no_scale
// CHECK-NEXT:    %[[O:[0-9]+]]:2 = "rt.attention"(%arg0, %arg1, %arg2) {scale = 1.000000e+00 : f64} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    return %[[O]]#0 : tensor<2x4x3xf32>
// CHECK-LABEL: func.func @additive
// CHECK-NEXT:    %[[O:[0-9]+]]:2 = "rt.attention"(%arg0, %arg1, %arg2, %arg3) {mask = "add", scale = 5.000000e-01 : f64} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<4x4xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    return %[[O]]#0
// CHECK-LABEL: func.func @causal_iota
// CHECK-NEXT:    %[[O:[0-9]+]]:2 = "rt.attention"(%arg0, %arg1, %arg2, %arg3, %arg4) {causal = 0 : i64, keep = 7.500000e-01 : f64, scale = 5.000000e-01 : f64} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, i64, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    return %[[O]]#0
// CHECK-LABEL: func.func @causal_tril
// CHECK-NEXT:    %[[O:[0-9]+]]:2 = "rt.attention"(%arg0, %arg1, %arg2) {causal = 1 : i64, scale = 1.000000e+00 : f64} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    return %[[O]]#0
// CHECK-LABEL: func.func @wrong_axis
// CHECK-NOT:     rt.attention
// CHECK:         "rt.amax"(%{{[0-9]+}}) {dims = array<i64: 1>}
// CHECK-LABEL: func.func @p_returned
// CHECK-NOT:     rt.attention
// CHECK:         "rt.exp"
// CHECK-LABEL: func.func @upper
// CHECK-NOT:     rt.attention
// CHECK:         "rt.le"

// ADFIRST:      remat-attention: @no_scale
// ADFIRST-NEXT:   rewritten: attention at near-miss.mlir:29:8: rt.attention {scale = 1} and its backward: rt.attention_grad; 33 ops erased
// ADFIRST:        rewritten: attention at near-miss.mlir:48:8: rt.attention {scale = 0.5, mask = "add"} and its backward: rt.attention_grad; 38 ops erased
// ADFIRST:        rewritten: attention at near-miss.mlir:78:8: rt.attention {scale = 0.5, causal = 0, keep = 0.75} and its backward: rt.attention_grad; 52 ops erased
// ADFIRST:        rewritten: attention at near-miss.mlir:104:8: rt.attention {scale = 1, causal = 1} and its backward: rt.attention_grad; 45 ops erased

// AD-LABEL: func.func @no_scale
// AD:         %[[O:[0-9]+]]:2 = "rt.attention"(%arg0, %arg1, %arg2)
// AD-NEXT:    "rt.attention_grad"(%arg0, %arg1, %arg2, %[[O]]#0, %[[O]]#1, %arg3) {scale = 1.000000e+00 : f64}
// AD-LABEL: func.func @additive
// AD:         "rt.attention_grad"(%arg0, %arg1, %arg2, %{{[0-9]+}}#0, %{{[0-9]+}}#1, %arg4, %arg3) {mask = "add", scale = 5.000000e-01 : f64}
// AD-LABEL: func.func @causal_iota
// AD:         "rt.attention_grad"(%arg0, %arg1, %arg2, %{{[0-9]+}}#0, %{{[0-9]+}}#1, %arg5, %arg3, %arg4) {causal = 0 : i64, keep = 7.500000e-01 : f64, scale = 5.000000e-01 : f64}
// AD-LABEL: func.func @causal_tril
// AD:         "rt.attention_grad"(%arg0, %arg1, %arg2, %{{[0-9]+}}#0, %{{[0-9]+}}#1, %arg3) {causal = 1 : i64, scale = 1.000000e+00 : f64}
