/* codegen_internal.h: state shared by the files of lib/codegen (private).
 *
 * Values inside a kernel are produced lazily: cg_value_at(k, v, idx) emits the LLVM value
 * of MLIR value v at the row-major linear index idx of v's own shape (idx is ignored for
 * scalars). Structural ops rewrite the index; elementwise ops pass it through. Every
 * element is carried in its compute type: f32 for f32/f16/bf16 (a f16/bf16 value is an
 * f32 holding an exactly representable value, rounded after every op that produces it),
 * double for f64, iN for the integers and i1. Everything of one element is emitted into
 * one basic block (no branches), so results are memoized per (value, index). */
#ifndef REMAT_CODEGEN_INTERNAL_H
#define REMAT_CODEGEN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "llvm-c/Core.h"
#include "llvm-c/TargetMachine.h"
#include "mlir-c/IR.h"
#include "codegen.h"
#include "support.h"

/* The LLVM module of one unit (a kernel or a host reduction), with its own context: units
 * are built one after the other, then optimized and emitted on several threads. */
typedef struct cg_module {
  remat_target target;
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMTypeRef void_t, i1, i8, i16, i32, i64, f32, f64;
  LLVMTypeRef ptr; /* buffer pointers: addrspace(1) on nvptx64 */
  bool libdevice_linked;
  bool uses_libdevice;   /* calls a __nv_ function (known once the unit is built) */
  char *libdevice_calls; /* cg_libdevice_calls, or NULL */
} cg_module;

typedef struct cg_memo {
  const void *value; /* MlirValue.ptr */
  LLVMValueRef index, result;
} cg_memo;

/* The row structure of a kernel that holds reductions (or of a host reduction): every
 * reduction of it reads the input space S and reduces the same dims. A row is one
 * element of the kept shape K (the reductions' result shape); its len elements are the
 * reduced coordinates in row-major order. */
typedef struct cg_row {
  remat_shape s, kshape, rshape;                      /* S, kept dims K, reduced dims */
  bool reduced[RT_MAX_RANK];                          /* per dim of S */
  int64_t kstride[RT_MAX_RANK], rstride[RT_MAX_RANK]; /* strides in S of K's, R's dims */
  int64_t rows, len;                                  /* numel of K and of R */
} cg_row;

/* One kernel body being emitted. */
typedef struct cg_kernel {
  cg_module *m;
  LLVMValueRef fn;
  MlirBlock body;
  LLVMValueRef *params; /* per kernel argument */
  /* Values that are not block arguments but read from a buffer parameter (the input of
   * a host reduction). */
  MlirValue *ext;
  LLVMValueRef *ext_params;
  int num_ext;
  cg_memo *memo;
  int num_memo, cap_memo;
  /* Row kernels: the structure, the current row (an index of K) and, inside an element
   * loop, the current index of S. A reduction's result exists only at row_idx. */
  const cg_row *row;
  LLVMValueRef row_idx, s_idx;
  bool failed; /* a diagnostic was emitted */
} cg_kernel;

/* ---- codegen_types.c: element types, storage, conversions -------------------------- */
bool cg_is_float(MlirType elem); /* f16 bf16 f32 f64 */
bool cg_is_i1(MlirType elem);
bool cg_is_half(MlirType elem); /* f16 or bf16: computed in f32 */
LLVMTypeRef cg_compute_type(cg_module *m, MlirType elem);
LLVMValueRef cg_load(cg_module *m, MlirType elem, LLVMValueRef base, LLVMValueRef idx);
void cg_store(cg_module *m, MlirType elem, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v);
/* Rounds an f32 compute value to the precision of elem (f16/bf16); identity otherwise. */
LLVMValueRef cg_round(cg_module *m, MlirType elem, LLVMValueRef v);
/* rt.convert semantics from compute value v of element type `from` to `to`. */
LLVMValueRef cg_convert(cg_module *m, LLVMValueRef v, MlirType from, MlirType to);
/* An f64 constant of element type elem (rounded as convert from f64 would). */
LLVMValueRef cg_float_const(cg_module *m, MlirType elem, double value);
LLVMValueRef cg_int_const(cg_module *m, MlirType elem, int64_t value);
LLVMValueRef cg_i64(cg_module *m, int64_t v);
/* f32 <-> 16-bit patterns, round to nearest even (bit-identical to lib/numeric/half.c). */
LLVMValueRef cg_f32_to_f16_bits(cg_module *m, LLVMValueRef x);
LLVMValueRef cg_f16_bits_to_f32(cg_module *m, LLVMValueRef h);
LLVMValueRef cg_f32_to_bf16_bits(cg_module *m, LLVMValueRef x);
LLVMValueRef cg_bf16_bits_to_f32(cg_module *m, LLVMValueRef h);

/* ---- codegen_math.c: calls into intrinsics, libm and libdevice --------------------- */
LLVMValueRef cg_intrinsic(cg_module *m, const char *name, LLVMTypeRef overload, LLVMValueRef *args,
                          unsigned n);
/* A call of the float function NAME (a libm or libdevice symbol) on n arguments of one
 * float type, returning that type. */
LLVMValueRef cg_call_float(cg_module *m, const char *name, LLVMValueRef *args, unsigned n);
/* Integer power a^b (wrapping; b < 0: 1, +-1 or 0), through an internal helper. */
LLVMValueRef cg_ipow(cg_module *m, LLVMValueRef a, LLVMValueRef b);

/* ---- codegen_kernel.c: the value_at dispatcher and kernel bodies ------------------- */
LLVMValueRef cg_value_at(cg_kernel *k, MlirValue v, LLVMValueRef idx);
/* Emits one kernel function (signature, loop, stores). -1 on a user error. */
int cg_emit_kernel(cg_module *m, MlirOperation func, remat_cg_function *out);

/* ---- codegen_elementwise.c --------------------------------------------------------- */
/* Elementwise, compare, select, convert, full and arith scalar ops. NULL on user error
 * (diagnostic emitted). */
LLVMValueRef cg_elementwise(cg_kernel *k, MlirOperation op, LLVMValueRef idx);
LLVMValueRef cg_arith(cg_kernel *k, MlirOperation op);
bool cg_arith_supported(MlirOperation op);

/* ---- codegen_index.c: structural ops ----------------------------------------------- */
void cg_delinearize(cg_module *m, const remat_shape *s, LLVMValueRef idx, LLVMValueRef *coords);
LLVMValueRef cg_linearize(cg_module *m, const remat_shape *s, LLVMValueRef *coords);
LLVMValueRef cg_structural(cg_kernel *k, MlirOperation op, LLVMValueRef idx);

/* ---- codegen_philox.c -------------------------------------------------------------- */
LLVMValueRef cg_philox(cg_kernel *k, MlirOperation op, LLVMValueRef idx);
/* Element idx of rt.uniform_philox(seed, offset) {lo, hi} in f32 (i64 seed, offset, idx):
 * what cg_philox computes before rounding to f16/bf16. */
LLVMValueRef cg_philox_f32(cg_module *m, LLVMValueRef seed, LLVMValueRef offset, LLVMValueRef idx,
                           double lo, double hi);

/* ---- codegen_loop.c: the iteration loop of both targets ---------------------------- */
typedef struct cg_loop {
  LLVMBasicBlockRef header, exit;
  LLVMValueRef iv, step;
} cg_loop;
/* Opens the element loop of fn over [0, numel): the host takes (begin, end) from the
 * last two parameters, nvptx64 uses a grid-stride loop. The builder is left in the body
 * with l->iv the linear index. */
void cg_loop_open(cg_module *m, LLVMValueRef fn, int64_t numel, cg_loop *l);
/* nvptx64 row kernels: `for (r = ctaid.x; r < rows; r += nctaid.x)`, l->iv the row. */
void cg_loop_open_rows(cg_module *m, LLVMValueRef fn, int64_t rows, cg_loop *l);
/* Opens a serial loop over [0, n) on either target (one thread runs all of it). */
void cg_loop_open_serial(cg_module *m, LLVMValueRef fn, int64_t n, cg_loop *l);
/* The same over [begin, end), i64 values computed in the function. */
void cg_loop_open_between(cg_module *m, LLVMValueRef fn, LLVMValueRef begin, LLVMValueRef end,
                          cg_loop *l);
void cg_loop_close(cg_module *m, cg_loop *l);
/* The host `<name>_packed(void **args, i64 begin, i64 end)` wrapper. */
void cg_emit_packed(cg_module *m, LLVMValueRef fn, const remat_cg_function *f);

/* ---- codegen_row.c: reductions as a block per row ---------------------------------- */
/* The row structure of a reduction op (sum/amax over dims of its operand). */
cg_row cg_row_of(MlirOperation reduction);
bool cg_row_eq(const cg_row *a, const cg_row *b);
/* (Whether a broadcast reads its operand at the current row: rt_broadcast_row_aligned,
 * dialect-c/rt.h, the rule fusion shares.) */
/* Emits the body of a row kernel into k->fn (builder at the entry block): the loop over
 * rows, one phase per level of dependent reductions (a block-wide reduction in the fixed
 * order of docs/design.md), then the epilogue storing every output: outputs of shape K
 * once per row, outputs of shape S for each element of the row. kops: the kernel's ops of
 * shape K, evaluated once per row as soon as the reductions they read are complete. */
void cg_emit_rows(cg_kernel *k, const cg_row *row, MlirOperation *reds, int nred,
                  MlirOperation *kops, int nkops, MlirValue *outs, LLVMValueRef *out_params,
                  int nout);
/* A reduction of a host function as a function of its own: `name(in, out)`. */
int cg_emit_reduction(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out);
/* ---- codegen_indexing.c ------------------------------------------------------------ */
/* An rt.gather / rt.scatter_add / rt.argmax of a host function as a function of its
 * own (codegen.h, REMAT_CG_INDEXING). */
int cg_emit_indexing(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out);
/* The value of a reduction result inside a row kernel (its own row only). */
LLVMValueRef cg_reduction_at(cg_kernel *k, MlirValue v, LLVMValueRef idx);

/* ---- codegen_conv.c ---------------------------------------------------------------- */
/* An rt.conv / rt.conv_grad_input / rt.conv_grad_weight of a host function as a function
 * of its own (codegen.h, REMAT_CG_CONV). -1 on a user error. */
int cg_emit_conv(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out);

/* ---- codegen_attention.c ----------------------------------------------------------- */
/* An rt.attention / rt.attention_grad of a host function as a function of its own
 * (codegen.h, REMAT_CG_ATTENTION). -1 on a user error. */
int cg_emit_attention(cg_module *m, MlirOperation op, const char *name, remat_cg_function *out);

/* ---- codegen_target.c -------------------------------------------------------------- */
LLVMTargetMachineRef cg_target_machine(remat_target target, int sm);
/* The triple and data layout every module of this target gets (malloc'ed). */
void cg_target_strings(remat_target target, int sm, char **triple, char **layout);
/* "<cpu> <features>" of this machine (malloc'ed): what host code is compiled for. */
char *cg_host_cpu(void);
/* Whether m calls a libdevice (__nv_*) function. */
bool cg_uses_libdevice(cg_module *m);

/* libdevice's bitcode, read once per translation ($REMAT_LIBDEVICE or the CUDA
 * toolkit's) and parsed into each unit that calls it; digest: its BLAKE3 hash. */
typedef struct cg_libdevice {
  char *path, *bytes;
  size_t size;
  uint8_t digest[32];
} cg_libdevice;
int cg_libdevice_load(cg_libdevice *lib, char **err);
void cg_libdevice_free(cg_libdevice *lib);
/* The libdevice functions m declares, sorted, as "\n<name>\n<name>...\n" (malloc'ed);
 * NULL if none. */
char *cg_libdevice_calls(cg_module *m);
/* lib's bitcode parsed into ctx; NULL with a message. */
LLVMModuleRef cg_libdevice_parse(const cg_libdevice *lib, LLVMContextRef ctx, char **err);
/* *out: libdevice reduced to the functions in calls (cg_libdevice_calls) and what they
 * reach, from parsed (full's module); path and digest are full's. Parsing and linking
 * the whole of libdevice (hundreds of functions) into every unit would cost more than
 * compiling most kernels. */
void cg_libdevice_subset(const cg_libdevice *full, LLVMModuleRef parsed, const char *calls,
                         cg_libdevice *out);

/* opt_level 3: link libdevice if used (nvptx64), internalize all but the entry points,
 * O3. opt_level 0: nothing. -1 with a message if libdevice cannot be parsed. */
int cg_optimize(cg_module *m, int sm, int opt_level, const cg_libdevice *lib, char **err);

/* What a unit is compiled into. */
typedef enum cg_artifact {
  CG_ARTIFACT_PTX,    /* PTX text (nvptx64), internal symbols prefixed with the entry */
  CG_ARTIFACT_OBJECT, /* a relocatable object file of the host, position-independent */
} cg_artifact;
/* Emits m (after cg_optimize) as kind into *out (malloc'ed, NUL-terminated, *len bytes
 * without the NUL). PTX links libdevice first if still needed (-O0). -1 with a message. */
int cg_emit(cg_module *m, int sm, cg_artifact kind, const cg_libdevice *lib, const char *entry,
            char **out, size_t *len, char **err);

/* ---- codegen_parallel.c ------------------------------------------------------------ */
/* The number of online cores (at least 1): the default number of jobs. */
int cg_default_jobs(void);
/* Calls fn(ctx, i) for every i in [0, n), on min(jobs, n) threads (the caller's among
 * them); returns when all calls have returned. fn must not depend on the order. */
void cg_parallel_for(int n, int jobs, void (*fn)(void *ctx, int i), void *ctx);

/* ---- codegen_cache.c: content-addressed on-disk cache of compiled units ------------ */
typedef enum cg_cache_result { CG_CACHE_MISS, CG_CACHE_HIT, CG_CACHE_CORRUPT } cg_cache_result;
/* Looks key (any bytes: everything the artifact depends on) up in dir. HIT: *out holds
 * the artifact (malloc'ed, NUL-terminated). CORRUPT: an entry was there but damaged
 * (checksum, size or header); the caller rebuilds and stores it again. */
cg_cache_result cg_cache_get(const char *dir, const char *key, size_t key_len, char **out,
                             size_t *len);
/* Stores the artifact under key (atomically: a temporary file renamed). Best effort:
 * 0, or -1 if it could not be written (the compilation goes on). */
int cg_cache_put(const char *dir, const char *key, size_t key_len, const char *data, size_t len);

/* ---- codegen.c --------------------------------------------------------------------- */
/* Compiles cg's units into host objects for the JIT: (*objects)[i], (*lens)[i] bytes, for
 * function i (malloc'ed, the caller frees them and the arrays). -1 with a message. */
int cg_compile_objects(remat_codegen *cg, char ***objects, size_t **lens, char **err);

#endif
