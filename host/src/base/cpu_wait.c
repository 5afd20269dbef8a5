/* The time a process's threads waited for a CPU (cpu_wait.h). */
#include "base/cpu_wait.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Thread tid of pid: its time on a CPU and run_delay (the first two fields
 * of its schedstat) and its state (stat's third field: R, S, D, ...). */
static int thread_read(long pid, long tid, uint64_t *out_ran, uint64_t *out_waited, char *out_state) {
  char path[96], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", pid, tid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  uint64_t on_cpu, waited;
  int n = fscanf(f, "%" SCNu64 " %" SCNu64, &on_cpu, &waited);
  fclose(f);
  if (n != 2) return -1;
  *out_ran = on_cpu;
  *out_waited = waited;
  *out_state = '?';
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", pid, tid);
  if ((f = fopen(path, "r"))) {
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    const char *paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
    if (paren && paren[1] == ' ' && paren[2]) *out_state = paren[2];
  }
  return 0;
}

/* Reads every thread of w->pid (at most RVHAL_CPU_WAIT_THREADS * 4 looked
 * at) into w; first: the start. -1 if none could be read. */
static int sample(rvhal_cpu_wait_t *w, int first) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task", w->pid);
  DIR *dir = opendir(path);
  if (!dir) return -1;
  const uint64_t now = mono_ns(), since_last = first ? 0 : now - w->last_ns;
  int seen = 0;
  struct dirent *e;
  for (int looked = 0; looked < RVHAL_CPU_WAIT_THREADS * 4 && (e = readdir(dir)); looked++) {
    char *end;
    long tid = strtol(e->d_name, &end, 10);
    uint64_t ran, waited;
    char state;
    if (*end || tid <= 0 || thread_read(w->pid, tid, &ran, &waited, &state)) continue;
    seen = 1;
    rvhal_cpu_wait_thread_t *t = NULL;
    for (uint32_t i = 0; i < w->num_threads && !t; i++)
      if (w->t[i].tid == tid) t = &w->t[i];
    if (!t) { /* new: all its time counts unless it was there at the start */
      if (w->num_threads == RVHAL_CPU_WAIT_THREADS) continue;
      t = &w->t[w->num_threads++];
      *t = (rvhal_cpu_wait_thread_t){.tid = (int32_t)tid, .ran0 = first ? ran : 0, .waited0 = first ? waited : 0,
                                     .ran = ran, .waited = waited};
      continue;
    }
    if (ran != t->ran || waited != t->waited)
      t->held = 0; /* it got a CPU: run_delay has the wait now */
    else if (state == 'R' || state == 'D')
      t->held += since_last; /* ready (or held by the kernel) all along, and never ran */
    t->ran = ran;
    t->waited = waited;
  }
  closedir(dir);
  w->last_ns = now;
  return seen ? 0 : -1;
}

int rvhal_cpu_wait_start(rvhal_cpu_wait_t *w, long pid) {
  memset(w, 0, sizeof *w);
  w->pid = pid;
  if (pid <= 0) return -1;
  return sample(w, 1);
}

uint64_t rvhal_cpu_wait_sample(rvhal_cpu_wait_t *w, uint64_t *out_ran_ns) {
  uint64_t waited = 0, ran = 0;
  if (w->pid > 0 && w->num_threads > 0 && sample(w, 0) == 0)
    for (uint32_t i = 0; i < w->num_threads; i++) {
      const rvhal_cpu_wait_thread_t *t = &w->t[i];
      if (t->waited > t->waited0) waited += t->waited - t->waited0;
      if (t->ran > t->ran0) ran += t->ran - t->ran0;
      waited += t->held;
    }
  if (out_ran_ns) *out_ran_ns = ran;
  return waited;
}

uint64_t rvhal_cpu_wait_since(rvhal_cpu_wait_t *w) { return rvhal_cpu_wait_sample(w, NULL); }

uint64_t rvhal_cpu_wait_credit(uint64_t waited_ns, uint64_t timeout_ns) {
  const uint64_t cap = timeout_ns > UINT64_MAX / RVHAL_CPU_WAIT_MAX_FACTOR ? UINT64_MAX / RVHAL_CPU_WAIT_MAX_FACTOR
                                                                          : (RVHAL_CPU_WAIT_MAX_FACTOR - 1) * timeout_ns;
  return waited_ns < cap ? waited_ns : cap;
}
