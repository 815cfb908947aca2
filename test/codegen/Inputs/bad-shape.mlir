// Fails remat's verifier (operand shapes differ).
func.func private @bad_k0(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3xf32> attributes {rt.kernel} {
  %0 = "rt.add"(%a, %b) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
