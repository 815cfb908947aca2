// reduction-ratio=N: a banned reduction whose operand holds at most N times its result's
// bytes may be recomputed (torch's min-cut: 4). Here a sum over a 2x512x1x1 activation
// (a batch norm's mean over a 1x1 image) shrinks it 2x: banned by default (the sum and
// exp are saved, 6144 bytes), recomputable from reduction-ratio=2 (exp alone is saved,
// and the backward sums it again); at reduction-ratio=1 it stays banned.
// RUN: remat-opt --remat-mincut=report=- %s 2>&1 >/dev/null | FileCheck %s --check-prefix=BAN
// RUN: remat-opt --remat-mincut=reduction-ratio=1,report=- %s 2>&1 >/dev/null | FileCheck %s --check-prefix=BAN
// RUN: remat-opt --remat-mincut=reduction-ratio=2 %s -o %t.split.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.split.mlir
// RUN: remat-run %s --values special --check-split f --split %t.split.mlir | FileCheck %s --check-prefix=SPLIT
// RUN: remat-opt --remat-mincut=reduction-ratio=4,report=- %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CHEAP
// RUN: not remat-opt --remat-mincut=reduction-ratio=-1 %s 2>&1 | FileCheck %s --check-prefix=NEG

// BAN:       rt.exp {{.*}} 4096  cut
// BAN-NEXT:  rt.sum {{.*}} 2048  cut
// BAN:       saved bytes: 6144

// CHEAP:     rt.exp {{.*}} 4096  cut
// CHEAP-NOT: rt.sum {{.*}}  cut
// CHEAP:     saved bytes: 4096

// IR-LABEL:  func.func @f_fwd
// IR:        %[[E:.*]] = "rt.exp"
// IR-NEXT:   %[[M:.*]] = "rt.sum"(%[[E]])
// IR-NEXT:   %[[Y:.*]] = "rt.mul"(%[[M]], %[[M]])
// IR-NEXT:   return %[[Y]], %[[E]] :
// IR-LABEL:  func.func @f_bwd
// IR:        "rt.sum"

// SPLIT: ok: 2 values bit-exact

// NEG: reduction-ratio must be >= 0, got -1

func.func @f(%x: tensor<2x512x1x1xf32>, %g: tensor<512xf32> {rt.tangent}) -> (tensor<512xf32>, tensor<2x512x1x1xf32>) attributes {rt.num_outputs = 1 : i64} {
  %e = "rt.exp"(%x) : (tensor<2x512x1x1xf32>) -> tensor<2x512x1x1xf32>
  %m = "rt.sum"(%e) {dims = array<i64: 0, 2, 3>} : (tensor<2x512x1x1xf32>) -> tensor<512xf32>
  %y = "rt.mul"(%m, %m) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %gm = "rt.mul"(%g, %m) : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %gb = "rt.broadcast"(%gm) {dims = array<i64: 1>} : (tensor<512xf32>) -> tensor<2x512x1x1xf32>
  %gx = "rt.mul"(%gb, %e) : (tensor<2x512x1x1xf32>, tensor<2x512x1x1xf32>) -> tensor<2x512x1x1xf32>
  return %y, %gx : tensor<512xf32>, tensor<2x512x1x1xf32>
}
