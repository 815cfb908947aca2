// What MLIR rejects before remat's verifier runs: malformed IR, unknown ops, IRDL's
// constraints.
// Each part between the separators is a module of its own; every error is expected
// at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

// Malformed IR: a located parse error and exit 1, no crash.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected ')'}}
  %0 = "rt.exp"(%a) : (tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'rt.softmax' found in dialect ('rt')}}
  %0 = "rt.softmax"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// IRDL's own constraints: declared attributes are required.
func.func @f(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'rt.transpose' op attribute "perm" is expected but not provided}}
  %0 = "rt.transpose"(%a) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// IRDL's own constraints: the seed of rt.uniform_philox must be i64.
func.func @f(%s: i32, %o: i64) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'i64' but got 'i32'}}
  %0 = "rt.uniform_philox"(%s, %o) {lo = 0.0 : f64, hi = 1.0 : f64} : (i32, i64) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
