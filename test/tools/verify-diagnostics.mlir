// remat-opt --verify-diagnostics: every annotation form is matched (this file passes)
// and a mismatch of any kind fails with a located message (Inputs/verify-diagnostics-bad.mlir).
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null
// RUN: not remat-opt --split-input-file --verify-diagnostics %S/Inputs/verify-diagnostics-bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: verify-diagnostics-bad.mlir:4: error: expected error "'rt.exp' requires a floating-point" was not produced
// BAD: verify-diagnostics-bad.mlir:12: error: expected error "no such message" was not produced
// BAD: verify-diagnostics-bad.mlir:20: error: expected warning "'rt.exp' requires" was not produced
// BAD: verify-diagnostics-bad.mlir:5:8: error: unexpected error: 'rt.exp' requires a floating-point element type
// BAD: verify-diagnostics-bad.mlir:13:8: error: unexpected error: 'rt.log' requires a floating-point element type
// BAD: verify-diagnostics-bad.mlir:21:8: error: unexpected error: 'rt.exp' requires a floating-point element type
// BAD: verify-diagnostics-bad.mlir:28:8: error: unexpected error: 'rt.sin' requires a floating-point element type
// Without --verify-diagnostics the same file prints its errors, with their lines in the
// whole file, and fails:
// RUN: not remat-opt --split-input-file %S/Inputs/verify-diagnostics-bad.mlir 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: verify-diagnostics-bad.mlir:5:8: error: 'rt.exp' requires a floating-point element type
// PLAIN: verify-diagnostics-bad.mlir:13:8: error: 'rt.log' requires a floating-point element type
// The parts that pass are printed, separated as the input was:
// RUN: not remat-opt --split-input-file %s 2> /dev/null | FileCheck %s --check-prefix=OUT
// OUT: func.func @ok0
// OUT: // -----
// OUT: func.func @ok1

func.func @f(%c: tensor<4xi32>) {
  // expected-error @+1 {{'rt.exp' requires a floating-point element type}}
  %0 = "rt.exp"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error @below {{'rt.log' requires}}
  // expected-error @+2 {{'rt.sin'}} (@below and @above skip annotation lines)
  %1 = "rt.log"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  %2 = "rt.sin"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  %4 = "rt.tanh"(%c) : (tensor<4xi32>) -> tensor<4xi32> // expected-error {{'rt.tanh'}}
  %3 = "rt.cos"(%c) : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error @above {{'rt.cos' requires a floating-point element type}}
  return
}

// -----

func.func @ok0(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "rt.exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @ok1() {
  return
}
