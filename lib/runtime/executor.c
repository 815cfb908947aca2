/* executor.c: the CPU executor, the interpreter behind the executor interface (see
 * executor.h). */
#include "executor.h"

#include <stdlib.h>

typedef struct cpu_exec {
  MlirOperation module;
  rtr_interp_options opts;
} cpu_exec;

static int cpu_run(rtr_executor *e, MlirOperation func, rtr_buffer *const *inputs, int n,
                   const rtr_exec_observer *obs, rtr_buffer ***outputs, int *nout, char **err) {
  (void)obs;
  (void)err; /* the interpreter's errors are located diagnostics */
  cpu_exec *c = e->impl;
  return rtr_interp_run(c->module, func, &c->opts, inputs, n, outputs, nout) ? -1 : 0;
}

static void cpu_destroy(rtr_executor *e) { free(e->impl); }

rtr_executor *rtr_executor_cpu(MlirOperation module, rtr_interp_options opts) {
  cpu_exec *c = xcalloc(1, sizeof *c);
  c->module = module;
  c->opts = opts;
  rtr_executor *e = xcalloc(1, sizeof *e);
  *e = (rtr_executor){.device = "cpu", .impl = c, .run = cpu_run, .destroy = cpu_destroy};
  return e;
}

void rtr_executor_destroy(rtr_executor *e) {
  if (!e)
    return;
  e->destroy(e);
  free(e);
}
