/* executor.h: the runtime's executor interface: an object that runs the functions of one
 * module on one device and hands back host buffers.
 *
 * The CPU executor wraps the interpreter (interp.h) with the options of the reference
 * interpreter or of the compiled path (compiled.h), which stay as they are; the CUDA
 * backend (cuda_exec.h) is the other implementation. remat-run runs --fn and
 * --check-device through this interface, so inputs and outputs go through one text format
 * (io.h) whatever the device.
 *
 * An observer sees what a run does, op by op, as host buffers: --check-device recomputes
 * each op on the CPU from the operands the device used and compares (check_device.h).
 *
 * Ownership: the creator of an executor destroys it with rtr_executor_destroy, after
 * its last run; the module must outlive it. */
#ifndef REMAT_RUNTIME_EXECUTOR_H
#define REMAT_RUNTIME_EXECUTOR_H

#include "mlir-c/IR.h"
#include "buffer.h"
#include "interp.h"

typedef struct rtr_exec_observer {
  void *ctx;
  /* After each op the executor runs itself: kernel calls, reductions, matmuls, views,
   * host ops; not func.return and not calls of functions it walks into (their ops are
   * reported). ARGS and RESULTS are host copies, borrowed for the call. */
  void (*op)(void *ctx, MlirOperation op, rtr_buffer *const *args, int nargs,
             rtr_buffer *const *results, int nresults);
  /* Each random tensor an rt.uniform_philox inside a kernel drew on the device, drawn
   * again alone with the same seed and offset (borrowed). Only executors that draw
   * random tensors out of sight of `op` call it. */
  void (*random)(void *ctx, MlirOperation philox, uint64_t seed, uint64_t offset,
                 const rtr_buffer *draw);
} rtr_exec_observer;

/* Time and traffic of one device function (a kernel, a reduction, cuBLAS, a host
 * fallback), summed over the launches of the runs since the last reset. */
typedef struct rtr_exec_stat {
  const char *name; /* kernel or reduction name; "cublas" ops as `matmul@LINE` */
  const char *what; /* "kernel", "reduction", "matmul", "host" */
  long launches;
  double ms;     /* device time of every launch together (0 when not profiled) */
  double ms_min; /* fastest launch */
  int64_t bytes; /* tensor bytes one launch reads and writes (each operand and result
                     * once: the fusion report's model) */
} rtr_exec_stat;

typedef struct rtr_executor rtr_executor;
struct rtr_executor {
  const char *device; /* "cpu", "cuda" */
  void *impl;
  /* Runs FUNC of the module on INPUTS (borrowed, types as the arguments'). On success 0
   * and *outputs, *num_outputs host buffers owned by the caller (rtr_buffers_free).
   * -1 after a located diagnostic or with a message added to *err (remat_error_add).
   * OBS may be NULL. */
  int (*run)(rtr_executor *e, MlirOperation func, rtr_buffer *const *inputs, int num_inputs,
             const rtr_exec_observer *obs, rtr_buffer ***outputs, int *num_outputs, char **err);
  /* Optional: the stats of every device function so far (borrowed; NULL/0 if none). */
  const rtr_exec_stat *(*stats)(rtr_executor *e, int *count);
  void (*reset_stats)(rtr_executor *e);
  void (*destroy)(rtr_executor *e);
};

/* The interpreter with OPTS (reference or compiled) as an executor; it reports no ops to
 * observers. */
rtr_executor *rtr_executor_cpu(MlirOperation module, rtr_interp_options opts);

static inline int rtr_executor_run(rtr_executor *e, MlirOperation func, rtr_buffer *const *inputs,
                                   int num_inputs, const rtr_exec_observer *obs,
                                   rtr_buffer ***outputs, int *num_outputs, char **err) {
  return e->run(e, func, inputs, num_inputs, obs, outputs, num_outputs, err);
}

void rtr_executor_destroy(rtr_executor *e);

#endif
