// A call of a function without a body: every executor stops at the call with the one
// diagnostic of walk.c's call path (rtr_callee): the reference interpreter, the compiled
// path, and the CUDA executor (on the fake driver of cuda_exec_test), whose diagnostics
// had drifted from the interpreter's.
// RUN: not remat-run %s --fn f --reference 2>&1 | FileCheck %s
// RUN: not remat-run %s --fn f 2>&1 | FileCheck %s
// RUN: %if cuda-toolkit %{ not %unit/cuda_exec_test run %s f 2>&1 | FileCheck %s %}
// CHECK: call-declaration.mlir:[[@LINE+5]]:10: error: call to '@g', which is not a function defined in this module
// CHECK-NOT: error
module {
  func.func private @g(tensor<4xf32>) -> tensor<4xf32>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
