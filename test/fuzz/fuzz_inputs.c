/* fuzz_inputs: libFuzzer harness over remat-run's --inputs reader
 * (rtr_inputs_read_stream, lib/runtime/io.c).
 *
 * Each input is an inputs file for @f below, whose arguments cover every element type,
 * scalars, a 0-d and an empty tensor. Bad files must end in a located error, never in a
 * crash or an allocation the file's size does not justify. Two invariants abort: a file
 * that is rejected gets a located message, and a file that reads writes back (rtr_buffer_write_text) to a text that reads again to the same
 * values, bit for bit (NaNs compare as NaNs).
 *
 * The module is parsed once, in a context kept for the whole run (the reader only reads
 * its types and creates nothing in it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "interp.h"
#include "io.h"

static const char module_text[] =
    "func.func @f(%a: tensor<2x3xf32>, %b: i64, %c: tensor<4xi1>, %d: tensor<2xbf16>,\n"
    "             %e: f64, %g: tensor<3xi8>, %h: tensor<0x5xf16>, %i: i32,\n"
    "             %j: tensor<f32>, %k: tensor<2x1x2xi64>, %l: tensor<2xi32>, %m: f32) {\n"
    "  return\n"
    "}\n";

static MlirContext ctx;
static MlirModule module;
static MlirOperation func;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  ctx = mlirContextCreateWithThreading(false);
  if (mlirLogicalResultIsFailure(rematLoadDialects(ctx)))
    abort();
  module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(module_text));
  if (mlirModuleIsNull(module))
    abort();
  func = rtr_interp_lookup(mlirModuleGetOperation(module), "f");
  if (mlirOperationIsNull(func))
    abort();
  return 0;
}

static bool same_values(const rtr_buffer *a, const rtr_buffer *b) {
  if (!rtr_buffer_same_type(a, b))
    return false;
  for (int64_t i = 0; i < a->numel; i++)
    if (rtr_elem_is_float(a->elem)) {
      double x = rtr_buffer_get_f(a, i), y = rtr_buffer_get_f(b, i);
      if (!(isnan(x) && isnan(y)) && memcmp(&x, &y, sizeof x))
        return false;
    } else if (rtr_buffer_get_i(a, i) != rtr_buffer_get_i(b, i))
      return false;
  return true;
}

/* Reads DATA[0..size) as an inputs file; NULL when it is rejected. */
static rtr_buffer **read_text(const void *data, size_t size, int *n) {
  static char empty[1];
  /* fmemopen wants one byte at least: an empty file is one byte, read first */
  FILE *f = fmemopen(size ? (void *)data : empty, size ? size : 1, "r");
  if (!f)
    abort();
  if (!size)
    fgetc(f);
  char *err = NULL;
  rtr_buffer **bufs = rtr_inputs_read_stream(func, f, "fuzz", n, &err);
  fclose(f);
  /* A rejection comes with located messages, one per line ("fuzz:LINE:COL: error: ...") */
  if (!bufs) {
    int line, col, end = 0;
    if (!err || sscanf(err, "fuzz:%d:%d: error: %n", &line, &col, &end) != 2 || !end) {
      fprintf(stderr, "fuzz_inputs: a rejection without a located message: '%s'\n",
              err ? err : "(none)");
      abort();
    }
  }
  free(err);
  return bufs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int n = 0;
  rtr_buffer **in = read_text(data, size, &n);
  if (!in)
    return 0;
  char *text = NULL;
  size_t len = 0;
  FILE *w = open_memstream(&text, &len);
  if (!w)
    abort();
  for (int k = 0; k < n; k++)
    rtr_buffer_write_text(w, in[k]);
  fclose(w);
  int m = 0;
  rtr_buffer **back = read_text(text, len, &m);
  if (!back || m != n) {
    fprintf(stderr, "fuzz_inputs: the written values do not read back:\n%s\n", text);
    abort();
  }
  for (int k = 0; k < n; k++)
    if (!same_values(in[k], back[k])) {
      fprintf(stderr, "fuzz_inputs: argument #%d changed through write and read:\n%s\n", k, text);
      abort();
    }
  free(text);
  rtr_buffers_free(in, n);
  rtr_buffers_free(back, m);
  return 0;
}
