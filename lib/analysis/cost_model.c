/* cost_model.c: byte weights of types for the min-cut (see cost_model.h). */
#include "cost_model.h"

#include "mlir-c/BuiltinTypes.h"
#include "rt.h"

/* A scalar ("number") or a 0-d tensor. */
static bool is_scalar(MlirType t) {
  return rt_type_is_scalar(t) || (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == 0);
}

double remat_type_weight(const remat_cost_model *model, MlirType type, bool is_param) {
  uint64_t bytes;
  if (rt_type_bytes(type, &bytes) != 0)
    return -1;
  if (is_param && model->params_free)
    return 0;
  double w = (double)bytes;
  return is_scalar(type) ? w * model->scalar_factor : w;
}
