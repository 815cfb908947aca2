// --remat-mincut on a CNN-like joint function written by hand with rt.extern ops (docs/
// design.md, "Ops remat does not model"): conv, relu, conv, max-pool with indices (two
// results), the detach torch puts on relu's output for its backward, and the backward
// externs. The three functions differ only in the recompute class of every extern.
// Bytes: x 1536; each [2,4,8,8] f32 activation 2048; the pool's values 512 (the output),
// its i64 indices 1024; relu's i1 mask 512; weights (rt.param) 432 and 576.
// RUN: remat-opt --remat-mincut %s | FileCheck %s
// RUN: remat-opt --remat-mincut --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// `ban=extern` bans every rt.extern, the pure ones too: @cnn_pure splits as @cnn_once does.
// RUN: remat-opt --remat-mincut=ban=matmul,reduction,collective,extern --remat-report %s 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=BAN
// `ban=none` does not lift the ban of recompute = "once": @cnn_once splits as by default.
// RUN: remat-opt --remat-mincut=ban=none --remat-report %s 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=NOBAN

// "once" (the default, no attribute): the convolutions and the pool run once, in the
// forward (the output needs them), so their values the backward reads are saved: relu's
// output, conv2's output and the pool's indices (its 2nd result; the 1st is the output).
// The detach, which only the backward reads, moves to the backward.
// REPORT-LABEL: remat-mincut: @cnn_once -> @cnn_once_fwd, @cnn_once_bwd
// REPORT-NEXT:    #  value                type                            bytes  why      location
// REPORT-NEXT:    0  %arg0                tensor<2x3x8x8xf32>              1536  primal   "x"
// REPORT-NEXT:    1  %arg1                tensor<4x3x3x3xf32>               432  primal   "conv1.weight"
// REPORT-NEXT:    2  %arg2                tensor<4x4x3x3xf32>               576  primal   "conv2.weight"
// REPORT-NEXT:    3  rt.max               tensor<2x4x8x8xf32>              2048  cut      cnn.mlir:
// REPORT-NEXT:    4  aten.convolution.default tensor<2x4x8x8xf32>              2048  cut      cnn.mlir:
// REPORT-NEXT:    5  aten.max_pool2d_with_indices.default#1 tensor<2x4x4x4xi64>              1024  cut      cnn.mlir:
// REPORT-NEXT:  saved bytes: 7664 (rt.param: 1008; no-remat baseline: 8176, 93.7%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 2)
// "pure": everything is recomputed from x; the recomputed convolutions' flops are counted.
// REPORT-LABEL: remat-mincut: @cnn_pure -> @cnn_pure_fwd, @cnn_pure_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<2x3x8x8xf32>              1536  primal   "x"
// REPORT-NEXT:    1  %arg1                tensor<4x3x3x3xf32>               432  primal   "conv1.weight"
// REPORT-NEXT:    2  %arg2                tensor<4x4x3x3xf32>               576  primal   "conv2.weight"
// REPORT-NEXT:  saved bytes: 2544 (rt.param: 1008; no-remat baseline: 8176, 31.1%)
// REPORT-NEXT:  recomputed ops: 4 (moved to the backward: 2)
// REPORT:       recompute cost (this split): 4 ops, 16368 bytes moved, 0 matmul flops, 64512 rt.extern flops
// "forward": every extern runs in the forward, none moves: the detach is computed there,
// and the forward saves relu's mask (512 bytes) rather than the detach (2048).
// REPORT-LABEL: remat-mincut: @cnn_forward -> @cnn_forward_fwd, @cnn_forward_bwd
// REPORT-NEXT:    #  value
// REPORT-NEXT:    0  %arg0                tensor<2x3x8x8xf32>              1536  primal   "x"
// REPORT-NEXT:    1  %arg1                tensor<4x3x3x3xf32>               432  primal   "conv1.weight"
// REPORT-NEXT:    2  %arg2                tensor<4x4x3x3xf32>               576  primal   "conv2.weight"
// REPORT-NEXT:    3  rt.max               tensor<2x4x8x8xf32>              2048  cut      cnn.mlir:
// REPORT-NEXT:    4  aten.convolution.default tensor<2x4x8x8xf32>              2048  forward  cnn.mlir:
// REPORT-NEXT:    5  aten.max_pool2d_with_indices.default#1 tensor<2x4x4x4xi64>              1024  forward  cnn.mlir:
// REPORT-NEXT:    6  rt.le                tensor<2x4x8x8xi1>                512  cut      cnn.mlir:
// REPORT-NEXT:  saved bytes: 8176 (rt.param: 1008; no-remat baseline: 8176, 100.0%)
// REPORT-NEXT:  recomputed ops: 0 (moved to the backward: 0)

// BAN-LABEL: remat-mincut: @cnn_pure -> @cnn_pure_fwd, @cnn_pure_bwd
// BAN:         5  aten.max_pool2d_with_indices.default#1 tensor<2x4x4x4xi64>              1024  cut
// BAN-NEXT:    saved bytes: 7664 (rt.param: 1008; no-remat baseline: 8176, 93.7%)
// BAN-NEXT:    recomputed ops: 0 (moved to the backward: 2)
// NOBAN-LABEL: remat-mincut: @cnn_once -> @cnn_once_fwd, @cnn_once_bwd
// NOBAN:         saved bytes: 7664 (rt.param: 1008; no-remat baseline: 8176, 93.7%)

// The split keeps each extern with all its attributes (args too); the multi-result pool's
// 2nd result is saved, its 1st returned.
// CHECK-LABEL: func.func @cnn_once_fwd(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<2x3x8x8xf32>, %[[W1:[a-z0-9_]+]]: tensor<4x3x3x3xf32> {rt.param}, %[[W2:[a-z0-9_]+]]: tensor<4x4x3x3xf32> {rt.param}) -> (tensor<2x4x4x4xf32>, tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x4x4xi64>) attributes {rt.num_outputs = 1 : i64, rt.saved_bytes = 7664 : i64} {
// CHECK-NEXT:  %[[Z:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[C1:[a-z0-9_]+]] = "rt.extern"(%[[X]], %[[W1]]) {args = "stride=[1, 1], padding=[1, 1]", flops = 27648 : i64, name = "aten.convolution.default"} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
// CHECK-NEXT:  %[[R1:[a-z0-9_]+]] = "rt.max"(%[[C1]], %[[Z]])
// CHECK-NEXT:  %[[C2:[a-z0-9_]+]] = "rt.extern"(%[[R1]], %[[W2]]) {flops = 36864 : i64, name = "aten.convolution.default"}
// CHECK-NEXT:  %[[P:[a-z0-9_]+]]:2 = "rt.extern"(%[[C2]]) {name = "aten.max_pool2d_with_indices.default"} : (tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x4x4xi64>)
// CHECK-NEXT:  return %[[P]]#0, %[[X]], %[[W1]], %[[W2]], %[[R1]], %[[C2]], %[[P]]#1 :
// CHECK-NEXT: }
// CHECK-LABEL: func.func @cnn_once_bwd(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<2x3x8x8xf32>, %[[W1:[a-z0-9_]+]]: tensor<4x3x3x3xf32> {rt.param}, %[[W2:[a-z0-9_]+]]: tensor<4x4x3x3xf32> {rt.param}, %[[R1:[a-z0-9_]+]]: tensor<2x4x8x8xf32>, %[[C2:[a-z0-9_]+]]: tensor<2x4x8x8xf32>, %[[I:[a-z0-9_]+]]: tensor<2x4x4x4xi64>, %[[G:[a-z0-9_]+]]: tensor<2x4x4x4xf32> {rt.tangent})
// CHECK-NEXT:  %[[GP:[a-z0-9_]+]] = "rt.extern"(%[[G]], %[[C2]], %[[I]]) {name = "aten.max_pool2d_with_indices_backward.default"}
// CHECK-NEXT:  %[[B2:[a-z0-9_]+]]:2 = "rt.extern"(%[[GP]], %[[R1]], %[[W2]]) {name = "aten.convolution_backward.default"}
// CHECK-NEXT:  %[[Z:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[D:[a-z0-9_]+]] = "rt.extern"(%[[R1]]) {name = "aten.detach.default"}
// CHECK-NEXT:  %[[M:[a-z0-9_]+]] = "rt.le"(%[[D]], %[[Z]])
// CHECK-NEXT:  %[[GR:[a-z0-9_]+]] = "rt.select"(%[[M]], %[[Z]], %[[B2]]#0)
// CHECK-NEXT:  %[[B1:[a-z0-9_]+]] = "rt.extern"(%[[GR]], %[[X]], %[[W1]]) {name = "aten.convolution_backward.default"}
// CHECK-NEXT:  return %[[B1]], %[[B2]]#1 :
// CHECK-NEXT: }
// pure: the backward recomputes both convolutions, relu and the pool (for its indices).
// CHECK-LABEL: func.func @cnn_pure_bwd(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<2x3x8x8xf32>, %[[W1:[a-z0-9_]+]]: tensor<4x3x3x3xf32> {rt.param}, %[[W2:[a-z0-9_]+]]: tensor<4x4x3x3xf32> {rt.param}, %[[G:[a-z0-9_]+]]: tensor<2x4x4x4xf32> {rt.tangent})
// CHECK:       %[[C1:[a-z0-9_]+]] = "rt.extern"(%[[X]], %[[W1]]) {args = "stride=[1, 1], padding=[1, 1]", flops = 27648 : i64, name = "aten.convolution.default", recompute = "pure"}
// CHECK-NEXT:  %[[R1:[a-z0-9_]+]] = "rt.max"(%[[C1]],
// CHECK-NEXT:  %[[C2:[a-z0-9_]+]] = "rt.extern"(%[[R1]], %[[W2]])
// CHECK-NEXT:  %[[P:[a-z0-9_]+]]:2 = "rt.extern"(%[[C2]]) {name = "aten.max_pool2d_with_indices.default", recompute = "pure"}
// CHECK-NEXT:  "rt.extern"(%[[G]], %[[C2]], %[[P]]#1) {name = "aten.max_pool2d_with_indices_backward.default"
// forward: the detach and relu's mask run in the forward, which saves the mask.
// CHECK-LABEL: func.func @cnn_forward_fwd(
// CHECK:       %[[R1:[a-z0-9_]+]] = "rt.max"
// CHECK-NEXT:  %[[D:[a-z0-9_]+]] = "rt.extern"(%[[R1]]) {name = "aten.detach.default", recompute = "forward"}
// CHECK:       %[[M:[a-z0-9_]+]] = "rt.le"(%[[D]],
// CHECK-NEXT:  return {{.*}}, %[[M]] :
// CHECK-LABEL: func.func @cnn_forward_bwd(
// CHECK-NOT:   aten.detach
// CHECK-NOT:   aten.convolution.default
// CHECK:       return

func.func @cnn_once(%x: tensor<2x3x8x8xf32> loc("x"), %w1: tensor<4x3x3x3xf32> {rt.param} loc("conv1.weight"), %w2: tensor<4x4x3x3xf32> {rt.param} loc("conv2.weight"), %g: tensor<2x4x4x4xf32> {rt.tangent})
    -> (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>) attributes {rt.num_outputs = 1 : i64} {
  %zero = arith.constant 0.0 : f32
  %c1 = "rt.extern"(%x, %w1) {name = "aten.convolution.default", flops = 27648 : i64, args = "stride=[1, 1], padding=[1, 1]"} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  %r1 = "rt.max"(%c1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
  %d1 = "rt.extern"(%r1) {name = "aten.detach.default"} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %c2 = "rt.extern"(%r1, %w2) {name = "aten.convolution.default", flops = 36864 : i64} : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x8x8xf32>
  %p:2 = "rt.extern"(%c2) {name = "aten.max_pool2d_with_indices.default"} : (tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x4x4xi64>)
  %gp = "rt.extern"(%g, %c2, %p#1) {name = "aten.max_pool2d_with_indices_backward.default"} : (tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>, tensor<2x4x4x4xi64>) -> tensor<2x4x8x8xf32>
  %b2:2 = "rt.extern"(%gp, %r1, %w2) {name = "aten.convolution_backward.default"} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>)
  %m = "rt.le"(%d1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xi1>
  %gr = "rt.select"(%m, %zero, %b2#0) : (tensor<2x4x8x8xi1>, f32, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %b1 = "rt.extern"(%gr, %x, %w1) {name = "aten.convolution_backward.default"} : (tensor<2x4x8x8xf32>, tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
  return %p#0, %b1, %b2#1 : tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>
}

func.func @cnn_pure(%x: tensor<2x3x8x8xf32> loc("x"), %w1: tensor<4x3x3x3xf32> {rt.param} loc("conv1.weight"), %w2: tensor<4x4x3x3xf32> {rt.param} loc("conv2.weight"), %g: tensor<2x4x4x4xf32> {rt.tangent})
    -> (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>) attributes {rt.num_outputs = 1 : i64} {
  %zero = arith.constant 0.0 : f32
  %c1 = "rt.extern"(%x, %w1) {name = "aten.convolution.default", flops = 27648 : i64, recompute = "pure", args = "stride=[1, 1], padding=[1, 1]"} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  %r1 = "rt.max"(%c1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
  %d1 = "rt.extern"(%r1) {name = "aten.detach.default", recompute = "pure"} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %c2 = "rt.extern"(%r1, %w2) {name = "aten.convolution.default", flops = 36864 : i64, recompute = "pure"} : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x8x8xf32>
  %p:2 = "rt.extern"(%c2) {name = "aten.max_pool2d_with_indices.default", recompute = "pure"} : (tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x4x4xi64>)
  %gp = "rt.extern"(%g, %c2, %p#1) {name = "aten.max_pool2d_with_indices_backward.default", recompute = "pure"} : (tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>, tensor<2x4x4x4xi64>) -> tensor<2x4x8x8xf32>
  %b2:2 = "rt.extern"(%gp, %r1, %w2) {name = "aten.convolution_backward.default", recompute = "pure"} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>)
  %m = "rt.le"(%d1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xi1>
  %gr = "rt.select"(%m, %zero, %b2#0) : (tensor<2x4x8x8xi1>, f32, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %b1 = "rt.extern"(%gr, %x, %w1) {name = "aten.convolution_backward.default", recompute = "pure"} : (tensor<2x4x8x8xf32>, tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
  return %p#0, %b1, %b2#1 : tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>
}

func.func @cnn_forward(%x: tensor<2x3x8x8xf32> loc("x"), %w1: tensor<4x3x3x3xf32> {rt.param} loc("conv1.weight"), %w2: tensor<4x4x3x3xf32> {rt.param} loc("conv2.weight"), %g: tensor<2x4x4x4xf32> {rt.tangent})
    -> (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>) attributes {rt.num_outputs = 1 : i64} {
  %zero = arith.constant 0.0 : f32
  %c1 = "rt.extern"(%x, %w1) {name = "aten.convolution.default", flops = 27648 : i64, recompute = "forward", args = "stride=[1, 1], padding=[1, 1]"} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  %r1 = "rt.max"(%c1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
  %d1 = "rt.extern"(%r1) {name = "aten.detach.default", recompute = "forward"} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %c2 = "rt.extern"(%r1, %w2) {name = "aten.convolution.default", flops = 36864 : i64, recompute = "forward"} : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x8x8xf32>
  %p:2 = "rt.extern"(%c2) {name = "aten.max_pool2d_with_indices.default", recompute = "forward"} : (tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x4x4xi64>)
  %gp = "rt.extern"(%g, %c2, %p#1) {name = "aten.max_pool2d_with_indices_backward.default", recompute = "forward"} : (tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>, tensor<2x4x4x4xi64>) -> tensor<2x4x8x8xf32>
  %b2:2 = "rt.extern"(%gp, %r1, %w2) {name = "aten.convolution_backward.default", recompute = "forward"} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>)
  %m = "rt.le"(%d1, %zero) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xi1>
  %gr = "rt.select"(%m, %zero, %b2#0) : (tensor<2x4x8x8xi1>, f32, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %b1 = "rt.extern"(%gr, %x, %w1) {name = "aten.convolution_backward.default", recompute = "forward"} : (tensor<2x4x8x8xf32>, tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
  return %p#0, %b1, %b2#1 : tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<4x4x3x3xf32>
}
