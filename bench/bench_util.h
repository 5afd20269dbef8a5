/* Timing and statistics helpers for the benchmarks. */
#ifndef RVHAL_BENCH_UTIL_H
#define RVHAL_BENCH_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Calls fn(ctx, tid, line) with the first line of /proc/<pid>/task/<tid>/<file>
 * of each thread of process `pid`, until fn returns nonzero. */
static inline void bench_proc_tasks(long pid, const char *file, int (*fn)(void *ctx, long tid, const char *line),
                                    void *ctx) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task", pid);
  DIR *dir = opendir(path);
  struct dirent *e;
  int stop = 0;
  while (dir && !stop && (e = readdir(dir))) {
    char p[320], line[512];
    snprintf(p, sizeof p, "/proc/%ld/task/%s/%s", pid, e->d_name, file);
    FILE *f = fopen(p, "r");
    if (f && fgets(line, sizeof line, f)) stop = fn(ctx, atol(e->d_name), line);
    if (f) fclose(f);
  }
  if (dir) closedir(dir);
}

static inline int bench_add_schedstat_(void *ctx, long tid, const char *line) {
  (void)tid;
  *(double *)ctx += strtod(line, NULL);
  return 0;
}

/* CPU time process `pid` has used, all its threads, in ns (from each
 * thread's schedstat): less disturbed than wall time on a loaded host. */
static inline double bench_proc_cpu_ns(long pid) {
  double total = 0;
  bench_proc_tasks(pid, "schedstat", bench_add_schedstat_, &total);
  return total;
}

static inline int bench_is_running_(void *ctx, long tid, const char *line) {
  (void)tid;
  const char *c = strrchr(line, ')'); /* the state follows the name, which may hold anything */
  return *(int *)ctx = c && c[1] == ' ' && c[2] == 'R';
}

/* Whether any thread of process `pid` is running or runnable (state R). */
static inline int bench_proc_running(long pid) {
  int running = 0;
  bench_proc_tasks(pid, "stat", bench_is_running_, &running);
  return running;
}

/* Each thread's CPU time (schedstat, ns) of a process, by thread id. */
#define BENCH_CPU_THREADS 64
typedef struct bench_cpu_snap {
  int n;
  long tid[BENCH_CPU_THREADS];
  double ns[BENCH_CPU_THREADS];
} bench_cpu_snap_t;

static inline int bench_snap_thread_(void *ctx, long tid, const char *line) {
  bench_cpu_snap_t *s = ctx;
  s->tid[s->n] = tid;
  s->ns[s->n++] = strtod(line, NULL);
  return s->n == BENCH_CPU_THREADS;
}

/* Taken once no thread of `pid` is running (waiting at most 200 ms). A
 * running thread's schedstat advances only at the scheduler's tick (4 ms
 * here): read while a vCPU runs, a 40 ms figure was off by up to 10 %.
 * Asleep, every thread's count is exact. */
static inline bench_cpu_snap_t bench_proc_cpu_snap_idle(long pid) {
  const double until = bench_now_us() + 200e3;
  while (bench_proc_running(pid) && bench_now_us() < until) {
    const struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
  }
  bench_cpu_snap_t s = {0};
  bench_proc_tasks(pid, "schedstat", bench_snap_thread_, &s);
  return s;
}

/* CPU ns between two snapshots, thread by thread: a thread that ended in
 * between (QEMU's helpers come and go) must not count negative. */
static inline double bench_cpu_between(const bench_cpu_snap_t *a, const bench_cpu_snap_t *b) {
  double total = 0;
  for (int i = 0; i < b->n; i++) {
    double before = 0;
    for (int j = 0; j < a->n; j++)
      if (a->tid[j] == b->tid[i]) before = a->ns[j];
    total += b->ns[i] - before;
  }
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
