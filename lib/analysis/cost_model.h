/* cost_model.h: what keeping a value alive costs, as --remat-mincut weighs it (and any
 * later pass that trades memory for recompute, e.g. a memory budget).
 *
 * Weights are bytes (numel x element size, i1 one byte), scaled down for scalars and 0-d
 * tensors so that two scalars (a Philox seed and offset) win ties against a tensor of the
 * same bytes, and zero for persistent parameters when those are free to keep. */
#ifndef REMAT_COST_MODEL_H
#define REMAT_COST_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* The largest scalar_factor: a scalar's weight (at most 8 bytes x the factor) stays
 * finite, since the flow network reserves infinity for edges no cut may cross (1e308
 * overflowed there), and a weight of one byte stays above the network's tolerance
 * (FLOW_RELATIVE_TOLERANCE x the largest weight). At 1e9 a scalar already outweighs
 * the largest buffer remat-run holds (4 GiB). */
#define REMAT_SCALAR_FACTOR_MAX 1e9

typedef struct remat_cost_model {
  double scalar_factor; /* multiplies the bytes of scalars and 0-d tensors */
  bool params_free;     /* rt.param arguments weigh 0 */
} remat_cost_model;

/* Weight of keeping a value of TYPE from the forward to the backward (types are uniqued:
 * a pass weighs each type once); is_param: the value is an rt.param argument. Returns -1
 * when the type has no byte size (dynamic shape, unsupported type), which the verifier
 * rejects before any pass runs. */
double remat_type_weight(const remat_cost_model *model, MlirType type, bool is_param);

#endif
