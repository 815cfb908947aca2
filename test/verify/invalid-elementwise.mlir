// The semantic verifier on elementwise and compare ops (rules SAME, I1_RESULT, SELECT,
// FLOAT, CONVERT of dialect-c/rt_ops.def), element types and sizes.
// Each part between the separators is a module of its own; every error is expected
// at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.add' operand shapes differ: operand #0 is 4x8, operand #1 is 8x4}}
  %0 = "rt.add"(%a, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.add' tensor operands have different element types 'f32' and 'i32'}}
  %0 = "rt.add"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.add' needs at least one tensor operand}}
  %0 = "rt.add"(%s, %s) : (f32, f32) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.mul' result shape 8x4 differs from the operand shape 4x8}}
  %0 = "rt.mul"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.lt' result must have element type i1, got 'f32'}}
  %0 = "rt.lt"(%a, %s) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.select' operand shapes differ}}
  %0 = "rt.select"(%a, %a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.exp' requires a floating-point element type}}
  %0 = "rt.exp"(%c) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  return
}
func.func @g(%c: tensor<4xi64>) {
  // expected-error @+1 {{'rt.log1p' requires a floating-point element type}}
  %0 = "rt.log1p"(%c) : (tensor<4xi64>) -> tensor<4xi64>
  return
}
func.func @h(%c: tensor<4xi32>) {
  // expected-error @+1 {{'rt.softplus' requires a floating-point element type}}
  %0 = "rt.softplus"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}
func.func @i(%c: tensor<4xi64>) {
  // expected-error @+1 {{'rt.hardswish' requires a floating-point element type}}
  %0 = "rt.hardswish"(%c) : (tensor<4xi64>) -> tensor<4xi64>
  return
}
func.func @j(%c: tensor<4xi32>) {
  // expected-error @+1 {{'rt.hardsigmoid' requires a floating-point element type}}
  %0 = "rt.hardsigmoid"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  return
}
func.func @k(%c: tensor<4xi8>) {
  // expected-error @+1 {{'rt.relu6' requires a floating-point element type}}
  %0 = "rt.relu6"(%c) : (tensor<4xi8>) -> tensor<4xi8>
  return
}
func.func @l(%c: tensor<4xi1>) {
  // expected-error @+1 {{'rt.mish' requires a floating-point element type}}
  %0 = "rt.mish"(%c) : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.convert' changes the shape}}
  %0 = "rt.convert"(%a) : (tensor<4x8xf32>) -> tensor<8x4xf16>
  return
}

// -----

func.func @f(%a: tensor<4x8xi16>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.neg' operand #0 has unsupported element type in 'tensor<4x8xi16>'}}
  %0 = "rt.neg"(%a) : (tensor<4x8xi16>) -> tensor<4x8xi16>
  return
}

// -----

func.func @f(%a: tensor<4611686018427387904x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xi32>, %v: tensor<8xf32>, %s: f32, %i: i64) {
  // expected-error @+1 {{'rt.neg' operand #0: size of 'tensor<4611686018427387904x8xf32>' overflows 64 bits}}
  %0 = "rt.neg"(%a) : (tensor<4611686018427387904x8xf32>) -> tensor<4611686018427387904x8xf32>
  return
}
