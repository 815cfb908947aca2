// row + MAX <= col + MAX wraps in i64: not j - i >= 0 as exact arithmetic would say. The
// pass reads no predicate from it: the computed mask is the operand (mask = "keep").
func.func @wrap(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s0 = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %row = "rt.iota"() {dim = 0 : i64} : () -> tensor<4x4xi64>
  %col = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x4xi64>
  %big = arith.constant 9223372036854775807 : i64
  %r1 = "rt.add"(%row, %big) : (tensor<4x4xi64>, i64) -> tensor<4x4xi64>
  %c1 = "rt.add"(%col, %big) : (tensor<4x4xi64>, i64) -> tensor<4x4xi64>
  %keep = "rt.ge"(%r1, %c1) : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi1>
  %keepb = "rt.broadcast"(%keep) {dims = array<i64: 1, 2>} : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %s = "rt.select"(%keepb, %s0, %ninf) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, f32) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
