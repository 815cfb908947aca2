// A one-op kernel for the command-line tests.
func.func private @add_k0(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> attributes {rt.kernel} {
  %0 = "rt.add"(%a, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
