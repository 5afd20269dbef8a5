/* How long a process waited for a CPU: the time its threads were ready to
 * run but the host's scheduler ran something else (Linux's per-thread
 * run_delay, /proc/PID/task/TID/schedstat). On a loaded host a launch's
 * deadline does not count this time of the device's QEMU (launch.c), and
 * tests that bound how long something takes subtract it. */
#ifndef RVHAL_BASE_CPU_WAIT_H
#define RVHAL_BASE_CPU_WAIT_H

#include <stdint.h>

#define RVHAL_CPU_WAIT_THREADS 64 /* threads followed; QEMU has about 2 + one per hart */

typedef struct rvhal_cpu_wait {
  long pid;
  uint32_t num_threads;
  int32_t tid[RVHAL_CPU_WAIT_THREADS];
  uint64_t waited_ns[RVHAL_CPU_WAIT_THREADS]; /* each thread's run_delay when started */
} rvhal_cpu_wait_t;

/* Records how long each thread of process pid has waited so far. 0, or -1
 * if the kernel does not tell (no /proc, no schedstat, pid gone). */
int rvhal_cpu_wait_start(rvhal_cpu_wait_t *w, long pid);
/* Since rvhal_cpu_wait_start: the time the process's threads waited for a
 * CPU, summed over them, in ns (0 if unknown). The sum, not the longest:
 * QEMU's threads hand work to each other (a hart's thread sleeps on the
 * lock its main loop holds while that thread waits for a CPU), so no one
 * thread's wait shows the whole delay. Threads waiting at the same time
 * count each: an upper bound, which only makes a deadline later (launch.c
 * caps how much). */
uint64_t rvhal_cpu_wait_since(const rvhal_cpu_wait_t *w);

#endif
