/* unit_test.h: the check of the C unit tests that count their failures
 * (maxflow_test.c, union_knapsack_test.c). CHECK(cond, printf args...) prints
 * "FAIL file:line: message" when COND is false and counts it in `failures`, which the
 * test's main turns into its exit status. Header-only: one test program per file. */
#ifndef REMAT_UNIT_TEST_H
#define REMAT_UNIT_TEST_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      failures++;                                 \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
    }                                             \
  } while (0)

#endif
