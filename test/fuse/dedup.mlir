// Kernel deduplication, the last step of --remat-fuse (lib/analysis/kernel_dedup.c): a kernel
// structurally equal to an earlier one (ops, attributes but the checkpoint tags, types,
// signature) is erased, and its call calls the earlier one. A constant, a shape or an
// attribute of its own keeps a kernel apart.
// RUN: remat-opt --remat-fuse %s | FileCheck %s
// RUN: remat-opt --remat-fuse %s | remat-opt | FileCheck %s
// RUN: remat-opt --remat-fuse=dedup=false %s | FileCheck %s --check-prefix=OFF
// RUN: remat-opt --remat-fuse --print-debuginfo %s | FileCheck %s --check-prefix=LOC
// RUN: remat-opt --remat-fuse=report=- %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// The merged module computes what the unfused one does, bit for bit, compiled and on the
// reference interpreter:
// RUN: remat-opt --remat-fuse %s -o %t.mlir
// RUN: remat-run %t.mlir --check-compiled-all --seed 3 | FileCheck %s --check-prefix=EXEC
// RUN: remat-run %s --fn two_layers --seed 1 > %t.ref
// RUN: remat-run %t.mlir --fn two_layers --seed 1 | diff %t.ref -
// RUN: remat-run %s --fn other_function --seed 1 > %t.ref2
// RUN: remat-run %t.mlir --fn other_function --seed 1 | diff %t.ref2 -

// Two identical layers (their tags and locations differ): one definition, called twice.
// CHECK-LABEL: func.func @two_layers(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[W1:[^:]*]]: tensor<8x8xf32>, %[[W2:[^:]*]]: tensor<8x8xf32>
// CHECK-NEXT: %[[A:.*]] = "rt.matmul"(%[[X]], %[[W1]])
// CHECK-NEXT: %[[C:.*]] = call @two_layers_k0(%[[A]], %[[X]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[D:.*]] = "rt.matmul"(%[[C]], %[[W2]])
// CHECK-NEXT: %[[F:.*]] = call @two_layers_k0(%[[D]], %[[C]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[F]]
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @two_layers_k0(%[[P0:.*]]: tensor<4x8xf32>, %[[P1:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rt.kernel} {
// CHECK-NEXT: %[[T:.*]] = "rt.tanh"(%[[P0]]) {rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"}
// CHECK-NEXT: %[[S:.*]] = "rt.add"(%[[T]], %[[P1]]) {rt.ac_region = 1 : i64}
// CHECK-NEXT: return %[[S]]
// CHECK-NEXT: }
// CHECK-NOT: @two_layers_k1
// OFF-LABEL: func.func @two_layers(
// OFF: call @two_layers_k0(
// OFF: call @two_layers_k1(
// OFF: func.func private @two_layers_k0(
// OFF: func.func private @two_layers_k1(
// The kept kernel keeps the first layer's op locations; its own location fuses those of
// every kernel merged into it; each call keeps its layer's location.
// LOC-DAG: [[L1:#loc[0-9]+]] = loc("model.py":1:2)
// LOC-DAG: [[L2:#loc[0-9]+]] = loc("model.py":2:2)
// LOC-DAG: call @two_layers_k0({{.*}} loc([[L1]])
// LOC-DAG: call @two_layers_k0({{.*}} loc([[L2]])
// LOC-DAG: "rt.tanh"({{.*}} loc([[TANH1:#loc[0-9]+]])
// LOC-DAG: [[TANH1]] = loc("model.py":1:1)
// LOC-DAG: [[FUSED:#loc[0-9]+]] = loc(fused{{\[}}[[L1]], [[L2]], {{#loc[0-9]+}}])
// LOC-DAG: } loc([[FUSED]])
func.func @two_layers(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.matmul"(%x, %w1) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("model.py":1:0)
  %b = "rt.tanh"(%a) {rt.ac_region = 1 : i64, rt.policy = "prefer_recompute"} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("model.py":1:1)
  %c = "rt.add"(%b, %x) {rt.ac_region = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("model.py":1:2)
  %d = "rt.matmul"(%c, %w2) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("model.py":2:0)
  %e = "rt.tanh"(%d) {rt.ac_region = 2 : i64, rt.policy = "must_save"} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("model.py":2:1)
  %f = "rt.add"(%e, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("model.py":2:2)
  return %f : tensor<4x8xf32>
}

// The same kernel in another function: the first definition in the module serves both.
// CHECK-LABEL: func.func @other_function(
// CHECK-NEXT: %[[A:.*]] = "rt.matmul"
// CHECK-NEXT: %[[C:.*]] = call @two_layers_k0(%[[A]], %{{.*}})
// CHECK-NEXT: return %[[C]]
// CHECK-NEXT: }
// CHECK-NOT: @other_function_k0
func.func @other_function(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = "rt.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "rt.tanh"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "rt.add"(%b, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// Layers differing only in a constant: two kernels.
// CHECK-LABEL: func.func @constant_differs(
// CHECK: call @constant_differs_k0(
// CHECK: call @constant_differs_k1(
// CHECK: func.func private @constant_differs_k0(
// CHECK-NEXT: arith.constant 2.000000e+00 : f32
// CHECK: func.func private @constant_differs_k1(
// CHECK-NEXT: arith.constant 3.000000e+00 : f32
func.func @constant_differs(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %a = "rt.mul"(%x, %two) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  %b = "rt.matmul"(%a, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = "rt.mul"(%b, %three) : (tensor<4x8xf32>, f32) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// Layers differing only in a shape: two kernels.
// CHECK-LABEL: func.func @shape_differs(
// CHECK: call @shape_differs_k0(
// CHECK: call @shape_differs_k1(
// CHECK: func.func private @shape_differs_k0(%{{.*}}: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: func.func private @shape_differs_k1(%{{.*}}: tensor<8x8xf32>) -> tensor<8x8xf32>
func.func @shape_differs(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<8x8xf32> {
  %a = "rt.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "rt.matmul"(%w, %a) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %c = "rt.exp"(%b) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// Reductions differing only in their dims attribute: two kernels.
// CHECK-LABEL: func.func @attribute_differs(
// CHECK: call @attribute_differs_k0(
// CHECK: call @attribute_differs_k1(
// CHECK: func.func private @attribute_differs_k0(
// CHECK-NEXT: "rt.sum"(%{{.*}}) {dims = array<i64: 1>}
// CHECK: func.func private @attribute_differs_k1(
// CHECK-NEXT: "rt.sum"(%{{.*}}) {dims = array<i64: 0>}
func.func @attribute_differs(%x: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a = "rt.sum"(%x) {dims = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %b = "rt.sum"(%x) {dims = array<i64: 0>} : (tensor<8x8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// Kernels already in the input: a private copy is merged, a public one (visible outside
// the module) is kept.
// CHECK-LABEL: func.func @calls_kernels(
// CHECK-NEXT: call @k_public(
// CHECK-NEXT: call @k_public_copy(
// CHECK-NEXT: call @k_private(
// CHECK-NEXT: call @k_private(
// CHECK: func.func @k_public(
// CHECK: func.func @k_public_copy(
// CHECK: func.func private @k_private(
// CHECK-NOT: @k_private_copy
func.func @calls_kernels(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = func.call @k_public(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @k_public_copy(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %c = func.call @k_private(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %d = func.call @k_private_copy(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func @k_public(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
  %a = "rt.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func @k_public_copy(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
  %a = "rt.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func private @k_private(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
  %a = "rt.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func private @k_private_copy(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.kernel} {
  %a = "rt.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// REPORT: remat-fuse: dedup: 13 kernel launches, 10 distinct kernels (13 definitions before)
// EXEC: ok: 6 functions, {{[0-9]+}} results bit-exact
