/* check_device.h: --check-device, a function (or a _fwd/_bwd split) on a device executor
 * against the CPU's compiled path, op by op.
 *
 * The device run is observed (executor.h): after every op it runs, the operands it used
 * and the results it produced come back to the host, the CPU recomputes the op from the
 * same operands (rtr_interp_exec_op with the compiled options: the host JIT's kernels
 * and reductions, the C runtime's other ops) and the two results are compared with the
 * bound of the op's class, so differences do not accumulate from op to op:
 *   - kernels of IEEE-exact ops only (+ - * / sqrt, compares, select, convert, max/min,
 *     structural ops, Philox, integer ops), reductions (one fixed order on every target),
 *     views and host ops: bit-identical;
 *   - kernels calling libm/libdevice functions (the RT_MATH rows of rt_ops.def, pow,
 *     rsqrt): within MATH_ULP units in the last place, counted at max(|cpu value|, 1) so
 *     that cancellation near zero is measured against the operands' scale; integer and i1
 *     results bit-identical;
 *   - rt.matmul through cuBLAS: |gpu - cpu| <= (2 K u + 2 u_out) sum_k |a_ik b_kj| per
 *     element, u = 2^-23 for 32-bit accumulation (2^-52 for f64; twice the unit roundoff,
 *     for tensor cores' truncating adds), u_out the output type's unit roundoff: both
 *     sides' summation errors (any order) plus their final roundings.
 * Every random tensor a kernel draws is drawn again alone on the device (the executor's
 * probe) and must equal lib/numeric/philox.c bit for bit; for a split, every random tensor the
 * backward draws must equal, bit for bit, one the forward drew. The final outputs are
 * compared too: bit-exact required when every op was in an exact class, reported
 * otherwise.
 *
 * NAME is a function of MODULE, or the stem of NAME_fwd / NAME_bwd: the forward runs on
 * inputs from the seed, the backward on the device forward's saved values and tangents
 * from the seed. Returns 0 when everything agrees, 1 on a difference, 2 when the check
 * could not run (with lines added to *err, or located diagnostics). */
#ifndef REMAT_RUNTIME_CHECK_DEVICE_H
#define REMAT_RUNTIME_CHECK_DEVICE_H

#include <stdio.h>

#include "mlir-c/IR.h"
#include "executor.h"
#include "interp.h"
#include "io.h"

typedef struct rtr_device_check_options {
  uint64_t seed;
  const char *inputs; /* the (forward) function's inputs from this file instead */
  uint64_t math_ulp;  /* bound of kernels with libm/libdevice functions */
  FILE *report;
  bool quiet;        /* no per-class lines on success */
  rtr_values values; /* the distribution of the seed's inputs (runtime/io.h) */
} rtr_device_check_options;

/* Default math_ulp (docs/design.md, "CUDA backend"). */
enum { RTR_DEVICE_MATH_ULP = 64 };

int rtr_check_device(MlirOperation module, const char *name, rtr_executor *device,
                     const rtr_interp_options *cpu, const rtr_device_check_options *o, char **err);

#endif
