// --remat-fuse keeps an rt.extern in the host function: a kernel boundary, never fused,
// like a matmul (docs/design.md, "Ops remat does not model"); its attributes stay.
// RUN: remat-opt --remat-fuse %s | FileCheck %s
// CHECK-LABEL: func.func @f(
// CHECK-SAME:  %[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[U:[a-z0-9_]+]]: tensor<4x8xui8>)
// CHECK-NEXT:  %[[A:[0-9]+]] = call @f_k0(%[[X]])
// CHECK-NEXT:  %[[E:[0-9]+]] = "rt.extern"(%[[A]], %[[U]]) {name = "aten.masked_fill.Scalar", recompute = "pure"} : (tensor<4x8xf32>, tensor<4x8xui8>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[D:[0-9]+]] = call @f_k1(%[[X]], %[[E]])
// CHECK-NEXT:  return %[[D]]
// CHECK-LABEL: func.func private @f_k0(
// CHECK-NOT:   rt.extern
// CHECK-LABEL: func.func private @f_k1(
// CHECK-NOT:   rt.extern
// CHECK:       return
func.func @f(%x: tensor<4x8xf32>, %u: tensor<4x8xui8>) -> tensor<4x8xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.neg"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "rt.extern"(%b, %u) {name = "aten.masked_fill.Scalar", recompute = "pure"} : (tensor<4x8xf32>, tensor<4x8xui8>) -> tensor<4x8xf32>
  %c = "rt.tanh"(%e) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "rt.mul"(%c, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
