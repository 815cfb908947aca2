// The semantic verifier on reductions, matmul, Philox and collectives.
// Each part between the separators is a module of its own; every error is expected
// at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.sum' dims[0] = 2 is out of range or repeated (operand rank 2)}}
  %0 = "rt.sum"(%a) {dims = array<i64: 2>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.amax' result shape 8, expected 4 (the reduced dims are dropped)}}
  %0 = "rt.amax"(%a) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.matmul' shapes do not agree: 4x8 x 4x8 -> 4x8}}
  %0 = "rt.matmul"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.uniform_philox' needs float attributes lo <= hi}}
  %0 = "rt.uniform_philox"(%i, %i) {lo = 1.0 : f64, hi = 0.0 : f64} : (i64, i64) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.uniform_philox' result must be f32, f16 or bf16}}
  %0 = "rt.uniform_philox"(%i, %i) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf64>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.all_gather' result shape 4x8, expected 8x8}}
  %0 = "rt.all_gather"(%a) {group = "dp", group_size = 2 : i64, dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.all_reduce' reduce must be "sum", "max" or "min"}}
  %0 = "rt.all_reduce"(%a) {group = "dp", group_size = 2 : i64, reduce = "mean"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.reduce_scatter' dimension 0 (4) is not divisible by group_size 3}}
  %0 = "rt.reduce_scatter"(%a) {group = "dp", group_size = 3 : i64, dim = 0 : i64, reduce = "sum"} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

// transpose_a / transpose_b on rt.matmul are unit attributes; the shapes are checked as
// the product reads the operands (last two dims swapped); the first two are valid.
func.func @f(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x8x3xf32>) {
  %0 = "rt.matmul"(%a, %w) {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  %1 = "rt.matmul"(%b, %c) {transpose_a} : (tensor<2x8x4xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  // expected-error @+1 {{'rt.matmul' shapes do not agree: 4x8^T x 16x8 -> 4x16}}
  %2 = "rt.matmul"(%a, %w) {transpose_a} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // expected-error @+1 {{'rt.matmul' transpose_a and transpose_b must be unit attributes}}
  %3 = "rt.matmul"(%a, %w) {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return
}
