// Input of dot.test: ops located on source lines 7, 7, 8, 8, 7, 7 (as a traced model's
// code would place them): three runs of one line each, so three clusters.
func.func @lines(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent})
    -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a = "rt.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:3)
  %b = "rt.mul"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:9)
  %c = "rt.tanh"(%b) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":8:3)
  %d = "rt.mul"(%c, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":8:9)
  %e = "rt.exp"(%d) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:3)
  %f = "rt.neg"(%e) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:9)
  %gf = "rt.mul"(%g, %f) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:20)
  return %f, %gf : tensor<4xf32>, tensor<4xf32>
}
