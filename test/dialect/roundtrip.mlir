// Every rt op parses, verifies and prints back unchanged; the output parses again.
// RUN: remat-opt %s | remat-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %s: f32, %i: tensor<4x8xi32>)
    -> (tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf16>) {
  // CHECK: "rt.add"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = "rt.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.sub"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %1 = "rt.sub"(%0, %s) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  // CHECK: "rt.mul"(%{{.*}}, %{{.*}}) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "rt.mul"(%s, %1) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.div"
  %3 = "rt.div"(%2, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.max"
  %4 = "rt.max"(%3, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.min"
  %5 = "rt.min"(%4, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.pow"
  %6 = "rt.pow"(%5, %s) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  // CHECK: "rt.neg"
  %7 = "rt.neg"(%6) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.exp"
  %8 = "rt.exp"(%7) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.log"
  %9 = "rt.log"(%8) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.tanh"
  %10 = "rt.tanh"(%9) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.erf"
  %11 = "rt.erf"(%10) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.sqrt"
  %12 = "rt.sqrt"(%11) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.rsqrt"
  %13 = "rt.rsqrt"(%12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.abs"
  %14 = "rt.abs"(%13) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.sin"
  %15 = "rt.sin"(%14) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.cos"
  %16 = "rt.cos"(%15) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.abs"(%{{.*}}) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %17 = "rt.abs"(%i) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  // CHECK: "rt.lt"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  %c0 = "rt.lt"(%16, %s) : (tensor<4x8xf32>, f32) -> tensor<4x8xi1>
  // CHECK: "rt.le"
  %c1 = "rt.le"(%16, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: "rt.gt"
  %c2 = "rt.gt"(%16, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: "rt.ge"
  %c3 = "rt.ge"(%16, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  // CHECK: "rt.eq"
  %c4 = "rt.eq"(%c0, %c1) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  // CHECK: "rt.ne"
  %c5 = "rt.ne"(%c4, %c2) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  // CHECK: "rt.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xi1>, tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %18 = "rt.select"(%c5, %16, %s) : (tensor<4x8xi1>, tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  // CHECK: "rt.convert"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %19 = "rt.convert"(%18) : (tensor<4x8xf32>) -> tensor<4x8xf16>
  // CHECK: "rt.full"() {value = 1.500000e+00 : f32} : () -> tensor<4x8xf32>
  %20 = "rt.full"() {value = 1.5 : f32} : () -> tensor<4x8xf32>
  return %20, %c3, %19 : tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @structural
func.func @structural(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %c: tensor<2x8xf32>)
    -> (tensor<4x8xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<2x3xf32>, tensor<6x8xf32>,
        tensor<4x8xi32>, tensor<f32>) {
  // CHECK: "rt.broadcast"(%{{.*}}) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = "rt.broadcast"(%v) {dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.reshape"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  // CHECK: "rt.transpose"(%{{.*}}) {perm = array<i64: 1, 0>}
  %2 = "rt.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // CHECK: "rt.slice"(%{{.*}}) {limit = array<i64: 4, 7>, start = array<i64: 0, 1>, stride = array<i64: 2, 2>}
  %3 = "rt.slice"(%a) {start = array<i64: 0, 1>, limit = array<i64: 4, 7>, stride = array<i64: 2, 2>} : (tensor<4x8xf32>) -> tensor<2x3xf32>
  // CHECK: "rt.concat"(%{{.*}}, %{{.*}}) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  %4 = "rt.concat"(%a, %c) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  // CHECK: "rt.iota"() {dim = 1 : i64} : () -> tensor<4x8xi32>
  %5 = "rt.iota"() {dim = 1 : i64} : () -> tensor<4x8xi32>
  // CHECK: "rt.sum"(%{{.*}}) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  %6 = "rt.sum"(%a) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  // CHECK: "rt.amax"(%{{.*}}) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %7 = "rt.amax"(%a) {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x8xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<2x3xf32>, tensor<6x8xf32>, tensor<4x8xi32>, tensor<f32>
}

// CHECK-LABEL: func.func @compute
func.func @compute(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<2x4x8xbf16>,
                   %y: tensor<2x8x3xbf16>, %seed: i64, %offset: i64)
    -> (tensor<4x16xf32>, tensor<2x4x3xbf16>, tensor<4x8xf16>) {
  // CHECK: "rt.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = "rt.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: "rt.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) -> tensor<2x4x3xbf16>
  %1 = "rt.matmul"(%x, %y) : (tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) -> tensor<2x4x3xbf16>
  // CHECK: "rt.uniform_philox"(%{{.*}}, %{{.*}}) {hi = 1.000000e+00 : f64, lo = -1.000000e+00 : f64} : (i64, i64) -> tensor<4x8xf16>
  %2 = "rt.uniform_philox"(%seed, %offset) {lo = -1.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4x8xf16>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<2x4x3xbf16>, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%w: tensor<16x8xbf16> {rt.param}, %g: tensor<64x8xf32>)
    -> (tensor<64x8xbf16>, tensor<16x8xf32>, tensor<64x8xf32>) {
  // CHECK: "rt.all_gather"(%{{.*}}) {dim = 0 : i64, group = "dp", group_size = 4 : i64}
  %0 = "rt.all_gather"(%w) {group = "dp", group_size = 4 : i64, dim = 0 : i64} : (tensor<16x8xbf16>) -> tensor<64x8xbf16>
  // CHECK: "rt.wait"
  %1 = "rt.wait"(%0) : (tensor<64x8xbf16>) -> tensor<64x8xbf16>
  // CHECK: "rt.reduce_scatter"(%{{.*}}) {dim = 0 : i64, group = "dp", group_size = 4 : i64, reduce = "sum"}
  %2 = "rt.reduce_scatter"(%g) {group = "dp", group_size = 4 : i64, dim = 0 : i64, reduce = "sum"} : (tensor<64x8xf32>) -> tensor<16x8xf32>
  %3 = "rt.wait"(%2) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  // CHECK: "rt.all_reduce"(%{{.*}}) {group = "dp", group_size = 4 : i64, reduce = "sum"}
  %4 = "rt.all_reduce"(%g) {group = "dp", group_size = 4 : i64, reduce = "sum"} : (tensor<64x8xf32>) -> tensor<64x8xf32>
  %5 = "rt.wait"(%4) : (tensor<64x8xf32>) -> tensor<64x8xf32>
  return %1, %3, %5 : tensor<64x8xbf16>, tensor<16x8xf32>, tensor<64x8xf32>
}

// Tags and joint-function conventions survive.
// CHECK-LABEL: func.func @joint
// CHECK-SAME: %{{.*}}: tensor<2x2xf32> {rt.tangent}) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64}
func.func @joint(%a: tensor<2x2xf32>, %g: tensor<2x2xf32> {rt.tangent})
    -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
  // CHECK: "rt.exp"(%{{.*}}) {rt.ac_region = 0 : i64, rt.policy = "must_save"}
  %0 = "rt.exp"(%a) {rt.policy = "must_save", rt.ac_region = 0 : i64} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "rt.mul"(%0, %g) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// rt.extern: an operation remat does not model. Operands of one type and results of one
// type: the form IRDL (and so upstream mlir-opt --irdl-file) admits; remat admits any
// (test/extern/irdl.test).
// CHECK-LABEL: func.func @extern
func.func @extern(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>) {
  // CHECK: "rt.extern"(%{{.*}}, %{{.*}}) {args = "kept", flops = 32 : i64, name = "aten.hypot.default", recompute = "pure"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = "rt.extern"(%a, %b) {name = "aten.hypot.default", recompute = "pure", flops = 32 : i64, args = "kept"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "rt.extern"() {name = "aten.randint.low", recompute = "forward"} : () -> (tensor<2xi64>, tensor<2xi64>)
  %1:2 = "rt.extern"() {name = "aten.randint.low", recompute = "forward"} : () -> (tensor<2xi64>, tensor<2xi64>)
  return %0, %1#0, %1#1 : tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>
}
