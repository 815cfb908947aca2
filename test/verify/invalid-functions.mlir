// The semantic verifier on functions and tags: static shapes, rt.num_outputs,
// rt.tangent, rt.policy.
// Each part between the separators is a module of its own; every error is expected
// at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

// expected-error @+1 {{function '@f' argument #0 has a dynamic shape 'tensor<?x8xf32>'}}
func.func @f(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.exp' operand #0 has a dynamic shape 'tensor<?x8xf32>': only static shapes are supported}}
  %0 = "rt.exp"(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}

// -----

// expected-error @+1 {{'rt.num_outputs' = 2 of '@j' is out of range: the function has 1 results}}
func.func @j(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> tensor<4xf32> attributes {rt.num_outputs = 2 : i64} {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'rt.num_outputs' of '@j' must be an integer}}
func.func @j(%a: tensor<4xf32>) -> tensor<4xf32> attributes {rt.num_outputs = "one"} {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #1 of '@j' is marked 'rt.tangent' but the function has no 'rt.num_outputs'}}
func.func @j(%a: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> tensor<4xf32> {
  %0 = "rt.mul"(%a, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.policy' must be one of "must_save", "prefer_save", "must_recompute", "prefer_recompute"}}
  %0 = "rt.exp"(%a) {rt.policy = "always"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
