/* Which launches were slow because a thread waited for a CPU: the run_delay
 * (Linux schedstat, 2nd field: time ready to run but not running) of the
 * benchmark's own thread and of every thread of the device's QEMU, read
 * around each launch. A launch that took t, while one of those threads
 * waited t/2 or more for a CPU, was slowed by the host's load, not by
 * rvhal. */
#ifndef RVHAL_BENCH_CPU_WAIT_H
#define RVHAL_BENCH_CPU_WAIT_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BENCH_WAIT_THREADS 32

typedef struct bench_threads {
  int fd[BENCH_WAIT_THREADS]; /* open schedstat files */
  int n;
} bench_threads_t;

static inline void bench_threads_add_(bench_threads_t *t, long pid, long tid) {
  char p[96];
  snprintf(p, sizeof p, "/proc/%ld/task/%ld/schedstat", pid, tid);
  int fd = t->n < BENCH_WAIT_THREADS ? open(p, O_RDONLY) : -1;
  if (fd >= 0) t->fd[t->n++] = fd;
}

/* This thread and the threads of process qemu_pid (0: none). */
static inline bench_threads_t bench_threads_open(long qemu_pid) {
  bench_threads_t t = {.n = 0};
  bench_threads_add_(&t, getpid(), getpid()); /* the benchmark launches from its main thread */
  char p[64];
  snprintf(p, sizeof p, "/proc/%ld/task", qemu_pid);
  DIR *dir = qemu_pid > 0 ? opendir(p) : NULL;
  struct dirent *e;
  while (dir && (e = readdir(dir)))
    if (e->d_name[0] != '.') bench_threads_add_(&t, qemu_pid, atol(e->d_name));
  if (dir) closedir(dir);
  return t;
}

/* Each thread's run_delay so far, in ns. */
static inline void bench_threads_waited(const bench_threads_t *t, unsigned long long *out) {
  for (int i = 0; i < t->n; i++) {
    char b[96];
    ssize_t n = pread(t->fd[i], b, sizeof b - 1, 0);
    unsigned long long run = 0, wait = 0;
    b[n > 0 ? n : 0] = '\0';
    out[i] = sscanf(b, "%llu %llu", &run, &wait) == 2 ? wait : 0;
  }
}

/* The longest wait for a CPU of one thread between two readings, in us. */
static inline double bench_threads_longest_us(const bench_threads_t *t, const unsigned long long *before,
                                              const unsigned long long *after) {
  unsigned long long m = 0;
  for (int i = 0; i < t->n; i++)
    if (after[i] > before[i] && after[i] - before[i] > m) m = after[i] - before[i];
  return (double)m / 1e3;
}

static inline void bench_threads_close(bench_threads_t *t) {
  for (int i = 0; i < t->n; i++) close(t->fd[i]);
  t->n = 0;
}

#endif /* RVHAL_BENCH_CPU_WAIT_H */
