// The dropout forward and backward kernels (the form --remat-mincut --remat-fuse give
// them) on 2^20 elements, for dropout_gpu.c.
func.func private @drop_fwd_k0(%seed: i64, %offset: i64, %a: tensor<1048576xf32>) -> tensor<1048576xf32> attributes {rt.kernel} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<1048576xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<1048576xf32>, f32) -> tensor<1048576xi1>
  %t2 = "rt.convert"(%t1) : (tensor<1048576xi1>) -> tensor<1048576xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<1048576xf32>, f32) -> tensor<1048576xf32>
  %t5 = "rt.mul"(%a, %t4) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  return %t5 : tensor<1048576xf32>
}
func.func private @drop_bwd_k0(%seed: i64, %offset: i64, %a: tensor<1048576xf32>, %g: tensor<1048576xf32>) -> tensor<1048576xf32> attributes {rt.kernel} {
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %t0 = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<1048576xf32>
  %t1 = "rt.lt"(%t0, %half) : (tensor<1048576xf32>, f32) -> tensor<1048576xi1>
  %t2 = "rt.convert"(%t1) : (tensor<1048576xi1>) -> tensor<1048576xf32>
  %t3 = "rt.mul"(%a, %t2) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %t4 = "rt.mul"(%t3, %two) : (tensor<1048576xf32>, f32) -> tensor<1048576xf32>
  %t33 = "rt.mul"(%t4, %g) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %t34 = "rt.mul"(%a, %g) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %t35 = "rt.mul"(%t34, %two) : (tensor<1048576xf32>, f32) -> tensor<1048576xf32>
  %t36 = "rt.mul"(%t2, %t35) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %t39 = "rt.add"(%t33, %t36) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  return %t39 : tensor<1048576xf32>
}
