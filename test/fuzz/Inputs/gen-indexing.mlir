// remat-gen --seed 3 --count 3 --values=wide --indexing
func.func @g0(%x0: tensor<2x4xf32>, %w: tensor<4x4xf32> {rt.param}, %seed: i64, %offset: i64, %t0: tensor<2x4xf32> {rt.tangent}, %t1: tensor<2x4xf32> {rt.tangent}) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v1 = "rt.pow"(%v0, %v0) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v2 = "rt.sin"(%v0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %v3 = "rt.full"() {value = 0x3B73C34B40000000 : f64} : () -> tensor<2x4xf32>
  %v4 = "rt.abs"(%v3) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %v5 = "rt.add"(%v0, %v4) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v6 = "rt.mul"(%t0, %v5) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v7 = "rt.mul"(%t1, %v1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v8 = arith.constant 0x1035949C : f32
  %v9 = "rt.pow"(%v7, %v8) : (tensor<2x4xf32>, f32) -> tensor<2x4xf32>
  %v10 = "rt.full"() {value = 0xC7C8D15940000000 : f64} : () -> tensor<2x4xf32>
  %v11 = "rt.abs"(%v10) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %v12 = "rt.add"(%v6, %v11) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %v13 = "rt.argmax"(%v5) {dim = 1 : i64} : (tensor<2x4xf32>) -> tensor<2xi64>
  %v14 = "rt.reshape"(%v13) : (tensor<2xi64>) -> tensor<2x1xi64>
  %v15 = "rt.broadcast"(%v14) {dims = array<i64: 0, 1>} : (tensor<2x1xi64>) -> tensor<2x4xi64>
  %v16 = "rt.scatter_add"(%v7, %v15, %v12) {dim = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %v5, %v5, %v16 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @g1(%x0: tensor<2x3xf64>, %t0: tensor<2x3xf64> {rt.tangent}) -> (tensor<2x3xf64>, tensor<2x3xf64>) attributes {rt.num_outputs = 1 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %v1 = "rt.erf"(%v0) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %v2 = "rt.pow"(%v0, %v0) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %v3 = "rt.tanh"(%v1) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %v4 = "rt.pow"(%v1, %v3) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %v5 = "rt.mul"(%t0, %v3) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %v6 = arith.constant 0x3FE0000000000000 : f64
  %v7 = "rt.mul"(%v5, %v6) : (tensor<2x3xf64>, f64) -> tensor<2x3xf64>
  %v8 = "rt.sqrt"(%v7) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %v4, %v8 : tensor<2x3xf64>, tensor<2x3xf64>
}
func.func @g2(%x0: tensor<1x1xf32>, %x1: tensor<1x1xf32>, %x2: tensor<1x1xf32>, %seed: i64, %offset: i64, %t0: tensor<1x1xf32> {rt.tangent}, %t1: tensor<1x1xf32> {rt.tangent}) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v1 = "rt.add"(%x1, %x1) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v2 = "rt.add"(%x2, %x2) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v3 = arith.constant 0xF60C9867 : f32
  %v4 = "rt.min"(%v0, %v3) : (tensor<1x1xf32>, f32) -> tensor<1x1xf32>
  %v5 = arith.constant 0x6A8F8B36 : f32
  %v6 = "rt.sub"(%v0, %v5) : (tensor<1x1xf32>, f32) -> tensor<1x1xf32>
  %v7 = "rt.log"(%v1) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %v8 = "rt.sub"(%v0, %v2) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v9 = arith.constant 0x41000000 : f32
  %v10 = "rt.pow"(%v9, %v6) : (f32, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v11 = arith.constant 0x40000000 : f32
  %v12 = "rt.pow"(%v8, %v11) : (tensor<1x1xf32>, f32) -> tensor<1x1xf32>
  %v13 = "rt.mul"(%t0, %v7) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v14 = "rt.mul"(%t1, %v7) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v15 = "rt.mul"(%v13, %v1) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %v16 = "rt.sin"(%v15) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %v17 = "rt.gt"(%v7, %v12) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xi1>
  %v18 = "rt.select"(%v17, %v7, %v13) : (tensor<1x1xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %v12, %v12, %v18 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}
