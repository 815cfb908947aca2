// A buffer ({rt.buffer}, as remat-import-torch marks running statistics and masks) is
// persistent state like a parameter: with params-free it costs nothing to save, so the
// backward computes 2 * running_var from it rather than the forward saving the product.
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s
// CHECK:      remat-mincut: @f -> @f_fwd, @f_bwd
// CHECK-NEXT:   #  value                type                            bytes  why      location
// CHECK-NEXT:   0  %arg1                tensor<4xf32>                      16  primal   "bn.running_var"
// CHECK-NEXT: saved bytes: 16 (rt.param: 16;
// CHECK-NEXT: recomputed ops: 0 (moved to the backward: 1)
// Without params-free it weighs its bytes, as the product does: the cut closest to the
// sink saves the product.
// RUN: remat-opt --remat-mincut=params-free=false --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PAID
// PAID:      0  rt.mul               tensor<4xf32>                      16  cut      buffer.mlir:{{[0-9]+}}:{{[0-9]+}}
// PAID-NEXT: saved bytes: 16 (rt.param: 0;
func.func @f(%x: tensor<4xf32> loc("x"), %rv: tensor<4xf32> {rt.buffer} loc("bn.running_var"),
             %g: tensor<4xf32> {rt.tangent} loc("tangents_1"))
    -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %y = "rt.mul"(%x, %rv) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = "rt.exp"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  %two = arith.constant 2.0 : f32
  %r2 = "rt.mul"(%rv, %two) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %dx = "rt.mul"(%g, %r2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %e, %dx : tensor<4xf32>, tensor<4xf32>
}
