func.func @f(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x3x8xf32>, %i: tensor<4x3xi32>, %j: tensor<5x4xi32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<3x5xi32>, tensor<3x5xi32>) {
  %wt = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %0 = "rt.matmul"(%a, %wt) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = "rt.matmul"(%a, %w) {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  %bt = "rt.transpose"(%b) {perm = array<i64: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %ct = "rt.transpose"(%c) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x8x3xf32>
  %2 = "rt.matmul"(%bt, %ct) : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %3 = "rt.matmul"(%b, %c) {transpose_a, transpose_b} : (tensor<2x8x4xf32>, tensor<2x3x8xf32>) -> tensor<2x4x3xf32>
  %it = "rt.transpose"(%i) {perm = array<i64: 1, 0>} : (tensor<4x3xi32>) -> tensor<3x4xi32>
  %jt = "rt.transpose"(%j) {perm = array<i64: 1, 0>} : (tensor<5x4xi32>) -> tensor<4x5xi32>
  %4 = "rt.matmul"(%it, %jt) : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi32>
  %5 = "rt.matmul"(%i, %j) {transpose_a, transpose_b} : (tensor<4x3xi32>, tensor<5x4xi32>) -> tensor<3x5xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<3x5xi32>, tensor<3x5xi32>
}
