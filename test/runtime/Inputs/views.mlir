// Attention's head transposes around batched matmuls, as PyTorch writes them: the
// [B,S,H,D] -> [B,H,S,D] transpose and the reshapes to [B*H,S,D] stay in the host as
// views that the matmul reads in place.
func.func @heads(%q: tensor<2x4x16xf32>, %k: tensor<2x4x16xf32>) -> tensor<4x4x4xf32> {
  %q4 = "rt.reshape"(%q) : (tensor<2x4x16xf32>) -> tensor<2x4x2x8xf32>
  %qt = "rt.transpose"(%q4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x2x8xf32>) -> tensor<2x2x4x8xf32>
  %q3 = "rt.reshape"(%qt) : (tensor<2x2x4x8xf32>) -> tensor<4x4x8xf32>
  %k4 = "rt.reshape"(%k) : (tensor<2x4x16xf32>) -> tensor<2x4x2x8xf32>
  %kt = "rt.transpose"(%k4) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x4x2x8xf32>) -> tensor<2x2x8x4xf32>
  %k3 = "rt.reshape"(%kt) : (tensor<2x2x8x4xf32>) -> tensor<4x8x4xf32>
  %s = "rt.matmul"(%q3, %k3) : (tensor<4x4x8xf32>, tensor<4x8x4xf32>) -> tensor<4x4x4xf32>
  return %s : tensor<4x4x4xf32>
}

// A view returned: the runtime copies it (--remat-fuse would make that copy a kernel).
func.func @returned(%q: tensor<2x4x16xf32>) -> tensor<2x2x4x8xf32> {
  %q4 = "rt.reshape"(%q) : (tensor<2x4x16xf32>) -> tensor<2x4x2x8xf32>
  %qt = "rt.transpose"(%q4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x4x2x8xf32>) -> tensor<2x2x4x8xf32>
  return %qt : tensor<2x2x4x8xf32>
}
