/* api.c: the small public entry points that belong to no other file (remat-c/Remat.h). */
#include <stdlib.h>

#include "remat-c/Remat.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char *rematVersion(void) {
  return STR(REMAT_VERSION_MAJOR) "." STR(REMAT_VERSION_MINOR) "." STR(REMAT_VERSION_PATCH);
}

void rematStringFree(char *string) { free(string); }
