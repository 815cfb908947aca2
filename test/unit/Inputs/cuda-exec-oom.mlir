// 1 GiB: under remat-run's limit of 4 GiB per tensor, above what cuda_exec_test may
// allocate twice under cuda_exec_test.test's `ulimit -v`.
func.func @big(%s: f32) -> tensor<268435456xf32> {
  %0 = "rt.full"() {value = 1.0 : f32} : () -> tensor<268435456xf32>
  return %0 : tensor<268435456xf32>
}
