// Annotations that do not match (verify-diagnostics.mlir checks each complaint).
func.func @f(%c: tensor<4xi32>) {
  // a missing error: the annotation points at the wrong line
  // expected-error @+2 {{'rt.exp' requires a floating-point}}
  %0 = "rt.exp"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @g(%c: tensor<4xi32>) {
  // expected-error @+1 {{no such message}}
  %0 = "rt.log"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @h(%c: tensor<4xi32>) {
  // expected-warning @+1 {{'rt.exp' requires}}
  %0 = "rt.exp"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @k(%c: tensor<4xi32>) {
  %0 = "rt.sin"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}
