/* autodiff_api_test: --remat-autodiff through the public API, as a host builds it: the
 * typed constructor (remat-c/Passes.h) and the option text give the same joint function,
 * and a bad forward fails with a located diagnostic through the host's printer.
 * Driven by test/autodiff/api.test; argv[1] is a forward-only module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_test.h"
#include "remat-c/Passes.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int errors = 0;
  MlirContext ctx = rematContextCreate(stdout, &errors); /* the tools' setup */
  if (mlirContextIsNull(ctx))
    return 1;
  char err[256];
  RematAutodiffOptions o;
  rematAutodiffOptionsInit(&o);
  printf("autodiff defaults: report='%s'\n", o.report);
  char *typed = api_run_pass_file(ctx, argv[1], rematCreateAutodiffPass(&o, err, sizeof err));
  char *textual =
      api_run_pass_file(ctx, argv[1], rematCreatePass("remat-autodiff", "", err, sizeof err));
  printf("autodiff typed == text: %s\n",
         typed && textual && !strcmp(typed, textual) ? "yes" : "no");
  if (typed)
    fputs(typed, stdout);
  free(typed);
  free(textual);

  /* A wrt index out of range: the pass fails, the printer reports at the function. */
  const char *bad = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32>\n"
                    "    attributes {rt.autodiff = {wrt = [3]}} {\n"
                    "  return %x : tensor<4xf32>\n"
                    "}\n";
  char *out = api_run_pass_text(ctx, bad, rematCreateAutodiffPass(&o, err, sizeof err));
  printf("bad forward: %s, errors counted: %d\n", out ? "differentiated" : "failed", errors);
  free(out);
  mlirContextDestroy(ctx);
  return 0;
}
