/* codegen.h: LLVM lowering of rt kernels and reductions (remat-translate, remat-run).
 *
 * Input: an MLIR module whose `func.func ... attributes {rt.kernel}` functions hold fusible
 * rt ops (what --remat-fuse outlines) and whose other functions may hold rt.sum / rt.amax.
 * Output: one LLVM module (own LLVMContext) for one target, holding
 *   - one function per kernel, named as the kernel;
 *   - one function per reduction op of a host function, named `<hostfn>_r<N>` (N: order
 *     among the reductions of that function, from 0); per indexing op `<hostfn>_i<N>`,
 *     per conv op `<hostfn>_c<N>`, per attention op `<hostfn>_a<N>` (see remat_cg_kind);
 *   - on the host only, a `<name>_packed` wrapper per function (see the ABI below).
 *
 * ABI (docs/design.md, "Fusion, codegen and PTX"; keep in step with lib/runtime):
 *   kernel parameters, in order: per kernel argument a tensor -> `ptr` to its dense
 *   row-major buffer (addrspace(1) on nvptx64), a scalar -> by value (f32 float, f64
 *   double, i64 i64, i32 i32, i1 i8 holding 0/1); then one `ptr` per kernel result
 *   (buffers the caller allocates). Every result has the iteration-space shape; element i
 *   of every result is computed for the row-major linear index i.
 *   host:    void name(params..., i64 begin, i64 end) computes elements [begin, end);
 *            void name_packed(void **args, i64 begin, i64 end): args[k] is, for a tensor
 *            parameter, the buffer pointer itself, for a scalar, a pointer to its value
 *            (float*, double*, int64_t*, int32_t*, uint8_t*).
 *   nvptx64: `.entry name(params...)` (PTX_Kernel calling convention), a grid-stride loop
 *            over [0, numel) using tid/ntid/ctaid/nctaid.x; any 1-D launch is correct.
 *   row kernels (a kernel holding rt.sum / rt.amax) and reductions of host functions
 *            (params: input ptr, output ptr): the iteration space is the rows (the kept
 *            shape K); begin/end on the host count rows; on nvptx64 a block of exactly
 *            REMAT_REDUCE_LANES threads per row (grid-stride over rows with ctaid.x;
 *            another block size traps). Results have the reductions' input shape S or K.
 *   reduction order (the same in lib/runtime/ops.c): the len elements of a row, in
 *            row-major order of the reduced dims, are dealt to REMAT_REDUCE_LANES lanes
 *            (lane t: init op e_t op e_{t+256} op ...), then combined as 8 warps of 32 do
 *            with shuffles: within a warp p[l] op= p[l+off] for off 16,8,4,2,1 (l < off),
 *            then across warps W[l] op= W[l+off] for off 4,2,1.
 *   storage: f32/f64 native, f16/bf16 as 16-bit patterns, i1 as one byte 0/1, i8/i32/i64
 *            native.
 *
 * Errors: a construct the codegen cannot lower (an op or type in a kernel) is a user error:
 * an MLIR diagnostic at the op's location and a NULL / -1 result. Internal errors (LLVM
 * verifier failures, missing targets) abort naming file and line.
 * Ownership: remat_codegen owns its LLVM context and module; strings returned by the
 * functions below are malloc'ed and freed by the caller. */
#ifndef REMAT_CODEGEN_H
#define REMAT_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "reduce_order.h" /* REMAT_REDUCE_LANES: the reduction order of the ABI above */

typedef enum remat_target {
  REMAT_TARGET_NVPTX64,
  REMAT_TARGET_HOST,
} remat_target;

typedef struct remat_codegen_options {
  remat_target target;
  int sm;        /* nvptx64: compute capability (90 -> sm_90, PTX ISA 8.0) */
  int opt_level; /* 0: the builder's IR as is; 3: libdevice linked, internalized, O3 */
  /* No `<fn>_c<N>` (conv) or `<fn>_a<N>` (attention) functions: remat-run's host JIT,
   * which runs those ops with the runtime's kernels (docs/design.md, "Convolution:
   * codegen", "Attention: codegen"). */
  bool skip_conv, skip_attention;
} remat_codegen_options;

/* One lowered function, for a runtime that launches it. */
/* REMAT_CG_INDEXING: an rt.gather / rt.scatter_add / rt.argmax of a host function,
 * `<hostfn>_i<N>` (N: order among that function's indexing ops): params the op's operands,
 * the result, then (gather, scatter_add) an error record tensor<3xi64> the caller zeroes:
 * {1, index, position in the indices} of an out-of-range index, the first in row-major
 * order on the host. Iterations: gather and argmax one per result element, scatter_add
 * one per position of the non-dim coordinates (docs/design.md, "Indexing ops").
 * REMAT_CG_CONV: an rt.conv / rt.conv_grad_input / rt.conv_grad_weight of a host function,
 * `<hostfn>_c<N>` (N: order among that function's conv ops): params the two operands and
 * the result; one iteration per result element, the reference's sum in its order
 * (docs/design.md, "Convolution: codegen").
 * REMAT_CG_ATTENTION: an rt.attention / rt.attention_grad of a host function, `<hostfn>_a<N>`
 * (N: order among that function's attention ops): params the operands (the seed and offset
 * i64 by value) and the results; iterations N Sq for the forward (a query row each), N Sq +
 * N Sk for the gradient (the query rows' dq, then the key rows' dk and dv), the reference's
 * order (docs/design.md, "Attention: codegen"). */
typedef enum remat_cg_kind {
  REMAT_CG_KERNEL,
  REMAT_CG_REDUCTION,
  REMAT_CG_INDEXING,
  REMAT_CG_CONV,
  REMAT_CG_ATTENTION
} remat_cg_kind;

typedef struct remat_cg_param {
  MlirType type;  /* tensor type or scalar type, as in the IR */
  bool is_output; /* a result buffer */
} remat_cg_param;

typedef struct remat_cg_function {
  char *name;
  remat_cg_kind kind;
  int64_t numel;        /* iterations: loop kernels their elements, row kernels rows */
  int64_t row_len;      /* row kernels and reductions: elements per row; 0 otherwise */
  MlirOperation source; /* the kernel func.func, or the rt.sum / rt.amax / indexing op */
  int num_params;
  remat_cg_param *params;
} remat_cg_function;

typedef struct remat_codegen remat_codegen;

/* Valid compute capabilities for --sm (75, 80, 86, 87, 89, 90, 100, 120, ...). */
bool remat_codegen_sm_is_valid(int sm);

/* Lowers every kernel and reduction of module (a builtin.module) and, for opt_level 3,
 * optimizes the LLVM module. NULL after emitting diagnostics on a user error. */
remat_codegen *remat_codegen_create(MlirOperation module, const remat_codegen_options *opts);
void remat_codegen_destroy(remat_codegen *cg);

/* The lowered functions, in module order (kernels and reductions interleaved as the
 * functions that hold them appear). */
int remat_codegen_num_functions(const remat_codegen *cg);
const remat_cg_function *remat_codegen_function(const remat_codegen *cg, int index);

/* How the outputs below compile: on jobs threads (0, the default: one per core), through
 * the on-disk cache in cache_dir (copied; NULL or "", the default: no cache). */
void remat_codegen_set_compile(remat_codegen *cg, int jobs, const char *cache_dir);

/* Outputs. Each function is lowered into a unit of its own (its own LLVM context); an
 * output optimizes and emits every unit, on `jobs` threads, and puts the results
 * together in function order, so the bytes do not depend on the number of threads. The
 * units are consumed: one of remat_codegen_llvm_ir, remat_codegen_ptx, remat_jit_create
 * per remat_codegen (the function list and the manifest stay available).
 * NULL with a message added to *err (remat_error_add) on failure (libdevice unreadable,
 * LLVM's code generator). */
/* LLVM IR text: the units linked into one module (in function order, each helper once),
 * then optimized as one, on the calling thread (a reading output). */
char *remat_codegen_llvm_ir(remat_codegen *cg, char **err);
/* PTX text (nvptx64 only): one header (.version, .target, .address_size), then every
 * unit's PTX; internal functions and globals of a unit are named `<entry>.<name>`. */
char *remat_codegen_ptx(remat_codegen *cg, char **err);

/* What the last output did: units compiled, threads used, cache results (corrupt: a
 * damaged entry found and rebuilt; counted among the misses). */
typedef struct remat_codegen_stats {
  int units, jobs;
  int cache_hits, cache_misses, cache_corrupt;
} remat_codegen_stats;
const remat_codegen_stats *remat_codegen_get_stats(const remat_codegen *cg);
/* The manifest: one line per function,
 *   `<kind> <name> numel=<N> in0:<type> ... out0:<type> ...`
 * kind `kernel`, `reduction`, `indexing`, `conv` or `attention`; types printed as MLIR types
 * (`tensor<2x2xf32>`, `i64`). */
char *remat_codegen_manifest(const remat_codegen *cg);

/* ---- host JIT (LLVM ORC LLJIT), for remat-run and the tests ------------------------- */

typedef struct remat_jit remat_jit;

/* JIT-compiles cg's units (host target only): each is compiled to a relocatable object
 * (on `jobs` threads, through the cache if any), and the objects are added to one
 * LLJIT in function order; this consumes the units (see above). libm functions the
 * kernels call are resolved to this process's libm. NULL with a message on failure. */
remat_jit *remat_jit_create(remat_codegen *cg, char **err);
/* Address of a JIT-compiled function by name (`name` or `name_packed`); NULL if absent. */
void *remat_jit_lookup(remat_jit *jit, const char *name);
void remat_jit_destroy(remat_jit *jit);

/* Signature of every `_packed` entry point. */
typedef void (*remat_packed_fn)(void **args, int64_t begin, int64_t end);

#endif
