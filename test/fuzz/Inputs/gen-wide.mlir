// remat-gen --seed 1 --count 4 --values=wide
func.func @g0(%x0: tensor<2x3xf16>, %x1: tensor<2x3xf16>, %x2: tensor<2x3xf16>, %t0: tensor<2x3xf16> {rt.tangent}, %t1: tensor<2x3xf16> {rt.tangent}) -> (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v1 = "rt.add"(%x1, %x1) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v2 = "rt.add"(%x2, %x2) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v3 = "rt.abs"(%v1) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %v4 = arith.constant 0x41000000 : f32
  %v5 = "rt.pow"(%v4, %v2) : (f32, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v6 = "rt.sin"(%v0) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %v7 = "rt.amax"(%v6) {dims = array<i64: 1>} : (tensor<2x3xf16>) -> tensor<2xf16>
  %v8 = "rt.broadcast"(%v7) {dims = array<i64: 0>} : (tensor<2xf16>) -> tensor<2x3xf16>
  %v9 = "rt.gt"(%v1, %v6) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %v10 = "rt.select"(%v9, %v1, %v8) : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v11 = "rt.sub"(%v2, %v5) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v12 = "rt.pow"(%v6, %v6) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v13 = "rt.mul"(%t0, %v12) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v14 = "rt.mul"(%t1, %v12) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v15 = "rt.mul"(%v14, %v13) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v16 = "rt.neg"(%v14) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %v17 = "rt.gt"(%v6, %v12) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %v18 = "rt.select"(%v17, %v6, %v16) : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v19 = "rt.gt"(%v10, %v8) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %v20 = "rt.select"(%v19, %v10, %v14) : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v21 = "rt.neg"(%v20) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %v22 = "rt.full"() {value = 0x3FE56D5180000000 : f64} : () -> tensor<2x3xf16>
  %v23 = "rt.sqrt"(%v22) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %v24 = "rt.add"(%v16, %v23) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %v25 = "rt.neg"(%v14) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  return %v12, %v8, %v25 : tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>
}
func.func @g1(%x0: tensor<1x4xf32>, %x1: tensor<1x4xf32>, %w: tensor<4x4xf32> {rt.param}, %t0: tensor<1x4xf32> {rt.tangent}) -> (tensor<1x4xf32>, tensor<1x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v1 = "rt.add"(%x1, %x1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v2 = "rt.pow"(%v1, %v1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v3 = arith.constant 0x3F900000 : f32
  %v4 = "rt.mul"(%v0, %v3) : (tensor<1x4xf32>, f32) -> tensor<1x4xf32>
  %v5 = "rt.full"() {value = 0xB9FC973680000000 : f64} : () -> tensor<1x4xf32>
  %v6 = "rt.rsqrt"(%v5) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v7 = "rt.add"(%v1, %v6) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v8 = "rt.abs"(%v1) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v9 = "rt.tanh"(%v4) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v10 = "rt.sum"(%v7) {dims = array<i64: 1>} : (tensor<1x4xf32>) -> tensor<1xf32>
  %v11 = "rt.broadcast"(%v10) {dims = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
  %v12 = arith.constant 0x00000000 : f32
  %v13 = "rt.pow"(%v11, %v12) : (tensor<1x4xf32>, f32) -> tensor<1x4xf32>
  %v14 = "rt.gt"(%v11, %v9) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %v15 = "rt.select"(%v14, %v11, %v11) : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v16 = "rt.mul"(%t0, %v15) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v17 = "rt.sub"(%v16, %v7) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v18 = arith.constant 0xC17ADA3F : f32
  %v19 = "rt.pow"(%v16, %v18) : (tensor<1x4xf32>, f32) -> tensor<1x4xf32>
  %v20 = "rt.exp"(%v19) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v21 = "rt.pow"(%v16, %v1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %v22 = "rt.neg"(%v19) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %v15, %v22 : tensor<1x4xf32>, tensor<1x4xf32>
}
func.func @g2(%x0: tensor<3x2xbf16>, %x1: tensor<3x2xbf16>, %x2: tensor<3x2xbf16>, %w: tensor<2x2xbf16> {rt.param}, %seed: i64, %offset: i64, %t0: tensor<3x2xbf16> {rt.tangent}, %t1: tensor<3x2xbf16> {rt.tangent}) -> (tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v1 = "rt.add"(%x1, %x1) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v2 = "rt.add"(%x2, %x2) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v3 = "rt.matmul"(%v1, %w) : (tensor<3x2xbf16>, tensor<2x2xbf16>) -> tensor<3x2xbf16>
  %v4 = "rt.exp"(%v2) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v5 = arith.constant 0x3EC00000 : f32
  %v6 = "rt.mul"(%v0, %v5) : (tensor<3x2xbf16>, f32) -> tensor<3x2xbf16>
  %v7 = "rt.sin"(%v2) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v8 = "rt.exp"(%v0) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v9 = "rt.matmul"(%v8, %w) : (tensor<3x2xbf16>, tensor<2x2xbf16>) -> tensor<3x2xbf16>
  %v10 = "rt.mul"(%t0, %v7) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v11 = "rt.mul"(%t1, %v8) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v12 = "rt.gt"(%v9, %v8) : (tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xi1>
  %v13 = "rt.select"(%v12, %v9, %v10) : (tensor<3x2xi1>, tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v14 = "rt.sin"(%v10) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %v15 = arith.constant 0x3F800000 : f32
  %v16 = "rt.pow"(%v10, %v15) : (tensor<3x2xbf16>, f32) -> tensor<3x2xbf16>
  return %v9, %v8, %v16, %v14 : tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>
}
func.func @g3(%x0: tensor<4x1xf32>, %x1: tensor<4x1xf32>, %x2: tensor<4x1xf32>, %w: tensor<1x1xf32> {rt.param}, %seed: i64, %offset: i64, %t0: tensor<4x1xf32> {rt.tangent}) -> (tensor<4x1xf32>, tensor<4x1xf32>) attributes {rt.num_outputs = 1 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v1 = "rt.add"(%x1, %x1) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v2 = "rt.add"(%x2, %x2) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v3 = arith.constant 0x3F400000 : f32
  %v4 = "rt.mul"(%v0, %v3) : (tensor<4x1xf32>, f32) -> tensor<4x1xf32>
  %v5 = "rt.gt"(%v2, %v2) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
  %v6 = "rt.select"(%v5, %v2, %v4) : (tensor<4x1xi1>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v7 = "rt.pow"(%v4, %v4) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v8 = "rt.sub"(%v4, %v4) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v9 = arith.constant 0xBF900000 : f32
  %v10 = "rt.sub"(%v4, %v9) : (tensor<4x1xf32>, f32) -> tensor<4x1xf32>
  %v11 = arith.constant 0xCF3D550E : f32
  %v12 = "rt.sub"(%v8, %v11) : (tensor<4x1xf32>, f32) -> tensor<4x1xf32>
  %v13 = "rt.mul"(%t0, %v10) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v14 = "rt.max"(%v13, %v12) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v15 = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %v16 = "rt.matmul"(%v13, %v15) : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
  %v17 = "rt.pow"(%v14, %v8) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v18 = "rt.mul"(%v14, %v12) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %v19 = "rt.neg"(%v14) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %v20 = "rt.tanh"(%v13) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %v12, %v20 : tensor<4x1xf32>, tensor<4x1xf32>
}
