// max-ops=N: a group takes at most N ops (constants not counted); the next op opens a
// new kernel that reads the previous one's value.
// RUN: remat-opt --remat-fuse=max-ops=2 %s | FileCheck %s
// RUN: remat-opt --remat-fuse=max-ops=0 %s | FileCheck %s --check-prefix=ALL
// RUN: not remat-opt --remat-fuse=max-ops=-1 %s 2>&1 | FileCheck %s --check-prefix=BAD

// ALL: call @chain_k0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// ALL-NOT: call
// BAD: remat-opt: error: --remat-fuse: max-ops must be 0 (unlimited) or positive
// CHECK-LABEL: func.func @chain(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @chain_k0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @chain_k1(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain_k0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %0 = "rt.mul"(%arg0, %cst) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %1 = "rt.exp"(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain_k1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %0 = "rt.add"(%arg0, %cst) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant 2.000000e+00 : f32
  %a = "rt.mul"(%x, %c) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %b = "rt.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %d = "rt.add"(%b, %c) : (tensor<8xf32>, f32) -> tensor<8xf32>
  return %d : tensor<8xf32>
}
