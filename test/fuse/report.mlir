// The fusion report (--remat-report, or report=FILE): per host function and for all of
// them, the unfused baseline (every op its own kernel), the previous grouping
// (grouping=shape) and this one, with numbers worked out by hand below (f32: 4 bytes).
// RUN: remat-opt --remat-fuse --remat-report %s -o /dev/null 2>&1 | FileCheck %s --match-full-lines
// RUN: remat-opt --remat-fuse=report=%t.rep %s -o /dev/null
// RUN: FileCheck %s --match-full-lines < %t.rep
// Under grouping=shape, "this" is the previous grouping:
// RUN: remat-opt --remat-fuse=grouping=shape --remat-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHAPE --match-full-lines

// @f: x [4x8] (128 B), y [8x4] (128 B), e [4x8], m [4x4] (64 B), s and n [4] (16 B).
// unfused: transpose 128+128, add 128+128+128, exp 128+128, sum 64+16, mul 16+16+16
//   = 1024 kernel bytes in 5 kernels, all single ops, one a copy (transpose), one a
//   reduction; the matmul reads e and y and writes m: 320 host bytes.
// previous: one [4x8] kernel (x, y -> e: 384), the sum in the host (80), one [4] kernel
//   for the mul (32): 416 + 80 + 320 = 816; launches + host reductions 3.
// this: transpose and add inlined into the exp's kernel (384: 2 clones), a row kernel
//   with the sum and the mul as its per-row epilogue (m -> n: 80): 464 + 320 = 784.
// CHECK:      remat-fuse: @f (grouping=index)
// CHECK-NEXT:   grouping               kernels     row  single   views host-reduce     kernel-bytes      total-bytes
// CHECK-NEXT:   unfused (op/kernel)          5       1       5       1           0             1024             1344
// CHECK-NEXT:   previous (shape)             2       0       1       0           1              416              816
// CHECK-NEXT:   this                         2       1       0       0           0              464              784
// CHECK-NEXT:   launches + host reductions: 3 -> 2 (66.7% of previous)
// CHECK-NEXT:   modelled traffic: 816 -> 784 bytes (96.1% of previous; kernels 111.5%)
// CHECK-NEXT:   host ops: rt.matmul 1
// CHECK-NEXT:   inlined op clones: 2, kernels of view ops only: 0
func.func @f(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %t = "rt.transpose"(%y) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %a = "rt.add"(%x, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "rt.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "rt.matmul"(%e, %y) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %s = "rt.sum"(%m) {dims = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<4xf32>
  %n = "rt.mul"(%s, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m, %n : tensor<4x4xf32>, tensor<4xf32>
}

// @g: a reshape between two elementwise ops. The reshape is free in every model (an
// alias); the previous grouping gave one kernel per shape (x -> a, a -> b: 256 + 256),
// this one kernel (x -> b: 256).
// CHECK:      remat-fuse: @g (grouping=index)
// CHECK-NEXT:   grouping               kernels     row  single   views host-reduce     kernel-bytes      total-bytes
// CHECK-NEXT:   unfused (op/kernel)          2       0       2       0           0              512              512
// CHECK-NEXT:   previous (shape)             2       0       2       0           0              512              512
// CHECK-NEXT:   this                         1       0       0       0           0              256              256
// CHECK-NEXT:   launches + host reductions: 2 -> 1 (50.0% of previous)
// CHECK-NEXT:   modelled traffic: 512 -> 256 bytes (50.0% of previous; kernels 50.0%)
// CHECK-NEXT:   host ops: none
// CHECK-NEXT:   inlined op clones: 2, kernels of view ops only: 0
func.func @g(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %a = "rt.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "rt.reshape"(%a) : (tensor<4x8xf32>) -> tensor<32xf32>
  %b = "rt.exp"(%r) : (tensor<32xf32>) -> tensor<32xf32>
  return %b : tensor<32xf32>
}

// The sums of both functions:
// CHECK:      remat-fuse: all functions
// CHECK-NEXT:   grouping               kernels     row  single   views host-reduce     kernel-bytes      total-bytes
// CHECK-NEXT:   unfused (op/kernel)          7       1       7       1           0             1536             1856
// CHECK-NEXT:   previous (shape)             4       0       3       0           1              928             1328
// CHECK-NEXT:   this                         3       1       0       0           0              720             1040
// CHECK-NEXT:   launches + host reductions: 5 -> 3 (60.0% of previous)
// CHECK-NEXT:   modelled traffic: 1328 -> 1040 bytes (78.3% of previous; kernels 77.6%)
// CHECK-NEXT:   host ops: rt.matmul 1
// CHECK-NEXT:   inlined op clones: 4, kernels of view ops only: 0

// SHAPE:      remat-fuse: all functions
// SHAPE:        this                         4       0       3       0           1              928             1328
// SHAPE-NEXT:   launches + host reductions: 5 -> 5 (100.0% of previous)
// SHAPE:        host ops: rt.matmul 1, rt.sum 1
