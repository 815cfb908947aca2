// Fuzzing found: --remat-checkpoint=ac=auto on a joint function whose recomputable
// forward values weigh 0 bytes (a zero-size dim) made the stage size 0; the stage walk
// never advanced and wrote past its stages array (heap overflow, SIGSEGV). A forward with
// no recomputable bytes is now one stage (docs/design.md, "Stages").
// RUN: remat-opt --remat-checkpoint=ac=auto,save-ops=none --remat-report %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: remat-opt --remat-checkpoint=ac=auto,save-ops=none %s | FileCheck %s
// RUN: remat-opt --remat-checkpoint=ac=auto,save-ops=none --remat-mincut %s | FileCheck %s --check-prefix=SPLIT

// REPORT: stages: 1 of 0 GiB
// REPORT: stage 1: 2 ops, 0 bytes; point rt.tanh checkpoint-zero-bytes.mlir:{{[0-9]+}}:8, 0 bytes live
// CHECK-LABEL: func.func @f
// CHECK: "rt.exp"{{.*}}rt.ac_region = 1 : i64{{.*}}rt.policy = "prefer_recompute"
// CHECK: "rt.tanh"{{.*}}rt.ac_region = 1 : i64{{.*}}rt.policy = "prefer_recompute"
// SPLIT-LABEL: func.func @f_fwd
// SPLIT-SAME: rt.saved_bytes = 0
// SPLIT-LABEL: func.func @f_bwd
func.func @f(%x: tensor<0x4xf32>, %dy: tensor<0x4xf32> {rt.tangent}) -> (tensor<0x4xf32>, tensor<0x4xf32>) attributes {rt.num_outputs = 1 : i64} {
  %0 = "rt.exp"(%x) : (tensor<0x4xf32>) -> tensor<0x4xf32>
  %1 = "rt.tanh"(%0) : (tensor<0x4xf32>) -> tensor<0x4xf32>
  %2 = "rt.mul"(%dy, %1) : (tensor<0x4xf32>, tensor<0x4xf32>) -> tensor<0x4xf32>
  return %1, %2 : tensor<0x4xf32>, tensor<0x4xf32>
}
