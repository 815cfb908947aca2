// The forward of test/mincut/mlp.mlir alone: matmul -> gelu (tanh approximation, in rt
// ops) -> matmul -> dropout. --remat-autodiff writes the backward that test writes by hand.
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32> {rt.param},
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
