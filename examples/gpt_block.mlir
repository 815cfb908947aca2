// A GPT-2 style transformer block, forward only: the input of
//   remat-opt --remat-autodiff --remat-checkpoint --remat-mincut --remat-fuse
// which writes its backward, tags checkpoints, splits forward from backward and fuses
// both into kernels (remat-translate then lowers them to PTX).
//
//   h  = layernorm(x)                           (pre-norm, eps 1e-5, scale and shift)
//   q, k, v = h wq, h wk, h wv                  (2 heads of 4, T = 4 tokens, C = 8)
//   p  = dropout(softmax(causal(q k^T / 2)))    (attention dropout, p = 0.1)
//   x1 = x + dropout((p v) wo)                  (residual dropout)
//   x2 = x1 + dropout(gelu(layernorm(x1) w1) w2)  (MLP 8 -> 16 -> 8, tanh gelu)
//
// The three dropouts draw from one Philox stream: (seed, offset), (seed, offset + 8),
// (seed, offset + 16), offsets in 4-element blocks (the attention tensor has 32
// elements). The min-cut saves the seed and the offset instead of the masks, and the
// backward kernels recompute the masks from them.
func.func @gpt_block(%x: tensor<4x8xf32>,
                     %ln1_g: tensor<8xf32> {rt.param}, %ln1_b: tensor<8xf32> {rt.param},
                     %wq: tensor<8x8xf32> {rt.param}, %wk: tensor<8x8xf32> {rt.param},
                     %wv: tensor<8x8xf32> {rt.param}, %wo: tensor<8x8xf32> {rt.param},
                     %ln2_g: tensor<8xf32> {rt.param}, %ln2_b: tensor<8xf32> {rt.param},
                     %w1: tensor<8x16xf32> {rt.param}, %w2: tensor<16x8xf32> {rt.param},
                     %seed: i64, %offset: i64) -> tensor<4x8xf32>
    attributes {rt.autodiff} {
  %inv_c = arith.constant 1.250000e-01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %scale = arith.constant 5.000000e-01 : f32
  %neg_big = arith.constant -1.000000e+09 : f32
  %drop_p = arith.constant 1.000000e-01 : f32
  %keep_scale = arith.constant 1.11111116 : f32
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %gelu_k = arith.constant 4.471500e-02 : f32
  %gelu_s = arith.constant 0.797884583 : f32
  %blocks8 = arith.constant 8 : i64
  %blocks16 = arith.constant 16 : i64
  %offset2 = arith.addi %offset, %blocks8 : i64
  %offset3 = arith.addi %offset, %blocks16 : i64

  // layernorm 1
  %s1 = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %mean1 = "rt.mul"(%s1, %inv_c) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %mean1b = "rt.broadcast"(%mean1) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %xc1 = "rt.sub"(%x, %mean1b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq1 = "rt.mul"(%xc1, %xc1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ss1 = "rt.sum"(%sq1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %var1 = "rt.mul"(%ss1, %inv_c) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %vare1 = "rt.add"(%var1, %eps) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %rstd1 = "rt.rsqrt"(%vare1) : (tensor<4xf32>) -> tensor<4xf32>
  %rstd1b = "rt.broadcast"(%rstd1) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %xn1 = "rt.mul"(%xc1, %rstd1b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1b = "rt.broadcast"(%ln1_g) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %b1b = "rt.broadcast"(%ln1_b) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %hg1 = "rt.mul"(%xn1, %g1b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %h1 = "rt.add"(%hg1, %b1b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>

  // attention: [T, C] -> [H, T, hd]
  %q = "rt.matmul"(%h1, %wq) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %k = "rt.matmul"(%h1, %wk) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %v = "rt.matmul"(%h1, %wv) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %q3 = "rt.reshape"(%q) : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  %k3 = "rt.reshape"(%k) : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  %v3 = "rt.reshape"(%v) : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  %qh = "rt.transpose"(%q3) {perm = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %kt = "rt.transpose"(%k3) {perm = array<i64: 1, 2, 0>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %vh = "rt.transpose"(%v3) {perm = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %att = "rt.matmul"(%qh, %kt) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %atts = "rt.mul"(%att, %scale) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %row = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xi32>
  %col = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xi32>
  %causal = "rt.ge"(%row, %col) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %causalb = "rt.broadcast"(%causal) {dims = array<i64: 1, 2>} : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
  %attm = "rt.select"(%causalb, %atts, %neg_big) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %amax = "rt.amax"(%attm) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %amaxb = "rt.broadcast"(%amax) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %shift = "rt.sub"(%attm, %amaxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%shift) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %u1 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x4x4xf32>
  %keep1 = "rt.ge"(%u1, %drop_p) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xi1>
  %m1 = "rt.convert"(%keep1) : (tensor<2x4x4xi1>) -> tensor<2x4x4xf32>
  %pm = "rt.mul"(%p, %m1) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pd = "rt.mul"(%pm, %keep_scale) : (tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %oh = "rt.matmul"(%pd, %vh) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o3 = "rt.transpose"(%oh) {perm = array<i64: 1, 0, 2>} : (tensor<2x4x4xf32>) -> tensor<4x2x4xf32>
  %o = "rt.reshape"(%o3) : (tensor<4x2x4xf32>) -> tensor<4x8xf32>
  %a = "rt.matmul"(%o, %wo) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %u2 = "rt.uniform_philox"(%seed, %offset2) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %keep2 = "rt.ge"(%u2, %drop_p) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %m2 = "rt.convert"(%keep2) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %am = "rt.mul"(%a, %m2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ad = "rt.mul"(%am, %keep_scale) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %x1 = "rt.add"(%x, %ad) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>

  // layernorm 2
  %s2 = "rt.sum"(%x1) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %mean2 = "rt.mul"(%s2, %inv_c) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %mean2b = "rt.broadcast"(%mean2) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %xc2 = "rt.sub"(%x1, %mean2b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq2 = "rt.mul"(%xc2, %xc2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ss2 = "rt.sum"(%sq2) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %var2 = "rt.mul"(%ss2, %inv_c) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %vare2 = "rt.add"(%var2, %eps) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %rstd2 = "rt.rsqrt"(%vare2) : (tensor<4xf32>) -> tensor<4xf32>
  %rstd2b = "rt.broadcast"(%rstd2) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %xn2 = "rt.mul"(%xc2, %rstd2b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2b = "rt.broadcast"(%ln2_g) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %b2b = "rt.broadcast"(%ln2_b) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %hg2 = "rt.mul"(%xn2, %g2b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %h2 = "rt.add"(%hg2, %b2b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>

  // MLP: gelu(h2 w1) w2, tanh approximation
  %f = "rt.matmul"(%h2, %w1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %f2 = "rt.mul"(%f, %f) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %f3 = "rt.mul"(%f2, %f) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %fk = "rt.mul"(%f3, %gelu_k) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %fi = "rt.add"(%f, %fk) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %fs = "rt.mul"(%fi, %gelu_s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %ft = "rt.tanh"(%fs) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %fu = "rt.add"(%ft, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %fv = "rt.mul"(%f, %fu) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gl = "rt.mul"(%fv, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %mo = "rt.matmul"(%gl, %w2) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %u3 = "rt.uniform_philox"(%seed, %offset3) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %keep3 = "rt.ge"(%u3, %drop_p) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %m3 = "rt.convert"(%keep3) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %mm = "rt.mul"(%mo, %m3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %md = "rt.mul"(%mm, %keep_scale) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %x2 = "rt.add"(%x1, %md) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %x2 : tensor<4x8xf32>
}
