// The semantic verifier on structural ops.
// Each part between the separators is a module of its own; every error is expected
// at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.broadcast' attribute 'dims' has 2 entries, expected 1}}
  %0 = "rt.broadcast"(%v) {dims = array<i64: 0, 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.broadcast' dims[0] = 2 must be increasing and within the result rank 2}}
  %0 = "rt.broadcast"(%v) {dims = array<i64: 2>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.broadcast' operand dimension 0 has size 8; result dimension 0 has size 4 (expected equal or 1)}}
  %0 = "rt.broadcast"(%v) {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.reshape' changes the element count from 32 to 30}}
  %0 = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<30xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.transpose' perm is not a permutation of 0..1}}
  %0 = "rt.transpose"(%a) {perm = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.transpose' result dimension 0 is 4, expected 8}}
  %0 = "rt.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.slice' bounds of dimension 1 are invalid: need 0 <= start (2) <= limit (9) <= 8 and stride (1) >= 1}}
  %0 = "rt.slice"(%a) {start = array<i64: 0, 2>, limit = array<i64: 4, 9>, stride = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.slice' result dimension 1 is 2, expected 3}}
  %0 = "rt.slice"(%a) {start = array<i64: 0, 0>, limit = array<i64: 4, 8>, stride = array<i64: 1, 3>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.concat' operand #1 does not match the result outside dimension 0}}
  %0 = "rt.concat"(%a, %b) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<12x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.concat' result dimension 1 is 12, expected 16}}
  %0 = "rt.concat"(%a, %a) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x12xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.iota' dim must be within the result rank 2}}
  %0 = "rt.iota"() {dim = 2 : i64} : () -> tensor<4x8xi32>
  return
}
