/* rvhal-bench sections. */
#ifndef RVHAL_BENCH_H
#define RVHAL_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include "rvhal/rvhal.h"

#define BENCH_CHECK(expr)                                                                           \
  do {                                                                                              \
    int rc_ = (expr);                                                                               \
    if (rc_ < 0) {                                                                                  \
      fprintf(stderr, "rvhal-bench: %s: %s: %s\n", #expr, rvhal_status_name(rc_), rvhal_last_error()); \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

void bench_overhead(const char *kernel_dir);
void bench_vadd(const char *kernel_dir, int runs);
void bench_teams(const char *kernel_dir, int runs);

#endif /* RVHAL_BENCH_H */
