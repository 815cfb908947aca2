// Input of dot.test: 49 ops, so --remat-dot collapses chains (more than 40 ops).
// x -> 20 elementwise ops and 2 reshapes (chain A) -> matmul with w -> 25 elementwise ops
// (chain B) = y;
// the matmul and chain B are in rt.ac_region 1. The backward: gx = g * y.
func.func @chains(%x: tensor<4x4xf32>, %w: tensor<4x4xf32> {rt.param}, %g: tensor<4x4xf32> {rt.tangent})
    -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %a0 = "rt.exp"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a1 = "rt.neg"(%a0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a2 = "rt.exp"(%a1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a3 = "rt.neg"(%a2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a4 = "rt.exp"(%a3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a5 = "rt.neg"(%a4) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a6 = "rt.exp"(%a5) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a7 = "rt.neg"(%a6) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a8 = "rt.exp"(%a7) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a9 = "rt.neg"(%a8) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r0 = "rt.reshape"(%a9) : (tensor<4x4xf32>) -> tensor<16xf32>
  %r1 = "rt.reshape"(%r0) : (tensor<16xf32>) -> tensor<4x4xf32>
  %a10 = "rt.exp"(%r1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a11 = "rt.neg"(%a10) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a12 = "rt.exp"(%a11) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a13 = "rt.neg"(%a12) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a14 = "rt.exp"(%a13) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a15 = "rt.neg"(%a14) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a16 = "rt.exp"(%a15) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a17 = "rt.neg"(%a16) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a18 = "rt.exp"(%a17) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a19 = "rt.neg"(%a18) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = "rt.matmul"(%a19, %w) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %b0 = "rt.neg"(%m) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b1 = "rt.exp"(%b0) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b2 = "rt.neg"(%b1) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b3 = "rt.exp"(%b2) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b4 = "rt.neg"(%b3) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b5 = "rt.exp"(%b4) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b6 = "rt.neg"(%b5) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b7 = "rt.exp"(%b6) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b8 = "rt.neg"(%b7) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b9 = "rt.exp"(%b8) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b10 = "rt.neg"(%b9) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b11 = "rt.exp"(%b10) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b12 = "rt.neg"(%b11) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b13 = "rt.exp"(%b12) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b14 = "rt.neg"(%b13) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b15 = "rt.exp"(%b14) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b16 = "rt.neg"(%b15) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b17 = "rt.exp"(%b16) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b18 = "rt.neg"(%b17) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b19 = "rt.exp"(%b18) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b20 = "rt.neg"(%b19) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b21 = "rt.exp"(%b20) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b22 = "rt.neg"(%b21) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b23 = "rt.exp"(%b22) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b24 = "rt.neg"(%b23) {rt.ac_region = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %gx = "rt.mul"(%g, %b24) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %b24, %gx : tensor<4x4xf32>, tensor<4x4xf32>
}
