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

/* The LLVM module being built. */
typedef struct cg_module {
  remat_target target;
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMTypeRef void_t, i1, i8, i16, i32, i64, f32, f64;
  LLVMTypeRef ptr; /* buffer pointers: addrspace(1) on nvptx64 */
  bool libdevice_linked;
} cg_module;

typedef struct cg_memo {
  const void *value; /* MlirValue.ptr */
  LLVMValueRef index, result;
} cg_memo;

/* One kernel body being emitted. */
typedef struct cg_kernel {
  cg_module *m;
  LLVMValueRef fn;
  MlirBlock body;
  LLVMValueRef *params; /* per kernel argument */
  cg_memo *memo;
  int num_memo, cap_memo;
  bool failed; /* a diagnostic was emitted */
} cg_kernel;

/* ---- codegen_types.c: element types, storage, conversions -------------------------- */
bool cg_is_float(MlirType elem);  /* f16 bf16 f32 f64 */
bool cg_is_i1(MlirType elem);
bool cg_is_half(MlirType elem);   /* f16 or bf16: computed in f32 */
LLVMTypeRef cg_compute_type(cg_module *m, MlirType elem);
LLVMValueRef cg_load(cg_module *m, MlirType elem, LLVMValueRef base, LLVMValueRef idx);
void cg_store(cg_module *m, MlirType elem, LLVMValueRef base, LLVMValueRef idx,
              LLVMValueRef v);
/* Rounds an f32 compute value to the precision of elem (f16/bf16); identity otherwise. */
LLVMValueRef cg_round(cg_module *m, MlirType elem, LLVMValueRef v);
/* rt.convert semantics from compute value v of element type `from` to `to`. */
LLVMValueRef cg_convert(cg_module *m, LLVMValueRef v, MlirType from, MlirType to);
/* An f64 constant of element type elem (rounded as convert from f64 would). */
LLVMValueRef cg_float_const(cg_module *m, MlirType elem, double value);
LLVMValueRef cg_int_const(cg_module *m, MlirType elem, int64_t value);
LLVMValueRef cg_i64(cg_module *m, int64_t v);
/* f32 <-> 16-bit patterns, round to nearest even (bit-identical to lib/half.c). */
LLVMValueRef cg_f32_to_f16_bits(cg_module *m, LLVMValueRef x);
LLVMValueRef cg_f16_bits_to_f32(cg_module *m, LLVMValueRef h);
LLVMValueRef cg_f32_to_bf16_bits(cg_module *m, LLVMValueRef x);
LLVMValueRef cg_bf16_bits_to_f32(cg_module *m, LLVMValueRef h);

/* ---- codegen_math.c: calls into intrinsics, libm and libdevice --------------------- */
LLVMValueRef cg_intrinsic(cg_module *m, const char *name, LLVMTypeRef overload,
                          LLVMValueRef *args, unsigned n);
/* A call of the float function NAME (a libm or libdevice symbol) on n arguments of one
 * float type, returning that type. */
LLVMValueRef cg_call_float(cg_module *m, const char *name, LLVMValueRef *args, unsigned n);
/* A float function by libm name ("powf", "pow", ...): libm on the host, libdevice
 * (__nv_<name>) on nvptx64. */
LLVMValueRef cg_libm(cg_module *m, const char *name, LLVMValueRef *args, unsigned n);
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

/* ---- codegen_loop.c: the iteration loop of both targets ---------------------------- */
typedef struct cg_loop {
  LLVMBasicBlockRef header, exit;
  LLVMValueRef iv, step;
} cg_loop;
/* Opens the element loop of fn over [0, numel): the host takes (begin, end) from the
 * last two parameters, nvptx64 uses a grid-stride loop. The builder is left in the body
 * with l->iv the linear index. */
void cg_loop_open(cg_module *m, LLVMValueRef fn, int64_t numel, cg_loop *l);
void cg_loop_close(cg_module *m, cg_loop *l);
/* The host `<name>_packed(void **args, i64 begin, i64 end)` wrapper. */
void cg_emit_packed(cg_module *m, LLVMValueRef fn, const remat_cg_function *f);

/* ---- codegen_reduce.c -------------------------------------------------------------- */
int cg_emit_reduction(cg_module *m, MlirOperation op, const char *name,
                      remat_cg_function *out);

/* ---- codegen_target.c -------------------------------------------------------------- */
LLVMTargetMachineRef cg_target_machine(remat_target target, int sm);
void cg_set_target(cg_module *m, int sm);
/* opt_level 3: link libdevice if used (nvptx64), internalize all but the entry points,
 * O3. opt_level 0: nothing. -1 with a message if libdevice cannot be read. */
int cg_optimize(cg_module *m, int sm, int opt_level, char *err, size_t cap);
/* PTX text (malloc'ed); links libdevice first if still needed. */
char *cg_emit_ptx(cg_module *m, int sm, char *err, size_t cap);

/* ---- codegen.c --------------------------------------------------------------------- */
/* Hands cg's LLVM context and module to the JIT (codegen_jit.c takes ownership). */
void cg_take_module(remat_codegen *cg, LLVMContextRef *ctx, LLVMModuleRef *mod);

#endif
