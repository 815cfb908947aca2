// The IRDL definition loads into upstream mlir-opt, which then parses every rt op and the
// bundled example; remat-opt prints the same IR.
// RUN: mlir-opt --irdl-file=%rt_irdl %S/roundtrip.mlir | FileCheck %S/roundtrip.mlir
// RUN: mlir-opt --irdl-file=%rt_irdl %examples/dropout.mlir > %t.upstream
// RUN: remat-opt %examples/dropout.mlir > %t.remat
// RUN: diff %t.upstream %t.remat
// RUN: mlir-opt --irdl-file=%rt_irdl %examples/dropout.mlir | FileCheck %s
// CHECK: "rt.uniform_philox"(%arg1, %arg2) {hi = 1.000000e+00 : f64, lo = 0.000000e+00 : f64} : (i64, i64) -> tensor<2x2xf32>
