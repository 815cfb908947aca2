// Bad input: a located diagnostic and exit 1, nothing printed on stdout.
// RUN: split-file --leading-lines %s %t
// RUN: not remat-opt --remat-autodiff %t/blocks.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not remat-opt --remat-autodiff %t/call.mlir 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: not remat-opt --remat-autodiff %t/arith.mlir 2>&1 | FileCheck %s --check-prefix=ARITH
// RUN: not remat-opt --remat-autodiff %t/reduce-max.mlir 2>&1 | FileCheck %s --check-prefix=RMAX
// RUN: not remat-opt --remat-autodiff %t/pow-base.mlir 2>&1 | FileCheck %s --check-prefix=POWBASE
// RUN: not remat-opt --remat-autodiff %t/wrt-range.mlir 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not remat-opt --remat-autodiff %t/wrt-negative.mlir 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not remat-opt --remat-autodiff %t/wrt-int.mlir 2>&1 | FileCheck %s --check-prefix=WRTINT
// RUN: not remat-opt --remat-autodiff %t/wrt-twice.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not remat-opt --remat-autodiff %t/wrt-empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not remat-opt --remat-autodiff %t/wrt-kind.mlir 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not remat-opt --remat-autodiff %t/no-float-result.mlir 2>&1 | FileCheck %s --check-prefix=NORES
// RUN: not remat-opt --remat-autodiff %t/no-float-arg.mlir 2>&1 | FileCheck %s --check-prefix=NOARG
// RUN: not remat-opt --remat-autodiff %t/joint.mlir 2>&1 | FileCheck %s --check-prefix=JOINT
// RUN: not remat-opt --remat-autodiff %t/attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not remat-opt --remat-autodiff %t/key.mlir 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not remat-opt --remat-autodiff %t/declaration.mlir 2>&1 | FileCheck %s --check-prefix=DECL
// RUN: not remat-opt --remat-autodiff %t/call.mlir 2>/dev/null | count 0

//--- blocks.mlir
// BLOCKS: blocks.mlir:[[@LINE+1]]:1: error: --remat-autodiff: '@f' has more than one block: a forward function must be one block of rt and arith ops
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

//--- call.mlir
func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  // CALL: call.mlir:[[@LINE+1]]:8: error: 'func.call' is not supported by --remat-autodiff: a forward function may hold only rt and arith ops
  %y = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- arith.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  // ARITH: arith.mlir:[[@LINE+1]]:8: error: 'arith.addf' is not differentiable by --remat-autodiff: it uses a value computed from a differentiated argument (write tensor math with rt ops; arith ops are for scalars)
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- reduce-max.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff} {
  // RMAX: reduce-max.mlir:[[@LINE+1]]:8: error: 'rt.all_reduce' with a max or min reduction is not differentiable by --remat-autodiff (only reduce = "sum")
  %s = "rt.all_reduce"(%x) {group = "dp", group_size = 2 : i64, reduce = "max"} : (tensor<4xf32>) -> tensor<4xf32>
  %y = "rt.wait"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- pow-base.mlir
func.func @f(%x: tensor<4xf32>, %c: f32) -> tensor<4xf32> attributes {rt.autodiff} {
  // POWBASE: pow-base.mlir:[[@LINE+1]]:8: error: 'rt.pow' of a scalar base that is not an arith.constant is not differentiable by --remat-autodiff: the exponent's gradient needs the log of the base (make the base a tensor)
  %y = "rt.pow"(%c, %x) : (f32, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- wrt-range.mlir
// RANGE: wrt-range.mlir:[[@LINE+1]]:1: error: 'wrt' index 2 of '@f' is out of range: the function has 2 arguments
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32>
    attributes {rt.autodiff = {wrt = [0, 2]}} {
  return %x : tensor<4xf32>
}

//--- wrt-negative.mlir
// NEGATIVE: wrt-negative.mlir:[[@LINE+1]]:1: error: 'wrt' index -1 of '@f' is out of range: the function has 1 arguments
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = {wrt = array<i64: -1>}} {
  return %x : tensor<4xf32>
}

//--- wrt-int.mlir
// A gradient requested for an argument that has none: the seed of a dropout.
// WRTINT: wrt-int.mlir:[[@LINE+1]]:1: error: 'wrt' of '@f' requests the gradient of argument #1 of type 'i64', which is not differentiable: gradients exist for floating-point tensors only
func.func @f(%x: tensor<4xf32>, %seed: i64) -> tensor<4xf32> attributes {rt.autodiff = {wrt = [0, 1]}} {
  return %x : tensor<4xf32>
}

//--- wrt-twice.mlir
// TWICE: wrt-twice.mlir:[[@LINE+1]]:1: error: 'wrt' of '@f' names argument #0 twice
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = {wrt = [0, 0]}} {
  return %x : tensor<4xf32>
}

//--- wrt-empty.mlir
// EMPTY: wrt-empty.mlir:[[@LINE+1]]:1: error: 'wrt' of '@f' must be a non-empty list of argument indices ([0, 2] or array<i64: 0, 2>)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = {wrt = []}} {
  return %x : tensor<4xf32>
}

//--- wrt-kind.mlir
// KIND: wrt-kind.mlir:[[@LINE+1]]:1: error: 'wrt' of '@f' must hold integers (argument indices)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = {wrt = ["x"]}} {
  return %x : tensor<4xf32>
}

//--- no-float-result.mlir
// NORES: no-float-result.mlir:[[@LINE+1]]:1: error: --remat-autodiff: '@f' has no floating-point tensor result: there is nothing to differentiate
func.func @f(%x: tensor<4xf32>) -> tensor<4xi1> attributes {rt.autodiff} {
  %zero = arith.constant 0.000000e+00 : f32
  %c = "rt.gt"(%x, %zero) : (tensor<4xf32>, f32) -> tensor<4xi1>
  return %c : tensor<4xi1>
}

//--- no-float-arg.mlir
// NOARG: no-float-arg.mlir:[[@LINE+1]]:1: error: --remat-autodiff: '@f' has no floating-point tensor argument to differentiate
func.func @f(%seed: i64, %offset: i64) -> tensor<4xf32> attributes {rt.autodiff} {
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<4xf32>
  return %u : tensor<4xf32>
}

//--- joint.mlir
// JOINT: joint.mlir:[[@LINE+1]]:1: error: --remat-autodiff: '@f' has 'rt.num_outputs': it is a joint function already
func.func @f(%x: tensor<4xf32>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {rt.autodiff, rt.num_outputs = 1 : i64} {
  return %x, %g : tensor<4xf32>, tensor<4xf32>
}

//--- attr.mlir
// ATTR: attr.mlir:[[@LINE+1]]:1: error: 'rt.autodiff' of '@f' must be a unit attribute or a dictionary {wrt = [...]}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = "yes"} {
  return %x : tensor<4xf32>
}

//--- key.mlir
// KEY: key.mlir:[[@LINE+1]]:1: error: 'rt.autodiff' of '@f' has an unknown entry 'argnums' (only 'wrt' is known)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff = {argnums = [0]}} {
  return %x : tensor<4xf32>
}

//--- declaration.mlir
// DECL: declaration.mlir:[[@LINE+1]]:1: error: --remat-autodiff: '@f' has no body
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rt.autodiff}
