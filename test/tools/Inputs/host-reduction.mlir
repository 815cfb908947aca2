// A plain function: a matmul and a host reduction, nothing elementwise, no joint function.
func.func @f(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %0 = "rt.matmul"(%a, %a) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "rt.sum"(%0) {dims = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
