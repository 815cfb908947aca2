// What the codegen cannot lower is a located error; every bad kernel is reported.
// RUN: not remat-translate %s 2>&1 | FileCheck %s
// RUN: not remat-translate --target=host --emit=llvm %s -o %t.ll 2>&1 | FileCheck %s

func.func private @matmul_k0(%a: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {rt.kernel} {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: 'rt.matmul' cannot be lowered in a kernel: only elementwise, compare, structural, random and reduction rt ops fuse (it belongs in a host function)
  %0 = "rt.matmul"(%a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

func.func private @divsi_k0(%a: tensor<2xi32>, %n: i32) -> tensor<2xi32> attributes {rt.kernel} {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: 'arith.divsi' cannot be lowered in a kernel
  %0 = arith.divsi %n, %n : i32
  %1 = "rt.add"(%a, %0) : (tensor<2xi32>, i32) -> tensor<2xi32>
  return %1 : tensor<2xi32>
}

// CHECK: errors.mlir:[[@LINE+1]]:1: error: kernel 'half_scalar_k0' argument #1 has type 'f16': expected a static tensor or a f32, f64, i64, i32 or i1 scalar
func.func private @half_scalar_k0(%a: tensor<2xf16>, %s: f16) -> tensor<2xf16> attributes {rt.kernel} {
  return %a : tensor<2xf16>
}

// CHECK: errors.mlir:[[@LINE+1]]:1: error: kernel 'shapes_k0' result #1 has type 'tensor<3xf32>': every result must be a tensor of the shape of result #0
func.func private @shapes_k0(%a: tensor<2xf32>, %b: tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>) attributes {rt.kernel} {
  return %a, %b : tensor<2xf32>, tensor<3xf32>
}

// CHECK: errors.mlir:[[@LINE+1]]:1: error: kernel 'none_k0' has no results
func.func private @none_k0(%a: tensor<2xf32>) attributes {rt.kernel} {
  return
}

// CHECK-NOT: error:

// An attention op's kernel holds a row of q, k, v and do in private memory: at most 1024
// elements (both ops, either dimension).
func.func @attention_rows(%q: tensor<1x2x1025xf32>, %k: tensor<1x3x1025xf32>, %v: tensor<1x3x2xf32>, %q2: tensor<1x2x2xf64>, %k2: tensor<1x3x2xf64>, %v2: tensor<1x3x2000xf64>, %o2: tensor<1x2x2000xf64>, %l2: tensor<1x2xf64>) -> (tensor<1x2x2xf32>, tensor<1x3x2xf64>) {
  // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'rt.attention' has rows of 1025 and 2 elements: its kernel holds a row in private memory, at most 1024 elements
  %a:2 = "rt.attention"(%q, %k, %v) {scale = 1.0 : f64} : (tensor<1x2x1025xf32>, tensor<1x3x1025xf32>, tensor<1x3x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>)
  // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'rt.attention_grad' has rows of 2 and 2000 elements
  %g:3 = "rt.attention_grad"(%q2, %k2, %v2, %o2, %l2, %o2) {scale = 1.0 : f64} : (tensor<1x2x2xf64>, tensor<1x3x2xf64>, tensor<1x3x2000xf64>, tensor<1x2x2000xf64>, tensor<1x2xf64>, tensor<1x2x2000xf64>) -> (tensor<1x2x2xf64>, tensor<1x3x2xf64>, tensor<1x3x2000xf64>)
  return %a#0, %g#1 : tensor<1x2x2xf32>, tensor<1x3x2xf64>
}
