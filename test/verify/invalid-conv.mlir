// The semantic verifier on rt.conv, rt.conv_grad_input and rt.conv_grad_weight (rule
// CONV: element types, ranks, the attributes and the shapes, which must agree with
// out = (in + 2 padding - dilation (k - 1) - 1) / stride + 1; docs/design.md,
// "Convolution"). An attribute above 2^40 is refused before any size is computed.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' element type must be f32, f64, f16 or bf16, got 'i32'}}
  %0 = "rt.conv"(%xi, %xi) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xi32>, tensor<2x4x5x5xi32>) -> tensor<2x4x5x5xi32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' operands and result must have one element type}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf64>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' operands and result must all have rank 3, 4 or 5}}
  %0 = "rt.conv"(%x3, %x3) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' attribute 'stride' has 1 entries, expected 2}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.integer'}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = 1 : i64, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' dilation 0 out of range [1, 2^40]}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 0, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' padding -1 out of range [0, 2^40]}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: -1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' stride 9223372036854775807 out of range [1, 2^40]}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 9223372036854775807, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' needs an integer attribute groups >= 1}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 0 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' shapes do not agree: input 2x4x5x5, weight 6x4x3x3, output 2x6x5x5 with groups 2}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' shapes do not agree: input 2x4x5x5, weight 6x4x3x3, output 2x6x4x5 with groups 1 (expected output 2x6x5x5}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x4x5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv' shapes do not agree: input 2x4x5x5, weight 6x4x3x3, output 2x6x1x1 with groups 1 (expected output none}}
  %0 = "rt.conv"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 3, 3>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x1x1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv_grad_input' shapes do not agree: input 2x4x5x6, weight 6x4x3x3, output 2x4x5x5 with groups 1 (expected output none}}
  %0 = "rt.conv_grad_input"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<2x4x5x6xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>) {
  // expected-error @+1 {{'rt.conv_grad_weight' shapes do not agree: input 2x4x5x5, weight 6x4x3x3, output 2x4x5x5}}
  %0 = "rt.conv_grad_weight"(%x, %x) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>) -> tensor<6x4x3x3xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x5x5xf32>, %w: tensor<6x4x3x3xf32>, %xi: tensor<2x4x5x5xi32>, %x3: tensor<4x5xf32>, %f: f32) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.f32'}}
  %0 = "rt.conv_grad_weight"(%f, %x) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (f32, tensor<2x4x5x5xf32>) -> tensor<6x4x3x3xf32>
  return
}
