// Every backward op takes the location of the forward op it differentiates, so
// diagnostics and the min-cut report point at the user's line; a tangent argument takes
// the location of the result it belongs to, a zero gradient that of its argument.
// RUN: remat-opt --remat-autodiff --print-debuginfo %s | FileCheck %s
// RUN: remat-opt --remat-autodiff --remat-mincut --print-debuginfo %s | FileCheck %s --check-prefix=SPLIT

func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>, %unused: tensor<2xf32>) -> tensor<4xf32>
    attributes {rt.autodiff} {
  %m = "rt.mul"(%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = "rt.tanh"(%m) : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
// The printer defines the aliases used by block arguments first, the others last.
// CHECK-DAG:   [[ARG2:#loc[0-9]+]] = loc("{{.*}}locations.mlir":7:52)
// CHECK-DAG:   [[TANHL:#loc[0-9]+]] = loc("{{.*}}locations.mlir":10:8)
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[G:[^:]*]]: tensor<4xf32> {rt.tangent} loc("{{.*}}locations.mlir":10:8)
// CHECK:         "rt.mul"(%{{.*}}, %{{.*}}) : {{.*}} loc([[MUL:#loc[0-9]+]])
// CHECK-NEXT:    "rt.tanh"{{.*}} loc([[TANHL]])
// CHECK-NEXT:    "rt.mul"{{.*}} loc([[TANHL]])
// CHECK-NEXT:    arith.constant {{.*}} loc([[TANHL]])
// CHECK-NEXT:    "rt.sub"{{.*}} loc([[TANHL]])
// CHECK-NEXT:    "rt.mul"(%[[G]], {{.*}} loc([[TANHL]])
// CHECK-NEXT:    "rt.mul"{{.*}} loc([[MUL]])
// CHECK-NEXT:    "rt.mul"{{.*}} loc([[MUL]])
// CHECK-NEXT:    "rt.full"{{.*}} loc([[ARG2]])
// CHECK:       [[MUL]] = loc("{{.*}}locations.mlir":9:8)

// The split keeps them: the backward's multiplies still point at line 9.
// SPLIT-LABEL: func.func @f_bwd(
// SPLIT:         "rt.mul"{{.*}} loc([[MUL:#loc[0-9]+]])
// SPLIT-DAG:   [[MUL]] = loc("{{.*}}locations.mlir":9:8)
