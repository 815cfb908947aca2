// A function with no fusible ops (matmul, collectives, calls) is printed
// exactly as without the pass; kernels already outlined are left alone.
// RUN: remat-opt --remat-fuse %s > %t.fused
// RUN: remat-opt %s > %t.plain
// RUN: diff %t.fused %t.plain
// RUN: FileCheck %s < %t.fused

// CHECK-LABEL: func.func @host_only
// CHECK-NOT: rt.kernel
func.func @host_only(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {rt.param}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %g = "rt.all_reduce"(%m) {group = "dp", group_size = 4 : i64, reduce = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.wait"(%g) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = call @already_k0(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m, %k : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func private @already_k0
func.func private @already_k0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
  %y = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A declaration has no body to fuse.
// CHECK-LABEL: func.func private @external
func.func private @external(tensor<4x8xf32>) -> tensor<4x8xf32>
