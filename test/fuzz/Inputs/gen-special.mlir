// remat-gen --seed 2 --count 4 --values=special
func.func @g0(%x0: tensor<2x1xf32>, %x1: tensor<2x1xf32>, %x2: tensor<2x1xf32>, %w: tensor<1x1xf32> {rt.param}, %t0: tensor<2x1xf32> {rt.tangent}, %t1: tensor<2x1xf32> {rt.tangent}) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %v1 = "rt.add"(%x1, %x1) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %v2 = "rt.add"(%x2, %x2) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %v3 = "rt.amax"(%v1) {dims = array<i64: 1>} : (tensor<2x1xf32>) -> tensor<2xf32>
  %v4 = "rt.broadcast"(%v3) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x1xf32>
  %v5 = arith.constant 0x00000000 : f32
  %v6 = "rt.pow"(%v0, %v5) : (tensor<2x1xf32>, f32) -> tensor<2x1xf32>
  %v7 = arith.constant 0xBD70FA12 : f32
  %v8 = "rt.div"(%v1, %v7) : (tensor<2x1xf32>, f32) -> tensor<2x1xf32>
  %v9 = "rt.mul"(%t0, %v2) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %v10 = "rt.mul"(%t1, %v8) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %v11 = "rt.sum"(%v10) {dims = array<i64: 1>} : (tensor<2x1xf32>) -> tensor<2xf32>
  %v12 = "rt.broadcast"(%v11) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x1xf32>
  %v13 = "rt.neg"(%v9) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %v14 = "rt.neg"(%v10) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %v15 = "rt.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %v16 = "rt.matmul"(%v12, %v15) : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %v17 = "rt.abs"(%v13) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %v18 = "rt.neg"(%v13) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %v19 = "rt.cos"(%v16) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %v8, %v6, %v19 : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>
}
func.func @g1(%x0: tensor<2x1xbf16>, %x1: tensor<2x1xbf16>, %seed: i64, %offset: i64, %t0: tensor<2x1xbf16> {rt.tangent}, %t1: tensor<2x1xbf16> {rt.tangent}) -> (tensor<2x1xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v1 = "rt.add"(%x1, %x1) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v2 = "rt.full"() {value = 0xC059000000000000 : f64} : () -> tensor<2x1xbf16>
  %v3 = "rt.log"(%v2) : (tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v4 = "rt.add"(%v0, %v3) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v5 = "rt.log1p"(%v4) : (tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v6 = "rt.tanh"(%v1) : (tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v7 = arith.constant 0 : i64
  %v8 = arith.addi %offset, %v7 : i64
  %v9 = "rt.uniform_philox"(%seed, %v8) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x1xbf16>
  %v10 = arith.constant 2.500000000e-01 : f32
  %v11 = "rt.lt"(%v9, %v10) : (tensor<2x1xbf16>, f32) -> tensor<2x1xi1>
  %v12 = "rt.convert"(%v11) : (tensor<2x1xi1>) -> tensor<2x1xbf16>
  %v13 = "rt.mul"(%v1, %v12) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v14 = arith.constant 0x40800000 : f32
  %v15 = "rt.mul"(%v13, %v14) : (tensor<2x1xbf16>, f32) -> tensor<2x1xbf16>
  %v16 = "rt.max"(%v4, %v4) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v17 = arith.constant 0x00000000 : f32
  %v18 = "rt.pow"(%v15, %v17) : (tensor<2x1xbf16>, f32) -> tensor<2x1xbf16>
  %v19 = arith.constant 0x40000000 : f32
  %v20 = "rt.pow"(%v19, %v15) : (f32, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v21 = arith.constant 0x75649473 : f32
  %v22 = "rt.pow"(%v18, %v21) : (tensor<2x1xbf16>, f32) -> tensor<2x1xbf16>
  %v23 = arith.constant 0xC2C17494 : f32
  %v24 = "rt.pow"(%v23, %v6) : (f32, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v25 = "rt.tanh"(%v22) : (tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v26 = "rt.mul"(%t0, %v20) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v27 = "rt.mul"(%t1, %v16) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v28 = "rt.mul"(%v26, %v27) : (tensor<2x1xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %v29 = "rt.amax"(%v28) {dims = array<i64: 1>} : (tensor<2x1xbf16>) -> tensor<2xbf16>
  %v30 = "rt.broadcast"(%v29) {dims = array<i64: 0>} : (tensor<2xbf16>) -> tensor<2x1xbf16>
  return %v25, %v25, %v30, %v26 : tensor<2x1xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>
}
func.func @g2(%x0: tensor<4x3xf32>, %x1: tensor<4x3xf32>, %w: tensor<3x3xf32> {rt.param}, %seed: i64, %offset: i64, %t0: tensor<4x3xf32> {rt.tangent}, %t1: tensor<4x3xf32> {rt.tangent}) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) attributes {rt.num_outputs = 2 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v1 = "rt.add"(%x1, %x1) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v2 = "rt.rsqrt"(%v1) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v3 = "rt.exp"(%v2) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v4 = arith.constant 0x41000000 : f32
  %v5 = "rt.pow"(%v4, %v3) : (f32, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v6 = "rt.pow"(%v0, %v5) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v7 = "rt.neg"(%v2) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v8 = "rt.mul"(%t0, %v0) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v9 = "rt.mul"(%t1, %v6) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v10 = arith.constant 0xFF800000 : f32
  %v11 = "rt.add"(%v8, %v10) : (tensor<4x3xf32>, f32) -> tensor<4x3xf32>
  %v12 = "rt.div"(%v11, %v3) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v13 = "rt.neg"(%v8) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v14 = "rt.neg"(%v9) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %v15 = "rt.sum"(%v11) {dims = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  %v16 = "rt.broadcast"(%v15) {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x3xf32>
  %v17 = arith.constant 0xC8E8664C : f32
  %v18 = "rt.pow"(%v17, %v12) : (f32, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v19 = "rt.max"(%v13, %v0) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v20 = "rt.gt"(%v5, %v5) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  %v21 = "rt.select"(%v20, %v5, %v18) : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %v22 = arith.constant 0x80000000 : f32
  %v23 = "rt.sub"(%v11, %v22) : (tensor<4x3xf32>, f32) -> tensor<4x3xf32>
  return %v7, %v5, %v23, %v19 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
func.func @g3(%x0: tensor<1x2xbf16>, %x1: tensor<1x2xbf16>, %x2: tensor<1x2xbf16>, %w: tensor<2x2xbf16> {rt.param}, %seed: i64, %offset: i64, %t0: tensor<1x2xbf16> {rt.tangent}) -> (tensor<1x2xbf16>, tensor<1x2xbf16>, tensor<1x2xbf16>) attributes {rt.num_outputs = 1 : i64} {
  %v0 = "rt.add"(%x0, %x0) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v1 = "rt.add"(%x1, %x1) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v2 = "rt.add"(%x2, %x2) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v3 = "rt.amax"(%v2) {dims = array<i64: 1>} : (tensor<1x2xbf16>) -> tensor<1xbf16>
  %v4 = "rt.broadcast"(%v3) {dims = array<i64: 0>} : (tensor<1xbf16>) -> tensor<1x2xbf16>
  %v5 = arith.constant 0x3F000000 : f32
  %v6 = "rt.pow"(%v4, %v5) : (tensor<1x2xbf16>, f32) -> tensor<1x2xbf16>
  %v7 = arith.constant 0xBF800000 : f32
  %v8 = "rt.pow"(%v1, %v7) : (tensor<1x2xbf16>, f32) -> tensor<1x2xbf16>
  %v9 = "rt.sin"(%v8) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v10 = "rt.log"(%v4) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v11 = "rt.full"() {value = 0xC073845C00000000 : f64} : () -> tensor<1x2xbf16>
  %v12 = "rt.log"(%v11) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v13 = "rt.add"(%v9, %v12) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v14 = "rt.exp"(%v9) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v15 = "rt.amax"(%v9) {dims = array<i64: 1>} : (tensor<1x2xbf16>) -> tensor<1xbf16>
  %v16 = "rt.broadcast"(%v15) {dims = array<i64: 0>} : (tensor<1xbf16>) -> tensor<1x2xbf16>
  %v17 = "rt.mul"(%t0, %v0) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v18 = "rt.gt"(%v13, %v1) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xi1>
  %v19 = "rt.select"(%v18, %v13, %v17) : (tensor<1x2xi1>, tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v20 = "rt.div"(%v17, %v10) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v21 = arith.constant 0x41000000 : f32
  %v22 = "rt.pow"(%v21, %v17) : (f32, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v23 = "rt.full"() {value = 0x47027D5260000000 : f64} : () -> tensor<1x2xbf16>
  %v24 = "rt.tanh"(%v23) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v25 = "rt.add"(%v17, %v24) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %v26 = "rt.neg"(%v20) : (tensor<1x2xbf16>) -> tensor<1x2xbf16>
  return %v16, %v26, %v20 : tensor<1x2xbf16>, tensor<1x2xbf16>, tensor<1x2xbf16>
}
