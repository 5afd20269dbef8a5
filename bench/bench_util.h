/* Timing and statistics helpers for the benchmarks. */
#ifndef RVHAL_BENCH_UTIL_H
#define RVHAL_BENCH_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* CPU time process `pid` has used, all its threads, in ns (from each
 * thread's schedstat): less disturbed than wall time on a loaded host. */
static inline double bench_proc_cpu_ns(long pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task", pid);
  DIR *dir = opendir(path);
  double total = 0;
  struct dirent *e;
  while (dir && (e = readdir(dir))) {
    char p[320];
    snprintf(p, sizeof p, "/proc/%ld/task/%s/schedstat", pid, e->d_name);
    FILE *f = fopen(p, "r");
    unsigned long long ns;
    if (f && fscanf(f, "%llu", &ns) == 1) total += (double)ns;
    if (f) fclose(f);
  }
  if (dir) closedir(dir);
  return total;
}

static int bench_cmp_(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Every latency is printed with its p50, p99 and max: a median alone hides
 * the tail. */
typedef struct bench_stats {
  double median, p10, p90, p99, max;
} bench_stats_t;

/* Sorts v in place. */
static inline bench_stats_t bench_stats(double *v, size_t n) {
  qsort(v, n, sizeof *v, bench_cmp_);
  bench_stats_t s = {v[n / 2], v[n / 10], v[n * 9 / 10], v[n * 99 / 100], v[n - 1]};
  return s;
}

#endif /* RVHAL_BENCH_UTIL_H */
