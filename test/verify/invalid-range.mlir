// The semantic verifier on rt.range, the range [LO, HI) of an integer argument's values
// (docs/design.md, "Integer ranges"): array<i64: LO, HI>, LO < HI, an integer type other
// than i1 that holds LO and HI - 1. Each part between the separators is a module of its
// own; every error is expected at its line and nothing else is reported.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null
//
// Well-formed ranges print back unchanged, on tensors and scalars, with other attributes:
// RUN: remat-opt --split-input-file %S/Inputs/ranges.mlir | FileCheck %s
// CHECK: %arg0: tensor<4xi64> {rt.range = array<i64: 0, 10>}
// CHECK-SAME: %arg1: i32 {rt.buffer, rt.range = array<i64: -2147483648, 2147483647>}
// CHECK-SAME: %arg2: tensor<2xi8> {rt.range = array<i64: -128, 128>}

// expected-error @+1 {{'rt.range' [5, 5) of argument #0 of '@f' is empty}}
func.func @f(%i: tensor<4xi64> {rt.range = array<i64: 5, 5>}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' [10, 0) of argument #1 of '@f' is empty}}
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi64> {rt.range = array<i64: 10, 0>}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' of argument #0 of '@f': 'tensor<4xf32>' is not an integer type (i1 aside)}}
func.func @f(%x: tensor<4xf32> {rt.range = array<i64: 0, 10>}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' of argument #0 of '@f': 'tensor<4xi1>' is not an integer type (i1 aside)}}
func.func @f(%x: tensor<4xi1> {rt.range = array<i64: 0, 2>}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' of argument #0 of '@f' must be array<i64: LO, HI>}}
func.func @f(%x: tensor<4xi64> {rt.range = array<i64: 0, 1, 2>}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' of argument #0 of '@f' must be array<i64: LO, HI>}}
func.func @f(%x: tensor<4xi64> {rt.range = [0, 10]}) {
  return
}

// -----

// expected-error @+1 {{'rt.range' [0, 129) of argument #0 of '@f' exceeds the values of i8}}
func.func @f(%x: tensor<4xi8> {rt.range = array<i64: 0, 129>}) {
  return
}

// -----

// In a joint function too (checked before its rt.num_outputs):
// expected-error @+1 {{'rt.range' [-2147483649, 0) of argument #0 of '@j' exceeds the values of i32}}
func.func @j(%i: tensor<4xi32> {rt.range = array<i64: -2147483649, 0>}, %g: tensor<4xf32> {rt.tangent}) -> tensor<4xf32> attributes {rt.num_outputs = 0 : i64} {
  return %g : tensor<4xf32>
}
