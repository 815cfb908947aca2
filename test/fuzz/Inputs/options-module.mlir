// The module fuzz_options runs every pass it can build on (test/fuzz/fuzz_options.c):
// dropout (Philox), an FSDP gather with matmuls, a small MLP, attention-like matmuls, and
// a forward function for --remat-autodiff. Copied from examples/dropout.mlir,
// test/checkpoint/fsdp.mlir, test/mincut/mlp.mlir, test/checkpoint/matmul-kinds.mlir and
// test/autodiff/Inputs/mlp-forward.mlir (renamed @mlp_forward).
func.func @seed_dropout(%a: tensor<2x2xf32>, %seed: i64, %offset: i64,
                        %g: tensor<2x2xf32> {rt.tangent})
    -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
  %t2 = "rt.convert"(%t1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t5 = "rt.mul"(%a, %t4) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t33 = "rt.mul"(%t4, %g) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t34 = "rt.mul"(%a, %g) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t35 = "rt.mul"(%t34, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t36 = "rt.mul"(%t2, %t35) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t39 = "rt.add"(%t33, %t36) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t5, %t39 : tensor<2x2xf32>, tensor<2x2xf32>
}
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
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32> {rt.param},
               %w2: tensor<16x8xf32> {rt.param}, %seed: i64, %offset: i64,
               %g: tensor<4x8xf32> {rt.tangent})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %k = arith.constant 4.471500e-02 : f32
  %k3 = arith.constant 1.341450e-01 : f32
  %s = arith.constant 0.797884583 : f32
  // forward: h = x w1; gl = gelu(h) (tanh approximation); y = gl w2; out = dropout(y)
  %h = "rt.matmul"(%x, %w1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %h2 = "rt.mul"(%h, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %h3 = "rt.mul"(%h2, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = "rt.mul"(%h3, %k) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %b = "rt.add"(%h, %a) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = "rt.mul"(%b, %s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %t = "rt.tanh"(%c) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = "rt.add"(%t, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %v = "rt.mul"(%h, %u) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gl = "rt.mul"(%v, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %y = "rt.matmul"(%gl, %w2) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %m = "rt.lt"(%r, %half) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %mf = "rt.convert"(%m) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %z = "rt.mul"(%y, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = "rt.mul"(%z, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  // backward
  %gz = "rt.mul"(%g, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %gy = "rt.mul"(%gz, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2t = "rt.transpose"(%w2) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %ggl = "rt.matmul"(%gy, %w2t) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %glt = "rt.transpose"(%gl) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %gw2 = "rt.matmul"(%glt, %gy) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  // gelu'(h) = 0.5 u + 0.5 h (1 - t^2) s (1 + 3 k h^2)
  %tt = "rt.mul"(%t, %t) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %omt = "rt.sub"(%one, %tt) : (f32, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p1 = "rt.mul"(%h2, %k3) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p2 = "rt.add"(%p1, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p3 = "rt.mul"(%p2, %s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %p4 = "rt.mul"(%omt, %p3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p5 = "rt.mul"(%p4, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p6 = "rt.mul"(%p5, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %u2 = "rt.mul"(%u, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %dg = "rt.add"(%u2, %p6) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gh = "rt.mul"(%ggl, %dg) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %w1t = "rt.transpose"(%w1) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %gx = "rt.matmul"(%gh, %w1t) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %ght = "rt.transpose"(%gh) {perm = array<i64: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %gw1t = "rt.matmul"(%ght, %x) : (tensor<16x4xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  %gw1 = "rt.transpose"(%gw1t) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  return %out, %gx, %gw1, %gw2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x8xf32>
}
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
func.func @mlp_forward(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32> {rt.param},
               %w2: tensor<16x8xf32> {rt.param}, %seed: i64, %offset: i64)
    -> tensor<4x8xf32> attributes {rt.autodiff} {
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %k = arith.constant 4.471500e-02 : f32
  %s = arith.constant 0.797884583 : f32
  %h = "rt.matmul"(%x, %w1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %h2 = "rt.mul"(%h, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %h3 = "rt.mul"(%h2, %h) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = "rt.mul"(%h3, %k) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %b = "rt.add"(%h, %a) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = "rt.mul"(%b, %s) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %t = "rt.tanh"(%c) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = "rt.add"(%t, %one) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %v = "rt.mul"(%h, %u) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %gl = "rt.mul"(%v, %half) : (tensor<4x16xf32>, f32) -> tensor<4x16xf32>
  %y = "rt.matmul"(%gl, %w2) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  %m = "rt.lt"(%r, %half) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %mf = "rt.convert"(%m) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  %z = "rt.mul"(%y, %mf) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = "rt.mul"(%z, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
