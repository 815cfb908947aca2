// The report names saved values as the user knows them: an argument by the name of its
// name location (remat-import-torch gives each parameter its module path), a value without
// any location by its SSA name and its op; never "?".
// RUN: remat-opt --remat-mincut --remat-report %s -o /dev/null 2>&1 | FileCheck %s
// CHECK:      remat-mincut: @f -> @f_fwd, @f_bwd
// CHECK-NEXT:   #  value                type                            bytes  why      location
// CHECK-NEXT:   0  %arg0                tensor<2x2xf32>                    16  primal   %arg0 (no location)
// CHECK-NEXT:   1  %arg1                tensor<2x2xf32>                    16  primal   "blocks.0.ln1.weight"
// CHECK-NEXT:   2  rt.matmul            tensor<2x2xf32>                    16  cut      %0 = rt.matmul (no location)
// CHECK-NEXT: saved bytes
func.func @f(%x: tensor<2x2xf32> loc(unknown), %w: tensor<2x2xf32> {rt.param} loc("blocks.0.ln1.weight"),
             %g: tensor<2x2xf32> {rt.tangent} loc("tangents_1"))
    -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
    attributes {rt.num_outputs = 1 : i64} {
  %0 = "rt.matmul"(%x, %w) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> loc(unknown)
  %1 = "rt.exp"(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = "rt.sum"(%1) {dims = array<i64: 1>} : (tensor<2x2xf32>) -> tensor<2xf32>
  %3 = "rt.broadcast"(%2) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x2xf32>
  %4 = "rt.mul"(%g, %0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = "rt.mul"(%g, %w) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %6 = "rt.mul"(%g, %1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %7 = "rt.mul"(%6, %x) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %3, %4, %5, %7 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
