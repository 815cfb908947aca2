// The semantic verifier on rt.attention and rt.attention_grad (rule ATTENTION; docs/design.md,
// "Attention"): the attributes (scale required and finite, causal an integer, mask one of
// three strings, keep in (0, 1]) decide which operands follow v (do), and every other type
// follows from q, k and v. The last part is a valid module of every form.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' needs a finite float attribute scale}}
  %0:2 = "rt.attention"(%q, %k, %v) : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' needs a finite float attribute scale}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 0x7FF0000000000000 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' needs a finite float attribute scale}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1 : i64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' causal must be an integer in [-2^62, 2^62]}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64, causal = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' causal must be an integer in [-2^62, 2^62]}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64, causal = 9223372036854775807 : i64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' mask must be "keep", "drop" or "add"}}
  %0:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64, mask = "fill"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' keep must be a float in (0, 1]}}
  %0:2 = "rt.attention"(%q, %k, %v, %s, %s) {scale = 1.0 : f64, keep = 0.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, i64, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' keep must be a float in (0, 1]}}
  %0:2 = "rt.attention"(%q, %k, %v, %s, %s) {scale = 1.0 : f64, keep = 1.5 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, i64, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' has 4 operands, expected 3: q, k, v (a mask operand iff the mask attribute, seed and offset iff the keep attribute)}}
  %0:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' has 3 operands, expected 4: q, k, v, mask}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64, mask = "keep"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' has 4 operands, expected 6: q, k, v, mask, seed, offset}}
  %0:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64, mask = "keep", keep = 0.9 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention_grad' has 5 operands, expected 6: q, k, v, o, lse, do}}
  %0:3 = "rt.attention_grad"(%q, %k, %v, %o, %l) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' has 1 results, expected 2 (the output and the logsumexp)}}
  %0 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention_grad' has 2 results, expected 3 (dq, dk, dv)}}
  %0:2 = "rt.attention_grad"(%q, %k, %v, %o, %l, %o) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' q must be a tensor of rank 3 [batch*heads, seq, dim], got 'tensor<4x6xi1>'}}
  %0:2 = "rt.attention"(%m, %k, %v) {scale = 1.0 : f64} : (tensor<4x6xi1>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' v must be a tensor of rank 3 [batch*heads, seq, dim], got 'i64'}}
  %0:2 = "rt.attention"(%q, %k, %s) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %h: tensor<2x4x4xf16>) {
  // expected-error @+1 {{'rt.attention' element type must be f32 or f64, got 'f16'}}
  %0:2 = "rt.attention"(%h, %h, %h) {scale = 1.0 : f64} : (tensor<2x4x4xf16>, tensor<2x4x4xf16>, tensor<2x4x4xf16>) -> (tensor<2x4x4xf16>, tensor<2x4xf16>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<2x6x3xf64>) {
  // expected-error @+1 {{'rt.attention' q, k and v must have one element type}}
  %0:2 = "rt.attention"(%q, %k, %d) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf64>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<2x5x3xf32>) {
  // expected-error @+1 {{'rt.attention' shapes do not agree: q 2x4x8, k 2x6x8, v 2x5x3 (expected q [N, Sq, D], k [N, Sk, D], v [N, Sk, Dv])}}
  %0:2 = "rt.attention"(%q, %k, %d) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x5x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<2x6x3xf32>) {
  // expected-error @+1 {{'rt.attention' shapes do not agree: q 2x4x8, k 2x6x3}}
  %0:2 = "rt.attention"(%q, %d, %v) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x3xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<3x6x8xf32>) {
  // expected-error @+1 {{'rt.attention' shapes do not agree: q 2x4x8, k 3x6x8}}
  %0:2 = "rt.attention"(%q, %d, %v) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<3x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' o must be a tensor 2x4x3 of q's element type, got 'tensor<2x4x8xf32>'}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' lse must be a tensor 2x4 of q's element type, got 'tensor<2x4xf64>'}}
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf64>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention_grad' lse must be a tensor 2x4 of q's element type, got 'tensor<2x4x3xf32>'}}
  %0:3 = "rt.attention_grad"(%q, %k, %v, %o, %o, %o) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention_grad' do must be a tensor 2x4x3 of q's element type, got 'tensor<2x4xf32>'}}
  %0:3 = "rt.attention_grad"(%q, %k, %v, %o, %l, %l) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention_grad' dk must be a tensor 2x6x8 of q's element type, got 'tensor<2x6x3xf32>'}}
  %0:3 = "rt.attention_grad"(%q, %k, %v, %o, %l, %o) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x3xf32>, tensor<2x6x3xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<6x4xi1>) {
  // expected-error @+1 {{'rt.attention' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of i1 (mask = "keep"), got 'tensor<6x4xi1>'}}
  %0:2 = "rt.attention"(%q, %k, %v, %d) {scale = 1.0 : f64, mask = "keep"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<6x4xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<4x6xf32>) {
  // expected-error @+1 {{'rt.attention' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of i1 (mask = "drop"), got 'tensor<4x6xf32>'}}
  %0:2 = "rt.attention"(%q, %k, %v, %d) {scale = 1.0 : f64, mask = "drop"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64) {
  // expected-error @+1 {{'rt.attention' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of q's element type (mask = "add"), got 'tensor<4x6xi1>'}}
  %0:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64, mask = "add"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<3x4x6xi1>) {
  // expected-error @+1 {{'rt.attention' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of i1 (mask = "keep"), got 'tensor<3x4x6xi1>'}}
  %0:2 = "rt.attention"(%q, %k, %v, %d) {scale = 1.0 : f64, mask = "keep"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<3x4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: i1) {
  // expected-error @+1 {{'rt.attention' mask must be a tensor [Sq, Sk] or [N, Sq, Sk] of i1 (mask = "keep"), got 'i1'}}
  %0:2 = "rt.attention"(%q, %k, %v, %d) {scale = 1.0 : f64, mask = "keep"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, i1) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: i32) {
  // expected-error @+1 {{'rt.attention' seed must be an i64 scalar, got 'i32'}}
  %0:2 = "rt.attention"(%q, %k, %v, %d, %s) {scale = 1.0 : f64, keep = 0.9 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, i32, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %d: tensor<2xi64>) {
  // expected-error @+1 {{'rt.attention' offset must be an i64 scalar, got 'tensor<2xi64>'}}
  %0:2 = "rt.attention"(%q, %k, %v, %s, %d) {scale = 1.0 : f64, keep = 0.9 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, i64, tensor<2xi64>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %b: tensor<65536x65536x0xf32>, %c: tensor<65536x4294967296x0xf32>, %e: tensor<65536x4294967296x0xf32>) {
  // expected-error @+1 {{'rt.attention' dropout's N x Sq x Sk elements overflow 64 bits}}
  %0:2 = "rt.attention"(%b, %c, %e, %s, %s) {scale = 1.0 : f64, keep = 0.9 : f64} : (tensor<65536x65536x0xf32>, tensor<65536x4294967296x0xf32>, tensor<65536x4294967296x0xf32>, i64, i64) -> (tensor<65536x65536x0xf32>, tensor<65536x65536xf32>)
  return
}

// -----

// Every form: no mask, causal, a mask of each kind ([Sq, Sk] and [N, Sq, Sk]), dropout,
// and the gradient of each.
func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x3xf32>, %o: tensor<2x4x3xf32>, %l: tensor<2x4xf32>, %m: tensor<4x6xi1>, %s: i64, %a: tensor<2x4x6xf32>, %x: tensor<1x3x2xf64>, %y: tensor<1x5x2xf64>) -> tensor<2x6x3xf32> {
  %0:2 = "rt.attention"(%q, %k, %v) {scale = 0.35 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  %1:2 = "rt.attention"(%q, %k, %v, %m, %s, %s) {scale = 1.0 : f64, causal = -1 : i64, mask = "keep", keep = 0.9 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>, i64, i64) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  %2:2 = "rt.attention"(%q, %k, %v, %m) {scale = 1.0 : f64, mask = "drop"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xi1>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  %3:2 = "rt.attention"(%q, %k, %v, %a) {scale = 1.0 : f64, mask = "add"} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x6xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  %4:3 = "rt.attention_grad"(%q, %k, %v, %1#0, %1#1, %o, %m, %s, %s) {scale = 1.0 : f64, causal = -1 : i64, mask = "keep", keep = 0.9 : f64} : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<2x4x3xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>, tensor<4x6xi1>, i64, i64) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>)
  %5:2 = "rt.attention"(%x, %y, %y) {scale = 1.0 : f64, causal = 2 : i64} : (tensor<1x3x2xf64>, tensor<1x5x2xf64>, tensor<1x5x2xf64>) -> (tensor<1x3x2xf64>, tensor<1x3xf64>)
  return %4#2 : tensor<2x6x3xf32>
}
