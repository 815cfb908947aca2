func.func @u(%seed: i64, %offset: i64) -> tensor<3x7xf32> {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<3x7xf32>
  return %u : tensor<3x7xf32>
}

// 140007 elements: philox_fill_f32 splits them over two threads when allowed
func.func @big(%seed: i64, %offset: i64) -> tensor<7x20001xf32> {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<7x20001xf32>
  return %u : tensor<7x20001xf32>
}

// other bounds: the fma of the mapping
func.func @range(%seed: i64, %offset: i64) -> tensor<5x13xf32> {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = -2.0 : f64, hi = 3.0 : f64} : (i64, i64) -> tensor<5x13xf32>
  return %u : tensor<5x13xf32>
}
