// The save list: six matmuls in the forward (z_i = matmul(a_{i-1}, w_i), a_i = z_i * z_i).
// Default save-ops=mm (rank-2 rt.matmul), save-every=2: matmuls 1, 3, 5 must_save, 2, 4, 6
// prefer_recompute (matmuls of the backward, which depend on %g, are not counted).
// save-every=3: matmuls 1 and 4 saved. A list of two ops shares one counter in forward
// order: with rt.matmul,rt.mul and save-every=4 the sequence z1 a1 z2 a2 z3 a3 ... saves
// the 1st, 5th and 9th: z1, z3, z5.
//
// RUN: remat-opt --remat-checkpoint %s | FileCheck %s --check-prefix=TWO
// RUN: remat-opt --remat-checkpoint=save-every=3 %s | FileCheck %s --check-prefix=THREE
// RUN: remat-opt --remat-checkpoint=save-ops=rt.matmul,rt.mul,save-every=4 %s | FileCheck %s --check-prefix=LIST
// RUN: remat-opt --remat-checkpoint=save-ops=none %s | FileCheck %s --check-prefix=NONE
//
// Then the min-cut: the backward reads every z_i. The saved matmuls are forward results
// the backward gets; the others (prefer_recompute, which lifts the min-cut's ban on
// recomputing matmuls, as in PyTorch's partitioner) run again in the backward, from the
// saved z before them: a_{i-1} = z_{i-1}^2, z_i = matmul(a_{i-1}, w_i).
// RUN: remat-opt --remat-checkpoint --remat-mincut %s | FileCheck %s --check-prefix=TWO-SPLIT
// RUN: remat-opt --remat-checkpoint=save-every=3 --remat-mincut %s | FileCheck %s --check-prefix=THREE-SPLIT

// TWO-SPLIT-LABEL: func.func @six_fwd(
// TWO-SPLIT: %0 = "rt.matmul"(%arg0, %arg1)
// TWO-SPLIT: %4 = "rt.matmul"(%3, %arg3)
// TWO-SPLIT: %8 = "rt.matmul"(%7, %arg5)
// TWO-SPLIT: return %11, %arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %0, %4, %8 :
// TWO-SPLIT-LABEL: func.func @six_bwd(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32> {rt.param}, %arg2: tensor<16x16xf32> {rt.param}, %arg3: tensor<16x16xf32> {rt.param}, %arg4: tensor<16x16xf32> {rt.param}, %arg5: tensor<16x16xf32> {rt.param}, %arg6: tensor<8x16xf32>, %arg7: tensor<8x16xf32>, %arg8: tensor<8x16xf32>, %arg9: tensor<8x16xf32> {rt.tangent})
// Each layer is recomputed just before the backward reaches it (last layer first):
// TWO-SPLIT-NEXT: %0 = "rt.mul"(%arg8, %arg8)
// TWO-SPLIT-NEXT: %1 = "rt.matmul"(%0, %arg5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// TWO-SPLIT-NEXT: %2 = "rt.mul"(%arg9, %1)
// TWO-SPLIT: %11 = "rt.transpose"(%10)
// TWO-SPLIT-NEXT: %12 = "rt.mul"(%arg7, %arg7)
// TWO-SPLIT-NEXT: %13 = "rt.matmul"(%12, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// TWO-SPLIT-NEXT: %14 = "rt.mul"(%13, %13)
// TWO-SPLIT-NEXT: %15 = "rt.matmul"(%11, %14)
// TWO-SPLIT: %28 = "rt.transpose"(%27)
// TWO-SPLIT-NEXT: %29 = "rt.mul"(%arg6, %arg6)
// TWO-SPLIT-NEXT: %30 = "rt.matmul"(%29, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"}
// TWO-SPLIT-NEXT: %31 = "rt.mul"(%30, %30)
// TWO-SPLIT-NEXT: %32 = "rt.matmul"(%28, %31)
// TWO-SPLIT-NOT: rt.ac_reason

// THREE-SPLIT-LABEL: func.func @six_fwd(
// THREE-SPLIT: return %11, %arg0, %arg2, %arg3, %arg4, %arg5, %arg6, %0, %6 :
// THREE-SPLIT-LABEL: func.func @six_bwd(
// THREE-SPLIT-NEXT: %0 = "rt.mul"(%arg7, %arg7)
// THREE-SPLIT-NEXT: %1 = "rt.matmul"(%0, %arg4) {{.*}}"prefer_recompute"
// THREE-SPLIT-NEXT: %2 = "rt.mul"(%1, %1)
// THREE-SPLIT-NEXT: %3 = "rt.matmul"(%2, %arg5) {{.*}}"prefer_recompute"
// THREE-SPLIT-NEXT: %4 = "rt.mul"(%arg8, %3)
// THREE-SPLIT: %20 = "rt.transpose"(%19)
// THREE-SPLIT-NEXT: %21 = "rt.mul"(%arg6, %arg6)
// THREE-SPLIT-NEXT: %22 = "rt.matmul"(%21, %arg1) {{.*}}"prefer_recompute"
// THREE-SPLIT-NEXT: %23 = "rt.mul"(%22, %22)
// THREE-SPLIT-NEXT: %24 = "rt.matmul"(%23, %arg2) {{.*}}"prefer_recompute"
// THREE-SPLIT-NEXT: %25 = "rt.mul"(%24, %24)
// THREE-SPLIT-NEXT: %26 = "rt.matmul"(%20, %25)
// THREE-SPLIT-NOT: rt.ac_reason

// TWO-LABEL: func.func @six(
// TWO-NEXT: %cst = arith.constant 2.000000e+00 : f32
// TWO-NEXT: %0 = "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %1 = "rt.mul"(%0, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %2 = "rt.matmul"(%1, %arg2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %3 = "rt.mul"(%2, %2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %4 = "rt.matmul"(%3, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %5 = "rt.mul"(%4, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %6 = "rt.matmul"(%5, %arg4) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %7 = "rt.mul"(%6, %6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %8 = "rt.matmul"(%7, %arg5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %9 = "rt.mul"(%8, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %10 = "rt.matmul"(%9, %arg6) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %11 = "rt.mul"(%10, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %12 = "rt.mul"(%arg7, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %13 = "rt.mul"(%12, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %14 = "rt.transpose"(%13) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %15 = "rt.matmul"(%14, %9) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %16 = "rt.transpose"(%15) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %17 = "rt.matmul"(%arg6, %14) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %18 = "rt.transpose"(%17) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %19 = "rt.mul"(%18, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %20 = "rt.mul"(%19, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %21 = "rt.transpose"(%20) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %22 = "rt.matmul"(%21, %7) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %24 = "rt.matmul"(%arg5, %21) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %25 = "rt.transpose"(%24) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %26 = "rt.mul"(%25, %6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %27 = "rt.mul"(%26, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %28 = "rt.transpose"(%27) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %29 = "rt.matmul"(%28, %5) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %30 = "rt.transpose"(%29) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %31 = "rt.matmul"(%arg4, %28) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %32 = "rt.transpose"(%31) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %33 = "rt.mul"(%32, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %34 = "rt.mul"(%33, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %35 = "rt.transpose"(%34) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %36 = "rt.matmul"(%35, %3) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %37 = "rt.transpose"(%36) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %38 = "rt.matmul"(%arg3, %35) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %39 = "rt.transpose"(%38) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %40 = "rt.mul"(%39, %2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %41 = "rt.mul"(%40, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %42 = "rt.transpose"(%41) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %43 = "rt.matmul"(%42, %1) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %44 = "rt.transpose"(%43) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %45 = "rt.matmul"(%arg2, %42) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %46 = "rt.transpose"(%45) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %47 = "rt.mul"(%46, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// TWO-NEXT: %48 = "rt.mul"(%47, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// TWO-NEXT: %49 = "rt.transpose"(%48) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// TWO-NEXT: %50 = "rt.matmul"(%49, %arg0) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: %51 = "rt.transpose"(%50) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// TWO-NEXT: return %11, %51, %44, %37, %30, %23, %16 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>

// THREE-LABEL: func.func @six(
// THREE-NEXT: %cst = arith.constant 2.000000e+00 : f32
// THREE-NEXT: %0 = "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %1 = "rt.mul"(%0, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %2 = "rt.matmul"(%1, %arg2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %3 = "rt.mul"(%2, %2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %4 = "rt.matmul"(%3, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %5 = "rt.mul"(%4, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %6 = "rt.matmul"(%5, %arg4) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %7 = "rt.mul"(%6, %6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %8 = "rt.matmul"(%7, %arg5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %9 = "rt.mul"(%8, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %10 = "rt.matmul"(%9, %arg6) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %11 = "rt.mul"(%10, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %12 = "rt.mul"(%arg7, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %13 = "rt.mul"(%12, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %14 = "rt.transpose"(%13) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %15 = "rt.matmul"(%14, %9) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %16 = "rt.transpose"(%15) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %17 = "rt.matmul"(%arg6, %14) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %18 = "rt.transpose"(%17) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %19 = "rt.mul"(%18, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %20 = "rt.mul"(%19, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %21 = "rt.transpose"(%20) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %22 = "rt.matmul"(%21, %7) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %24 = "rt.matmul"(%arg5, %21) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %25 = "rt.transpose"(%24) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %26 = "rt.mul"(%25, %6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %27 = "rt.mul"(%26, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %28 = "rt.transpose"(%27) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %29 = "rt.matmul"(%28, %5) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %30 = "rt.transpose"(%29) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %31 = "rt.matmul"(%arg4, %28) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %32 = "rt.transpose"(%31) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %33 = "rt.mul"(%32, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %34 = "rt.mul"(%33, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %35 = "rt.transpose"(%34) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %36 = "rt.matmul"(%35, %3) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %37 = "rt.transpose"(%36) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %38 = "rt.matmul"(%arg3, %35) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %39 = "rt.transpose"(%38) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %40 = "rt.mul"(%39, %2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %41 = "rt.mul"(%40, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %42 = "rt.transpose"(%41) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %43 = "rt.matmul"(%42, %1) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %44 = "rt.transpose"(%43) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %45 = "rt.matmul"(%arg2, %42) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %46 = "rt.transpose"(%45) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %47 = "rt.mul"(%46, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// THREE-NEXT: %48 = "rt.mul"(%47, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// THREE-NEXT: %49 = "rt.transpose"(%48) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// THREE-NEXT: %50 = "rt.matmul"(%49, %arg0) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: %51 = "rt.transpose"(%50) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// THREE-NEXT: return %11, %51, %44, %37, %30, %23, %16 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>

// LIST-LABEL: func.func @six(
// LIST-NEXT: %cst = arith.constant 2.000000e+00 : f32
// LIST-NEXT: %0 = "rt.matmul"(%arg0, %arg1) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %1 = "rt.mul"(%0, %0) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %2 = "rt.matmul"(%1, %arg2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %3 = "rt.mul"(%2, %2) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %4 = "rt.matmul"(%3, %arg3) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %5 = "rt.mul"(%4, %4) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %6 = "rt.matmul"(%5, %arg4) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %7 = "rt.mul"(%6, %6) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %8 = "rt.matmul"(%7, %arg5) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "must_save"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %9 = "rt.mul"(%8, %8) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %10 = "rt.matmul"(%9, %arg6) {rt.ac_reason = "save-ops", rt.ac_region = 0 : i64, rt.policy = "prefer_recompute"} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// a6, the forward output, is forward-only (the backward reads z6, not a6): not counted, not
// tagged (AutoParallel counts only ops at a finite distance from the backward).
// LIST-NEXT: %11 = "rt.mul"(%10, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %12 = "rt.mul"(%arg7, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %13 = "rt.mul"(%12, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %14 = "rt.transpose"(%13) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %15 = "rt.matmul"(%14, %9) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %16 = "rt.transpose"(%15) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %17 = "rt.matmul"(%arg6, %14) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %18 = "rt.transpose"(%17) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %19 = "rt.mul"(%18, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %20 = "rt.mul"(%19, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %21 = "rt.transpose"(%20) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %22 = "rt.matmul"(%21, %7) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %23 = "rt.transpose"(%22) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %24 = "rt.matmul"(%arg5, %21) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %25 = "rt.transpose"(%24) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %26 = "rt.mul"(%25, %6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %27 = "rt.mul"(%26, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %28 = "rt.transpose"(%27) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %29 = "rt.matmul"(%28, %5) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %30 = "rt.transpose"(%29) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %31 = "rt.matmul"(%arg4, %28) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %32 = "rt.transpose"(%31) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %33 = "rt.mul"(%32, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %34 = "rt.mul"(%33, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %35 = "rt.transpose"(%34) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %36 = "rt.matmul"(%35, %3) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %37 = "rt.transpose"(%36) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %38 = "rt.matmul"(%arg3, %35) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %39 = "rt.transpose"(%38) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %40 = "rt.mul"(%39, %2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %41 = "rt.mul"(%40, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %42 = "rt.transpose"(%41) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %43 = "rt.matmul"(%42, %1) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %44 = "rt.transpose"(%43) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %45 = "rt.matmul"(%arg2, %42) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %46 = "rt.transpose"(%45) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %47 = "rt.mul"(%46, %0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// LIST-NEXT: %48 = "rt.mul"(%47, %cst) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
// LIST-NEXT: %49 = "rt.transpose"(%48) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// LIST-NEXT: %50 = "rt.matmul"(%49, %arg0) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: %51 = "rt.transpose"(%50) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
// LIST-NEXT: return %11, %51, %44, %37, %30, %23, %16 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>

// NONE-NOT: rt.policy

func.func @six(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32> {rt.param}, %w2: tensor<16x16xf32> {rt.param}, %w3: tensor<16x16xf32> {rt.param}, %w4: tensor<16x16xf32> {rt.param}, %w5: tensor<16x16xf32> {rt.param}, %w6: tensor<16x16xf32> {rt.param}, %g: tensor<8x16xf32> {rt.tangent})
    -> (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) attributes {rt.num_outputs = 1 : i64} {
  %two = arith.constant 2.000000e+00 : f32
  %z1 = "rt.matmul"(%x, %w1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a1 = "rt.mul"(%z1, %z1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z2 = "rt.matmul"(%a1, %w2) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a2 = "rt.mul"(%z2, %z2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z3 = "rt.matmul"(%a2, %w3) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a3 = "rt.mul"(%z3, %z3) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z4 = "rt.matmul"(%a3, %w4) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a4 = "rt.mul"(%z4, %z4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z5 = "rt.matmul"(%a4, %w5) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a5 = "rt.mul"(%z5, %z5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %z6 = "rt.matmul"(%a5, %w6) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a6 = "rt.mul"(%z6, %z6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  // backward: da/dz = 2 z, so it needs every z_i and (for dW_i) every a_{i-1}
  %q6 = "rt.mul"(%g, %z6) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz6 = "rt.mul"(%q6, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt6 = "rt.transpose"(%dz6) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m6 = "rt.matmul"(%dzt6, %a5) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw6 = "rt.transpose"(%m6) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dat5 = "rt.matmul"(%w6, %dzt6) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %da5 = "rt.transpose"(%dat5) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %q5 = "rt.mul"(%da5, %z5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz5 = "rt.mul"(%q5, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt5 = "rt.transpose"(%dz5) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m5 = "rt.matmul"(%dzt5, %a4) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw5 = "rt.transpose"(%m5) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dat4 = "rt.matmul"(%w5, %dzt5) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %da4 = "rt.transpose"(%dat4) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %q4 = "rt.mul"(%da4, %z4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz4 = "rt.mul"(%q4, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt4 = "rt.transpose"(%dz4) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m4 = "rt.matmul"(%dzt4, %a3) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw4 = "rt.transpose"(%m4) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dat3 = "rt.matmul"(%w4, %dzt4) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %da3 = "rt.transpose"(%dat3) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %q3 = "rt.mul"(%da3, %z3) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz3 = "rt.mul"(%q3, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt3 = "rt.transpose"(%dz3) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m3 = "rt.matmul"(%dzt3, %a2) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw3 = "rt.transpose"(%m3) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dat2 = "rt.matmul"(%w3, %dzt3) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %da2 = "rt.transpose"(%dat2) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %q2 = "rt.mul"(%da2, %z2) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz2 = "rt.mul"(%q2, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt2 = "rt.transpose"(%dz2) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m2 = "rt.matmul"(%dzt2, %a1) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw2 = "rt.transpose"(%m2) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dat1 = "rt.matmul"(%w2, %dzt2) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %da1 = "rt.transpose"(%dat1) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %q1 = "rt.mul"(%da1, %z1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dz1 = "rt.mul"(%q1, %two) : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  %dzt1 = "rt.transpose"(%dz1) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m1 = "rt.matmul"(%dzt1, %x) : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %dw1 = "rt.transpose"(%m1) {perm = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %a6, %dw1, %dw2, %dw3, %dw4, %dw5, %dw6 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
