func.func @u(%seed: i64, %offset: i64) -> tensor<3x7xf32> {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<3x7xf32>
  return %u : tensor<3x7xf32>
}
