// The forward of examples/dropout.mlir alone: t5 = a * (a * mask(seed, offset) * 2.0).
// --remat-autodiff writes the backward that the example writes by hand.
func.func @seed_dropout(%a: tensor<2x2xf32>, %seed: i64, %offset: i64) -> tensor<2x2xf32>
    attributes {rt.autodiff} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1>
  %t2 = "rt.convert"(%t1) : (tensor<2x2xi1>) -> tensor<2x2xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
  %t5 = "rt.mul"(%a, %t4) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t5 : tensor<2x2xf32>
}
