/* The time a process's threads waited for a CPU (cpu_wait.h). */
#include "base/cpu_wait.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* run_delay of thread tid of pid: the second field of its schedstat. */
static int thread_wait_ns(long pid, long tid, uint64_t *out) {
  char path[96];
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", pid, tid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  uint64_t on_cpu, waited;
  int n = fscanf(f, "%" SCNu64 " %" SCNu64, &on_cpu, &waited);
  fclose(f);
  if (n != 2) return -1;
  *out = waited;
  return 0;
}

/* Calls fn(w, tid, waited) for each thread of w->pid (at most
 * RVHAL_CPU_WAIT_THREADS * 4 looked at); -1 if none could be read. */
static int each_thread(const rvhal_cpu_wait_t *w, void (*fn)(void *, long, uint64_t), void *ctx) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task", w->pid);
  DIR *dir = opendir(path);
  if (!dir) return -1;
  int seen = 0;
  struct dirent *e;
  for (int looked = 0; looked < RVHAL_CPU_WAIT_THREADS * 4 && (e = readdir(dir)); looked++) {
    char *end;
    long tid = strtol(e->d_name, &end, 10);
    uint64_t waited;
    if (*end || tid <= 0 || thread_wait_ns(w->pid, tid, &waited)) continue;
    fn(ctx, tid, waited);
    seen = 1;
  }
  closedir(dir);
  return seen ? 0 : -1;
}

static void record(void *ctx, long tid, uint64_t waited) {
  rvhal_cpu_wait_t *w = ctx;
  if (w->num_threads == RVHAL_CPU_WAIT_THREADS) return;
  w->tid[w->num_threads] = (int32_t)tid;
  w->waited_ns[w->num_threads++] = waited;
}

int rvhal_cpu_wait_start(rvhal_cpu_wait_t *w, long pid) {
  w->pid = pid;
  w->num_threads = 0;
  if (pid <= 0) return -1;
  return each_thread(w, record, w);
}

typedef struct {
  const rvhal_cpu_wait_t *w;
  uint64_t sum;
} since_t;

static void add(void *ctx, long tid, uint64_t waited) {
  since_t *s = ctx;
  uint64_t before = 0; /* a thread started since: all its wait is new */
  for (uint32_t i = 0; i < s->w->num_threads; i++)
    if (s->w->tid[i] == tid) before = s->w->waited_ns[i];
  if (waited > before) s->sum += waited - before;
}

uint64_t rvhal_cpu_wait_since(const rvhal_cpu_wait_t *w) {
  since_t s = {w, 0};
  if (w->pid <= 0 || w->num_threads == 0) return 0;
  each_thread(w, add, &s);
  return s.sum;
}
