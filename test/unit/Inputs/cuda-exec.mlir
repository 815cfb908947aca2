// Inputs of cuda_exec_test.test: views, calls, lifetimes, matmuls, reductions and host
// ops on the CUDA backend over the fake driver (the functions are not fused: their rt
// ops run as host fallbacks, their views as aliases).

// 4 allocations: %x, %cols (a strided slice is copied), %k and %dead (unused, freed at
// once); the reshapes and the row slice alias %x.
func.func @views(%x: tensor<4x6xf32>, %s: f32)
    -> (tensor<6x4xf32>, tensor<2x6xf32>, tensor<4x2xf32>, tensor<2x6xf32>, f32, tensor<4x6xf32>) {
  %r = "rt.reshape"(%x) : (tensor<4x6xf32>) -> tensor<24xf32>
  %r2 = "rt.reshape"(%r) : (tensor<24xf32>) -> tensor<6x4xf32>
  %rows = "rt.slice"(%x) {start = array<i64: 1, 0>, limit = array<i64: 3, 6>, stride = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %cols = "rt.slice"(%x) {start = array<i64: 0, 1>, limit = array<i64: 4, 5>, stride = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %k = call @scale_k(%rows, %s) : (tensor<2x6xf32>, f32) -> tensor<2x6xf32>
  %dead = call @scale_k(%rows, %s) : (tensor<2x6xf32>, f32) -> tensor<2x6xf32>
  %s2 = arith.mulf %s, %s : f32
  return %r2, %rows, %cols, %k, %s2, %x : tensor<6x4xf32>, tensor<2x6xf32>, tensor<4x2xf32>, tensor<2x6xf32>, f32, tensor<4x6xf32>
}

func.func private @scale_k(%a: tensor<2x6xf32>, %s: f32) -> tensor<2x6xf32> attributes {rt.kernel} {
  %m = "rt.mul"(%a, %s) : (tensor<2x6xf32>, f32) -> tensor<2x6xf32>
  return %m : tensor<2x6xf32>
}

// 3 allocations: %x, %n in @inner, %c. @inner returns an alias of its argument.
func.func @calls(%x: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<4x6xf32>) {
  %a, %b = call @inner(%x) : (tensor<4x6xf32>) -> (tensor<24xf32>, tensor<4x6xf32>)
  %c = "rt.add"(%b, %b) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %a, %c : tensor<24xf32>, tensor<4x6xf32>
}

func.func @inner(%x: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<4x6xf32>) {
  %r = "rt.reshape"(%x) : (tensor<4x6xf32>) -> tensor<24xf32>
  %n = "rt.neg"(%x) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r, %n : tensor<24xf32>, tensor<4x6xf32>
}

// cuBLAS: f32, batched f16, f64; i32 on the host; an empty sum (K = 0) is zeros; the
// reductions run as their kernels.
func.func @mm(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<2x3x5xf16>,
              %d: tensor<2x5x4xf16>, %e: tensor<3x3xf64>, %i: tensor<2x3xi32>,
              %j: tensor<3x2xi32>, %z0: tensor<2x0xf32>, %z1: tensor<0x3xf32>)
    -> (tensor<4x3xf32>, tensor<2x3x4xf16>, tensor<3x3xf64>, tensor<2x2xi32>, tensor<2x3xf32>,
        tensor<4xf32>, tensor<3xf16>) {
  %m1 = "rt.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %m2 = "rt.matmul"(%c, %d) : (tensor<2x3x5xf16>, tensor<2x5x4xf16>) -> tensor<2x3x4xf16>
  %m3 = "rt.matmul"(%e, %e) : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %m4 = "rt.matmul"(%i, %j) : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  %m5 = "rt.matmul"(%z0, %z1) : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  %s = "rt.sum"(%m1) {dims = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  %x = "rt.amax"(%m2) {dims = array<i64: 0, 2>} : (tensor<2x3x4xf16>) -> tensor<3xf16>
  return %m1, %m2, %m3, %m4, %m5, %s, %x : tensor<4x3xf32>, tensor<2x3x4xf16>, tensor<3x3xf64>, tensor<2x2xi32>, tensor<2x3xf32>, tensor<4xf32>, tensor<3xf16>
}

// Transposed operands (rt.matmul transpose_a / transpose_b: cuBLAS's trans flags), 2-D
// and batched.
func.func @mmt(%a: tensor<6x4xf32>, %b: tensor<3x6xf32>, %c: tensor<2x5x3xf32>,
               %d: tensor<2x4x5xf32>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3x4xf32>) {
  %b2 = "rt.transpose"(%b) {perm = array<i64: 1, 0>} : (tensor<3x6xf32>) -> tensor<6x3xf32>
  %t1 = "rt.matmul"(%a, %b) {transpose_a, transpose_b} : (tensor<6x4xf32>, tensor<3x6xf32>) -> tensor<4x3xf32>
  %t2 = "rt.matmul"(%a, %b2) {transpose_a} : (tensor<6x4xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %t3 = "rt.matmul"(%c, %d) {transpose_a, transpose_b} : (tensor<2x5x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32>
  return %t1, %t2, %t3 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3x4xf32>
}

// The conv ops as their PTX entries (<fn>_c<N>, lib/codegen/codegen_conv.c): two groups,
// stride, padding and dilation in 2-d; the gradients; 1-d f16 (f32 accumulation).
func.func @conv(%x: tensor<2x4x5x6xf32>, %w: tensor<6x2x3x2xf32>, %dy: tensor<2x6x3x4xf32>,
                %h: tensor<1x2x7xf16>, %hw: tensor<3x2x3xf16>)
    -> (tensor<2x6x3x4xf32>, tensor<2x4x5x6xf32>, tensor<6x2x3x2xf32>, tensor<1x3x4xf16>) {
  %y = "rt.conv"(%x, %w) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x4x5x6xf32>, tensor<6x2x3x2xf32>) -> tensor<2x6x3x4xf32>
  %dx = "rt.conv_grad_input"(%dy, %w) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x6x3x4xf32>, tensor<6x2x3x2xf32>) -> tensor<2x4x5x6xf32>
  %dw = "rt.conv_grad_weight"(%x, %dy) {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<2x4x5x6xf32>, tensor<2x6x3x4xf32>) -> tensor<6x2x3x2xf32>
  %yh = "rt.conv"(%h, %hw) {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x2x7xf16>, tensor<3x2x3xf16>) -> tensor<1x3x4xf16>
  return %y, %dx, %dw, %yh : tensor<2x6x3x4xf32>, tensor<2x4x5x6xf32>, tensor<6x2x3x2xf32>, tensor<1x3x4xf16>
}

// The attention ops as their PTX entries (<fn>_a<N>, lib/codegen/codegen_attention.c):
// f32 with a causal predicate, an additive mask and dropout, 70 keys (two key tiles),
// its gradient; f64 with a keep mask.
func.func @attention(%q: tensor<2x5x3xf32>, %k: tensor<2x70x3xf32>, %v: tensor<2x70x4xf32>,
                     %m: tensor<5x70xf32>, %do: tensor<2x5x4xf32>, %seed: i64, %offset: i64,
                     %q2: tensor<1x4x2xf64>, %k2: tensor<1x9x2xf64>, %v2: tensor<1x9x3xf64>,
                     %keep: tensor<1x4x9xi1>)
    -> (tensor<2x5x4xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>, tensor<2x70x3xf32>, tensor<2x70x4xf32>, tensor<1x4x3xf64>, tensor<1x4xf64>) {
  %a:2 = "rt.attention"(%q, %k, %v, %m, %seed, %offset) {scale = 0.5 : f64, causal = 60 : i64, mask = "add", keep = 0.8 : f64} : (tensor<2x5x3xf32>, tensor<2x70x3xf32>, tensor<2x70x4xf32>, tensor<5x70xf32>, i64, i64) -> (tensor<2x5x4xf32>, tensor<2x5xf32>)
  %g:3 = "rt.attention_grad"(%q, %k, %v, %a#0, %a#1, %do, %m, %seed, %offset) {scale = 0.5 : f64, causal = 60 : i64, mask = "add", keep = 0.8 : f64} : (tensor<2x5x3xf32>, tensor<2x70x3xf32>, tensor<2x70x4xf32>, tensor<2x5x4xf32>, tensor<2x5xf32>, tensor<2x5x4xf32>, tensor<5x70xf32>, i64, i64) -> (tensor<2x5x3xf32>, tensor<2x70x3xf32>, tensor<2x70x4xf32>)
  %b:2 = "rt.attention"(%q2, %k2, %v2, %keep) {scale = 1.0 : f64, mask = "keep"} : (tensor<1x4x2xf64>, tensor<1x9x2xf64>, tensor<1x9x3xf64>, tensor<1x4x9xi1>) -> (tensor<1x4x3xf64>, tensor<1x4xf64>)
  return %a#0, %a#1, %g#0, %g#1, %g#2, %b#0, %b#1 : tensor<2x5x4xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>, tensor<2x70x3xf32>, tensor<2x70x4xf32>, tensor<1x4x3xf64>, tensor<1x4xf64>
}

// Attention over no keys (o NaN, lse -inf, dq 0) and with no queries (dk, dv 0): the
// empty operands are null pointers the kernels never read.
func.func @attention_empty(%q: tensor<2x3x2xf32>, %k: tensor<2x0x2xf32>, %v: tensor<2x0x3xf32>, %do: tensor<2x3x3xf32>,
                           %q2: tensor<1x0x2xf64>, %k2: tensor<1x4x2xf64>, %v2: tensor<1x4x3xf64>, %o2: tensor<1x0x3xf64>, %lse2: tensor<1x0xf64>)
    -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x2xf32>, tensor<1x4x2xf64>, tensor<1x4x3xf64>) {
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %g:3 = "rt.attention_grad"(%q, %k, %v, %a#0, %a#1, %do) {scale = 1.0 : f64} : (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x3xf32>, tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>) -> (tensor<2x3x2xf32>, tensor<2x0x2xf32>, tensor<2x0x3xf32>)
  %h:3 = "rt.attention_grad"(%q2, %k2, %v2, %o2, %lse2, %o2) {scale = 1.0 : f64} : (tensor<1x0x2xf64>, tensor<1x4x2xf64>, tensor<1x4x3xf64>, tensor<1x0x3xf64>, tensor<1x0xf64>, tensor<1x0x3xf64>) -> (tensor<1x0x2xf64>, tensor<1x4x2xf64>, tensor<1x4x3xf64>)
  return %a#0, %a#1, %g#0, %h#1, %h#2 : tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x2xf32>, tensor<1x4x2xf64>, tensor<1x4x3xf64>
}
