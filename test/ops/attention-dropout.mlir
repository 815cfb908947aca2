// rt.attention and rt.attention_grad redraw the dropout mask of the unfused graph bit for
// bit (docs/design.md, "Attention"): (n, i, j) is element (n Sq + i) Sk + j of
// rt.uniform_philox(seed, offset) over [N, Sq, Sk], kept when below keep. With q = k = 0
// every probability is 1/Sk, and v = I makes o_i = z_i / (Sk keep): o > 0 is the forward's
// mask; do = I makes dv_j,i = pd_ij: dv^T > 0 is the backward's. Both equal the unfused
// rt.lt, for seeds and offsets drawn full-width (an offset past 2^32 included).
//
// RUN: for s in 1 2 3; do \
// RUN:   remat-run %s --reference --fn unfused --seed $s && remat-run %s --reference --fn fused --seed $s; \
// RUN: done | FileCheck %s
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H1:0x[0-9a-f]+]]
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H1]]
// CHECK-NEXT: result #1: tensor<2x8x80xi1> {{.*}} hash=[[H1]]
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H2:0x[0-9a-f]+]]
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H2]]
// CHECK-NEXT: result #1: tensor<2x8x80xi1> {{.*}} hash=[[H2]]
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H3:0x[0-9a-f]+]]
// CHECK: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H3]]
// CHECK-NEXT: result #1: tensor<2x8x80xi1> {{.*}} hash=[[H3]]
//
// The check can fail: another keep draws another mask.
// RUN: sed 's/keep = 0.8999999761581421/keep = 0.8/' %s > %t.mlir
// RUN: remat-run %t.mlir --reference --fn unfused --seed 1 > %t.out
// RUN: remat-run %t.mlir --reference --fn fused --seed 1 >> %t.out
// RUN: FileCheck %s --check-prefix=BAD < %t.out
// BAD: result #0: tensor<2x8x80xi1> {{.*}} hash=[[H:0x[0-9a-f]+]]
// BAD: result #0: tensor<2x8x80xi1>
// BAD-NOT: hash=[[H]]

func.func @unfused(%seed: i64, %offset: i64) -> tensor<2x8x80xi1> {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x8x80xf32>
  %keep = arith.constant 0.8999999761581421 : f32
  %z = "rt.lt"(%u, %keep) : (tensor<2x8x80xf32>, f32) -> tensor<2x8x80xi1>
  return %z : tensor<2x8x80xi1>
}

func.func @fused(%seed: i64, %offset: i64) -> (tensor<2x8x80xi1>, tensor<2x8x80xi1>) {
  %q = "rt.full"() {value = 0.0 : f32} : () -> tensor<2x8x1xf32>
  %k = "rt.full"() {value = 0.0 : f32} : () -> tensor<2x80x1xf32>
  %r = "rt.iota"() {dim = 1 : i64} : () -> tensor<2x80x80xi64>
  %c = "rt.iota"() {dim = 2 : i64} : () -> tensor<2x80x80xi64>
  %eye = "rt.eq"(%r, %c) : (tensor<2x80x80xi64>, tensor<2x80x80xi64>) -> tensor<2x80x80xi1>
  %v = "rt.convert"(%eye) : (tensor<2x80x80xi1>) -> tensor<2x80x80xf32>
  %a:2 = "rt.attention"(%q, %k, %v, %seed, %offset) {scale = 1.0 : f64, keep = 0.8999999761581421 : f64} : (tensor<2x8x1xf32>, tensor<2x80x1xf32>, tensor<2x80x80xf32>, i64, i64) -> (tensor<2x8x80xf32>, tensor<2x8xf32>)
  %zero = arith.constant 0.0 : f32
  %zf = "rt.gt"(%a#0, %zero) : (tensor<2x8x80xf32>, f32) -> tensor<2x8x80xi1>
  %do = "rt.slice"(%v) {start = array<i64: 0, 0, 0>, limit = array<i64: 2, 8, 80>, stride = array<i64: 1, 1, 1>} : (tensor<2x80x80xf32>) -> tensor<2x8x80xf32>
  %g:3 = "rt.attention_grad"(%q, %k, %v, %a#0, %a#1, %do, %seed, %offset) {scale = 1.0 : f64, keep = 0.8999999761581421 : f64} : (tensor<2x8x1xf32>, tensor<2x80x1xf32>, tensor<2x80x80xf32>, tensor<2x8x80xf32>, tensor<2x8xf32>, tensor<2x8x80xf32>, i64, i64) -> (tensor<2x8x1xf32>, tensor<2x80x1xf32>, tensor<2x80x80xf32>)
  %dvt = "rt.transpose"(%g#2) {perm = array<i64: 0, 2, 1>} : (tensor<2x80x80xf32>) -> tensor<2x80x80xf32>
  %dvs = "rt.slice"(%dvt) {start = array<i64: 0, 0, 0>, limit = array<i64: 2, 8, 80>, stride = array<i64: 1, 1, 1>} : (tensor<2x80x80xf32>) -> tensor<2x8x80xf32>
  %zb = "rt.gt"(%dvs, %zero) : (tensor<2x8x80xf32>, f32) -> tensor<2x8x80xi1>
  return %zf, %zb : tensor<2x8x80xi1>, tensor<2x8x80xi1>
}
