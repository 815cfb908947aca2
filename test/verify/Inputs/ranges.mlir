// Well-formed rt.range attributes (test/verify/invalid-range.mlir).
func.func @ok(%i: tensor<4xi64> {rt.range = array<i64: 0, 10>}, %s: i32 {rt.buffer, rt.range = array<i64: -2147483648, 2147483647>}, %b: tensor<2xi8> {rt.range = array<i64: -128, 128>}) {
  return
}
