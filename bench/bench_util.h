/* Timing and statistics helpers for the benchmarks. */
#ifndef RVHAL_BENCH_UTIL_H
#define RVHAL_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int bench_cmp_(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct bench_stats {
  double median, p10, p90;
} bench_stats_t;

/* Sorts v in place. */
static inline bench_stats_t bench_stats(double *v, size_t n) {
  qsort(v, n, sizeof *v, bench_cmp_);
  bench_stats_t s = {v[n / 2], v[n / 10], v[n * 9 / 10]};
  return s;
}

#endif /* RVHAL_BENCH_UTIL_H */
