/* cuda_exec.h: the CUDA backend, an executor (executor.h) that runs the functions of an rt
 * module on an NVIDIA GPU.
 *
 * Kernels and reductions are lowered by lib/codegen to PTX for the device's compute
 * capability (what remat-translate --emit=ptx writes), loaded with cuModuleLoadData and
 * launched with cuLaunchKernel; rt.matmul of f32/f16/bf16/f64 runs through cuBLAS
 * (cublasGemmEx / cublasGemmStridedBatchedEx, f32 compute for the 32- and 16-bit types,
 * transpose_a / transpose_b as transa / transb); rt.reshape, rt.wait and slices that are
 * runs of whole rows alias the device buffer of their operand; the remaining ops run on
 * the host (the interpreter's op, on copies of its operands): the documented host
 * fallbacks (docs/design.md, "CUDA backend"). Elementwise, structural and random ops
 * outside kernels (unfused functions) run as one-op kernels. Scalars stay on the host and
 * are passed to kernels by value.
 *
 * The driver (libcuda.so.1, or $REMAT_LIBCUDA) and cuBLAS (libcublas.so.<major>, or
 * $REMAT_LIBCUBLAS, else the toolkit's lib64 found at configure time) are loaded with
 * dlopen when an executor is created: nothing links them, so every binary runs on a
 * machine without a driver and rtr_cuda_create fails there with a message. The file is
 * compiled only where the toolkit's headers are (REMAT_HAVE_CUDA).
 *
 * The launch configuration, the argument packing, the cuBLAS operand mapping and the
 * view rules are pure functions below, and the whole executor runs on a table of driver
 * functions that a test can fill with a fake (rtr_cuda_api, when <cuda.h> is included
 * first): test/unit/cuda_exec_test.c checks all of it without a GPU. */
#ifndef REMAT_RUNTIME_CUDA_EXEC_H
#define REMAT_RUNTIME_CUDA_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "buffer.h"
#include "executor.h"

typedef struct rtr_cuda_options {
  int device;        /* ordinal (0) */
  int sm;            /* PTX target; 0: the device's compute capability (at most the
                      * newest the codegen knows: PTX is JIT-compiled for newer GPUs) */
  int opt_level;     /* codegen optimization, 0 or 3 */
  bool profile;      /* time every launch with CUDA events (rtr_exec_stat.ms) */
  bool probe_random; /* report each random tensor a kernel draws to the observer */
} rtr_cuda_options;

/* An executor for MODULE on the GPU. NULL with a message added to *err (remat_error_add)
 * when there is no driver, no device, or the module cannot be lowered (then also located
 * diagnostics). */
rtr_executor *rtr_cuda_create(MlirOperation module, const rtr_cuda_options *opts, char **err);

/* One line describing the device (name, compute capability, SMs, memory, peak memory
 * bandwidth from its clock and bus width) in OUT[OUT_CAP]; -1 and a message added to *err
 * as rtr_cuda_create. */
int rtr_cuda_describe(int device, char *out, size_t out_cap, char **err);

/* Device memory of an executor (tests and reports). */
typedef struct rtr_cuda_memory {
  int64_t live_bytes, peak_bytes; /* allocated now, most at once */
  long allocs, frees;
} rtr_cuda_memory;
rtr_cuda_memory rtr_cuda_memory_stats(rtr_executor *e);
/* Peak memory bandwidth of the device in GB/s (2 x memory clock x bus width; 0 if the
 * driver does not say). */
double rtr_cuda_peak_gbs(rtr_executor *e);

/* ---- host-side logic, pure (unit-tested without a GPU) ------------------------------ */

/* Threads per block of an elementwise kernel's grid-stride loop, and the cap on blocks
 * per SM (the grid-stride loop makes any grid correct: more blocks than this only add
 * scheduling; NVIDIA's grid-stride guidance). */
enum { RTR_CUDA_BLOCK = 256, RTR_CUDA_BLOCKS_PER_SM = 32 };

typedef struct rtr_cuda_launch {
  unsigned grid, block; /* 1-D; grid 0: nothing to launch */
} rtr_cuda_launch;

/* ITERATIONS elements of a loop kernel, or rows of a row kernel / reduction (ROWS: one
 * block of REMAT_REDUCE_LANES threads per row, the codegen's contract), on SM_COUNT SMs. */
rtr_cuda_launch rtr_cuda_launch_config(bool rows, int64_t iterations, int sm_count);

/* rt.matmul C[b] = op(A[b]) op(B[b]) of row-major buffers as one cuBLAS (column-major)
 * call: C^T = op(B)^T op(A)^T, so cuBLAS's first operand X is B's buffer and its second
 * Y is A's. A transposed operand (transpose_a/_b: stored with its last two dims swapped)
 * flips its trans flag. */
typedef struct rtr_cuda_gemm {
  bool trans_x, trans_y;                /* cuBLAS transa (X = B's buffer), transb (Y = A's) */
  int64_t m, n, k;                      /* cuBLAS m = N, n = M, k = K */
  int64_t ldx, ldy, ldc;                /* leading dimensions (at least 1) */
  int64_t stride_x, stride_y, stride_c; /* elements between batches */
  int64_t batch;
} rtr_cuda_gemm;
rtr_cuda_gemm rtr_cuda_gemm_config(int64_t batch, int64_t M, int64_t N, int64_t K, bool ta,
                                   bool tb);

/* rt.slice {start, limit, stride} of a dense row-major DIMS buffer: true when the slice
 * is itself dense in the operand's buffer (a run of whole trailing rows), with *first the
 * operand index of its first element: then it is an alias at that offset. */
bool rtr_cuda_slice_is_view(int rank, const int64_t *dims, const int64_t *start,
                            const int64_t *limit, const int64_t *stride, int64_t *first);

/* One kernel parameter: a tensor's device address or a scalar's value. */
typedef struct rtr_cuda_arg {
  const rtr_buffer *type; /* element type, shape, scalar-ness; a scalar's value in data */
  uint64_t dptr;          /* tensors: device address */
} rtr_cuda_arg;

/* cuLaunchKernel's kernelParams for ARGS (kernel arguments, then result buffers) against
 * the kernel's parameter types PARAMS (remat_cg_param.type, MlirType): SLOTS[k] receives
 * the device address or the scalar's bytes in its own width (i1 one byte, as the ABI
 * says), PARAMS_OUT[k] points at SLOTS[k]. -1 with a message when the count, a kind or a
 * type differs from the kernel's. */
int rtr_cuda_pack_params(const MlirType *param_types, int num_params, const rtr_cuda_arg *args,
                         int nargs, uint64_t *slots, void **params_out, char **err);

/* The probe module of MODULE: for each rt.uniform_philox inside an rt.kernel function, in
 * module order, a kernel `@remat_probe_<N>(i64 seed, i64 offset) -> <its type>` drawing
 * the same tensor alone. NULL when there is none. Caller frees. */
char *rtr_cuda_probe_module_text(MlirOperation module);

/* Host-level rt ops the backend runs as one-op kernels: every elementwise, compare,
 * structural and random op outside rt.kernel functions with one tensor result and
 * operands of the kernel ABI, except the views it aliases. Returns a module of kernels
 * `@remat_op_<N>` (operands) -> result, each computing a clone of (*ops)[N] (the ops of
 * MODULE, *count of them, in module order; caller frees *ops and destroys the module),
 * or a null module when there is none. */
MlirModule rtr_cuda_op_kernel_module(MlirOperation module, MlirOperation **ops, int *count);

/* ---- the driver table (only when <cuda.h> and <cublas_v2.h> are included first) ----- */
#if defined(CUDA_VERSION) && defined(CUBLAS_VER_MAJOR)
/* The driver and cuBLAS functions the backend calls; names expand as <cuda.h> defines
 * them (cuMemAlloc is cuMemAlloc_v2), which is also the symbol dlsym looks up. */
// X-macro rows laid out by hand: clang-format 14 does not settle on them.
// clang-format off
#define RTR_CUDA_DRIVER_FNS(X)                                                              \
  X(cuInit) X(cuGetErrorName) X(cuGetErrorString) X(cuDriverGetVersion) X(cuDeviceGetCount) \
  X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)              \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)               \
  X(cuCtxSynchronize) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)          \
  X(cuLaunchKernel) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH)              \
  X(cuMemsetD8) X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize)                     \
  X(cuEventElapsedTime) X(cuEventDestroy)
// clang-format on
// X-macro rows laid out by hand: clang-format 14 does not settle on them.
// clang-format off
#define RTR_CUBLAS_FNS(X)                                                                   \
  X(cublasCreate) X(cublasDestroy) X(cublasSetMathMode) X(cublasGemmEx)                     \
  X(cublasGemmStridedBatchedEx) X(cublasGetStatusString)
// clang-format on

#define RTR_CUDA_API_MEMBER(f) __typeof__(f) *f;
typedef struct rtr_cuda_api {
  RTR_CUDA_DRIVER_FNS(RTR_CUDA_API_MEMBER)
  RTR_CUBLAS_FNS(RTR_CUDA_API_MEMBER)
} rtr_cuda_api;
#undef RTR_CUDA_API_MEMBER

/* rtr_cuda_create on API (borrowed; outlives the executor) instead of the libraries. */
rtr_executor *rtr_cuda_create_with_api(MlirOperation module, const rtr_cuda_options *opts,
                                       const rtr_cuda_api *api, char **err);
#endif

#endif
