// Integer arguments with ranges, returned as drawn (test/runtime/ranges.test).
func.func @draw(%a: tensor<64xi8> {rt.range = array<i64: 0, 10>}, %b: tensor<64xi32> {rt.range = array<i64: -3, 2>}, %c: tensor<64xi64> {rt.range = array<i64: 1000, 1003>}, %d: i64 {rt.range = array<i64: 1000, 1003>}) -> (tensor<64xi8>, tensor<64xi32>, tensor<64xi64>, i64) {
  return %a, %b, %c, %d : tensor<64xi8>, tensor<64xi32>, tensor<64xi64>, i64
}
