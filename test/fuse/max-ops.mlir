// max-ops=N: a group takes at most N ops (views and constants not counted, and no
// producer is inlined then); the next op opens a
// new kernel that reads the previous one's value.
// RUN: remat-opt --remat-fuse=max-ops=2 %s | FileCheck %s
// RUN: remat-opt --remat-fuse=max-ops=0 %s | FileCheck %s --check-prefix=ALL
// RUN: not remat-opt --remat-fuse=max-ops=-1 %s 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: remat-opt: error: --remat-fuse: max-ops must be 0 (unlimited) or positive
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %[[V0:.*]] = call @chain_k0(%[[ARG0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = call @chain_k1(%[[V0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain_k0(%[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.mul"(%[[ARG0]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = "rt.exp"(%[[V0]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @chain_k1(%[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[V0:.*]] = "rt.add"(%[[ARG0]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8xf32>
// CHECK-NEXT: }
// ALL-LABEL: func.func @chain(
// ALL-SAME: %[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> {
// ALL-NEXT: %[[V0:.*]] = call @chain_k0(%[[ARG0]]) : (tensor<8xf32>) -> tensor<8xf32>
// ALL-NEXT: return %[[V0]] : tensor<8xf32>
// ALL-NEXT: }
// ALL-NEXT: func.func private @chain_k0(%[[ARG0:[^:]*]]: tensor<8xf32>) -> tensor<8xf32> attributes {rt.kernel} {
// ALL-NEXT: %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// ALL-NEXT: %[[V0:.*]] = "rt.mul"(%[[ARG0]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// ALL-NEXT: %[[V1:.*]] = "rt.exp"(%[[V0]]) : (tensor<8xf32>) -> tensor<8xf32>
// ALL-NEXT: %[[V2:.*]] = "rt.add"(%[[V1]], %[[CST]]) : (tensor<8xf32>, f32) -> tensor<8xf32>
// ALL-NEXT: return %[[V2]] : tensor<8xf32>
// ALL-NEXT: }
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant 2.000000e+00 : f32
  %a = "rt.mul"(%x, %c) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %b = "rt.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %d = "rt.add"(%b, %c) : (tensor<8xf32>, f32) -> tensor<8xf32>
  return %d : tensor<8xf32>
}
