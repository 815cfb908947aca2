// Calls LLVM would rewrite if it took them for libm builtins: pow with the exponents
// 2, 0.5, -1 and 3 and a power-of-two base, and math functions of constants (f32
// values whose glibc result differs from the double-precision result rounded to f32).
func.func @pow_consts(%x: tensor<8xf32>, %d: tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf64>) {
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %m1 = arith.constant -1.0 : f32
  %three = arith.constant 3.0 : f32
  %eight = arith.constant 8.0 : f32
  %dtwo = arith.constant 2.0 : f64
  %a = "rt.pow"(%x, %two) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %b = "rt.pow"(%x, %half) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %c = "rt.pow"(%x, %m1) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %e = "rt.pow"(%x, %three) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %f = "rt.pow"(%eight, %x) : (f32, tensor<8xf32>) -> tensor<8xf32>
  %g = "rt.pow"(%d, %dtwo) : (tensor<8xf64>, f64) -> tensor<8xf64>
  return %a, %b, %c, %e, %f, %g : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf64>
}
func.func @math_consts(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %ce = "rt.full"() {value = 0x3FC02C6D40000000 : f64} : () -> tensor<8xf32>
  %cl = "rt.full"() {value = 0x3FC0024600000000 : f64} : () -> tensor<8xf32>
  %cc = "rt.full"() {value = 0x3FC029BA20000000 : f64} : () -> tensor<8xf32>
  %cg = "rt.full"() {value = 0x3FC00E7220000000 : f64} : () -> tensor<8xf32>
  %e = "rt.exp"(%ce) : (tensor<8xf32>) -> tensor<8xf32>
  %l = "rt.log1p"(%cl) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "rt.cos"(%cc) : (tensor<8xf32>) -> tensor<8xf32>
  %g = "rt.log"(%cg) : (tensor<8xf32>) -> tensor<8xf32>
  %s = "rt.add"(%e, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %s, %l, %c, %g : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
