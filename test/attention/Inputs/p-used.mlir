// An attention whose probabilities another op reads (bad-options.test: a long reason).
func.func @p_used(%q: tensor<2x4x3xf32>, %k: tensor<2x4x3xf32>, %v: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x4xf32>) {
  %kt = "rt.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %s = "rt.matmul"(%q, %kt) : (tensor<2x4x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  %mx = "rt.amax"(%s) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %mxb = "rt.broadcast"(%mx) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %sh = "rt.sub"(%s, %mxb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e = "rt.exp"(%sh) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %den = "rt.sum"(%e) {dims = array<i64: 2>} : (tensor<2x4x4xf32>) -> tensor<2x4xf32>
  %denb = "rt.broadcast"(%den) {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4x4xf32>
  %p = "rt.div"(%e, %denb) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = "rt.matmul"(%p, %v) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %lp = "rt.log"(%p) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o, %lp : tensor<2x4x3xf32>, tensor<2x4x4xf32>
}
