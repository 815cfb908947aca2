// A kernel name that is already a symbol of the module is an error at the host function.
// RUN: not remat-opt --remat-fuse %s 2>&1 | FileCheck %s

// CHECK: name-taken.mlir:[[@LINE+1]]:1: error: cannot outline a kernel of 'f': the symbol 'f_k0' already exists
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = "rt.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}

func.func @f_k0(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
