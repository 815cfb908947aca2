// A plain function of host ops only: no joint function, nothing to fuse or lower.
func.func @f(%a: tensor<4x4xf32>) -> tensor<16xf32> {
  %0 = "rt.matmul"(%a, %a) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "rt.reshape"(%0) : (tensor<4x4xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}
