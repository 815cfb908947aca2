func.func @slice_mm(%a: tensor<4x16xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %s = "rt.slice"(%a) {limit = array<i64: 4, 8>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%s, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
