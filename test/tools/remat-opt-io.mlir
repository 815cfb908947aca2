// Input from stdin, from a pipe named as a file (read once: a second read finds it empty),
// output with -o, upstream passes through --pass-pipeline, IR printing
// after each pass, timing and locations.
// RUN: remat-opt < %s | FileCheck %s
// RUN: remat-opt %s -o %t && FileCheck %s < %t
// RUN: bash -c 'remat-opt <(cat %s)' | FileCheck %s
// RUN: bash -c 'remat-translate --emit=llvm --target=host <(remat-opt --remat-fuse %s)' | FileCheck %s --check-prefix=LLVM
// RUN: remat-opt --threads %s '--pass-pipeline=builtin.module(canonicalize)' | FileCheck %s --check-prefix=CANON
// RUN: remat-opt %s '--pass-pipeline=builtin.module(canonicalize)' | FileCheck %s --check-prefix=CANON
// RUN: remat-opt %s --print-ir-after-all '--pass-pipeline=builtin.module(canonicalize)' 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER
// RUN: remat-opt %s --timing '--pass-pipeline=builtin.module(canonicalize)' 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: remat-opt %s --print-debuginfo | FileCheck %s --check-prefix=LOC

// CHECK-LABEL: func.func @f
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: "rt.mul"
// CANON-LABEL: func.func @f
// CANON: "rt.mul"
// AFTER: IR Dump After Canonicalizer
// TIMING: Execution time report
// TIMING: Canonicalizer
// LOC: "rt.mul"{{.*}} loc(
// LLVM: define
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %0 = "rt.mul"(%a, %two) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
