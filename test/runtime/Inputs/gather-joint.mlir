// An embedding lookup's joint function (test/runtime/ranges.test): rows of %w picked by
// %i, the gradient scatter-added back; %i has no range, so --seed draws it from [-8, 8).
func.func @t(%w: tensor<10x4xf32> {rt.param}, %i: tensor<3x1xi64>, %g: tensor<3x4xf32> {rt.tangent})
    -> (tensor<3x4xf32>, tensor<10x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %b = "rt.broadcast"(%i) {dims = array<i64: 0, 1>} : (tensor<3x1xi64>) -> tensor<3x4xi64>
  %e = "rt.gather"(%w, %b) {dim = 0 : i64} : (tensor<10x4xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
  %z = "rt.full"() {value = 0.0 : f32} : () -> tensor<10x4xf32>
  %d = "rt.scatter_add"(%z, %b, %g) {dim = 0 : i64} : (tensor<10x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %e, %d : tensor<3x4xf32>, tensor<10x4xf32>
}
