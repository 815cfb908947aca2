/* interp.h: runs a func.func of an rt module on dense buffers.
 *
 * The reference interpreter executes every op of the function's entry block in order:
 * rt ops, the arith ops on scalars and tensors (constant, addf/subf/mulf/divf/remf/negf,
 * maximumf/minimumf, addi/subi/muli/divsi/remsi/andi/ori/xori/maxsi/minsi, extf/truncf,
 * sitofp/uitofp/fptosi, extsi/extui/trunci, index_cast, cmpf/cmpi, select) and
 * func.call / func.return. The semantics of each op are those of runtime/ops.h.
 *
 * The compiled path (runtime/compiled.h) reuses this walk for host functions and hands
 * calls to rt.kernel functions to compiled code through rtr_interp_options.call_kernel.
 *
 * Errors in the program or its inputs (an unsupported op, a wrong argument count or type,
 * recursion) are emitted as MLIR diagnostics at the op's or the function's location and
 * the call returns -1; nothing is returned then. */
#ifndef REMAT_RUNTIME_INTERP_H
#define REMAT_RUNTIME_INTERP_H

#include "mlir-c/IR.h"
#include "buffer.h"
#include "walk.h" /* the calls' lookup and checks (rtr_interp_lookup, rtr_check_call) */

typedef struct rtr_interp_options {
  /* Compute every f32/f16/bf16 value in f64 (buffers of those types become f64; inputs
   * must be given as f64): finite differences of a function in double precision. */
  bool promote_f64;
  /* > 0: rt.matmul tiles M and N by this block (same bits as the plain loop). */
  int matmul_block;
  /* Host views cost nothing: rt.transpose, rt.slice and rt.broadcast (and a reshape of
   * one) make a view (rtr_buffer.view_map) that rt.matmul reads in place; any other op
   * that reads a view gets a dense copy, counted in *view_copies (when set); *views
   * counts the views made. */
  bool lazy_views;
  long *views, *view_copies;
  /* When set, a func.call whose callee carries rt.kernel runs through this instead of
   * being interpreted. RESULTS are allocated (zeroed) by the interpreter with the call's
   * result types. Returns 0, or -1 after emitting a diagnostic. */
  int (*call_kernel)(void *ctx, MlirOperation call, MlirOperation callee,
                     const rtr_buffer *const *args, int nargs, rtr_buffer *const *results,
                     int nresults);
  void *ctx;
  /* When set, called after every op with its results (borrowed, valid during the call):
   * remat-run records the random tensors of a run this way. */
  void (*trace)(void *trace_ctx, MlirOperation op, rtr_buffer *const *results, int nresults);
  void *trace_ctx;
  /* When set, offered every op of a function before the interpreter runs it (with ctx):
   * returns 1 when it computed RESULTS, 0 to let the interpreter run the op, -1 after
   * emitting a diagnostic. The compiled path runs reductions this way. */
  int (*host_op)(void *ctx, MlirOperation op, rtr_buffer *const *args, int nargs,
                 rtr_buffer *const *results, int nresults);
  /* When set, the walk frees each buffer after the last use of its value and measures
   * the live bytes into *peak (docs/design.md, "The measured peak"). */
  struct rtr_peak *peak;
  /* Where collectives go (runtime/collective.h); NULL: the single-process simulation. A
   * collective starts at its op and completes at the first use of its result (its
   * rt.wait), or when its function ends. */
  struct rtr_coll *coll;
} rtr_interp_options;

/* The live buffer bytes of a run, with the conventions of the peak estimate
 * (lib/analysis/memory.c): a buffer is freed after the last use of its value (an op's operand or
 * the func.return's), a result nothing reads right after its op; an alias (rt.reshape)
 * or a view (lazy_views) holds no bytes and keeps its source alive as long as itself;
 * scalar constants (arith.constant of a scalar type) are immediates, 0 bytes. The
 * function the run starts with counts its arguments: rt.param ones at every op, the
 * others from the start to their last use (not at all when unused); they are the
 * caller's buffers, so they are counted as released then, not freed. A callee's
 * arguments are its caller's values. The live bytes while an op runs are everything
 * alive then: operands, results, and the dense copies of views it reads. */
typedef struct rtr_peak {
  uint64_t base;    /* bytes the caller counts as live throughout (added to every op) */
  uint64_t live;    /* bytes live now, base included */
  uint64_t peak;    /* the most bytes live while one op ran (base if none ran) */
  MlirOperation at; /* the first op that reached peak; null if none */
  long ops;         /* ops measured */
} rtr_peak;

/* Emits the located error of an out-of-range index of rt.gather / rt.scatter_add OP
 * (the index, its coordinates in the indices, the bound); returns -1. The interpreter
 * and the compiled path report alike. */
struct rtr_index_error;
int rtr_index_error_report(MlirOperation op, const struct rtr_index_error *e);

/* The buffer an argument or result of this type needs (f32/f16/bf16 as f64 when
 * promote_f64); NULL when the type is not a static tensor or scalar of a supported
 * element type. Caller frees. */
rtr_buffer *rtr_interp_buffer_for_type(MlirType type, bool promote_f64);

/* Runs FUNC (a func.func of MODULE) on INPUTS (borrowed; their types must match the
 * arguments exactly). On success returns 0 and *outputs, an array of *num_outputs
 * buffers, all owned by the caller (free with rtr_buffers_free). */
int rtr_interp_run(MlirOperation module, MlirOperation func, const rtr_interp_options *opts,
                   rtr_buffer *const *inputs, int num_inputs, rtr_buffer ***outputs,
                   int *num_outputs);

/* Executes the single op OP of MODULE (not func.return) on ARGS into RESULTS, which the
 * caller allocated with the op's result types (rtr_interp_buffer_for_type): as a walk
 * with OPTS would, host_op first, a func.call through call_kernel or the interpreter.
 * Returns 0, or -1 after emitting a diagnostic. Other executors run the ops they have no
 * code of their own for this way (the CUDA backend's host fallbacks), and --check-device
 * recomputes each op of a device run on the CPU with it. */
int rtr_interp_exec_op(MlirOperation module, MlirOperation op, const rtr_interp_options *opts,
                       rtr_buffer *const *args, int nargs, rtr_buffer *const *results,
                       int nresults);

/* Checks every argument and op result of every function of MODULE against
 * RTR_MAX_BUFFER_BYTES before anything runs: one located error per value above it
 * ("result #0: 'tensor<...>' holds N elements of 4 bytes, more than remat-run's limit
 * ..."). Returns 0, or -1 when any was too big. */
int rtr_check_sizes(MlirOperation module);

/* Whether MODULE holds no rt.extern, which no executor runs (docs/design.md, "Ops remat does
 * not model"): 0, or -1 after a located error at the first, naming the producer's name for
 * it. remat-run checks it before anything runs. */
int rtr_check_no_extern(MlirOperation module);

/* Frees an array of n buffers and the array. */
void rtr_buffers_free(rtr_buffer **bufs, int n);

#endif
