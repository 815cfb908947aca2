// The semantic verifier on the indexing ops rt.gather, rt.scatter_add, rt.argmax
// (docs/design.md, "Indexing ops"). Each part between the separators is a module of its
// own; every error is expected at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' dim must be an integer within the operand rank 2}}
  %0 = "rt.gather"(%s, %i) {dim = 2 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' dim must be an integer within the operand rank 2}}
  %0 = "rt.gather"(%s, %i) {dim = -1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  %v = "rt.reshape"(%i) : (tensor<4x3xi64>) -> tensor<12xi64>
  // expected-error @+1 {{'rt.gather' indices have rank 1, the source rank 2 (expected equal)}}
  %0 = "rt.gather"(%s, %v) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<12xi64>) -> tensor<12xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' indices (operand #1) must be a tensor of i32 or i64, got 'tensor<4x3xf32>'}}
  %0 = "rt.gather"(%s, %u) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' indices shape 4x3 and source shape 4x8 differ in dimension 1 (only dim 0 may differ)}}
  %0 = "rt.gather"(%s, %i) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' result shape 3x4 differs from the indices shape 4x3}}
  %0 = "rt.gather"(%s, %j) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.gather' result element type 'f16' differs from the operand's 'f32'}}
  %0 = "rt.gather"(%s, %i) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf16>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.scatter_add' dim must be an integer within the operand rank 2}}
  %0 = "rt.scatter_add"(%x, %i, %u) {dim = 5 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.scatter_add' indices (operand #1) must be a tensor of i32 or i64, got 'tensor<4x3xf32>'}}
  %0 = "rt.scatter_add"(%x, %u, %u) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.scatter_add' indices shape 4x3 and base shape 4x8 differ in dimension 1 (only dim 0 may differ)}}
  %0 = "rt.scatter_add"(%x, %i, %u) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.scatter_add' updates shape 4x8 differs from the indices shape 4x3}}
  %0 = "rt.scatter_add"(%x, %i, %s) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  %v = "rt.reshape"(%i) : (tensor<4x3xi64>) -> tensor<12xi64>
  %w = "rt.reshape"(%u) : (tensor<4x3xf32>) -> tensor<12xf32>
  // expected-error @+1 {{'rt.scatter_add' indices have rank 1, the base rank 2 (expected equal)}}
  %0 = "rt.scatter_add"(%x, %v, %w) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<12xi64>, tensor<12xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  %w = "rt.convert"(%u) : (tensor<4x3xf32>) -> tensor<4x3xf64>
  // expected-error @+1 {{'rt.scatter_add' updates element type 'f64' differs from the base's 'f32'}}
  %0 = "rt.scatter_add"(%x, %i, %w) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf64>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.scatter_add' result type 'tensor<4x8xf64>' differs from the base type 'tensor<4x8xf32>'}}
  %0 = "rt.scatter_add"(%x, %i, %u) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x8xf64>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.argmax' dim must be an integer within the operand rank 2}}
  %0 = "rt.argmax"(%s) {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.argmax' result shape 8, expected 4 (dim 1 is dropped)}}
  %0 = "rt.argmax"(%s) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<8xi64>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rt.argmax' result must have element type i64, got 'i32'}}
  %0 = "rt.argmax"(%s) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  %e = "rt.slice"(%s) {start = array<i64: 0, 0>, limit = array<i64: 0, 8>, stride = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<0x8xf32>
  // expected-error @+1 {{'rt.argmax' dimension 0 has size 0: no maximum}}
  %0 = "rt.argmax"(%e) {dim = 0 : i64} : (tensor<0x8xf32>) -> tensor<8xi64>
  return
}

// -----

func.func @f(%s: tensor<4x8xf32>, %i: tensor<4x3xi64>, %j: tensor<4x3xi32>, %u: tensor<4x3xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{attribute "dim" is expected but not provided}}
  %0 = "rt.argmax"(%s) : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}
