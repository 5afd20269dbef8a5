/* How long a process waited for a CPU: the time its threads were ready to
 * run but the host's scheduler ran something else. On a loaded host a
 * launch's deadline does not count this time of the device's QEMU
 * (launch.c), and tests that bound how long something takes subtract it.
 *
 * Linux's per-thread run_delay (/proc/PID/task/TID/schedstat) counts a
 * wait only once it has ended, when the thread gets a CPU: a thread still
 * waiting, for however long, shows none of it yet. So each sample also
 * looks at every thread's state (/proc/PID/task/TID/stat): one that is
 * runnable (R) or held in the kernel (D) and has neither run nor been
 * charged a wait since the previous sample waited all that time, until the
 * kernel's own figure takes over. Sampled often (launch.c: every 10 ms of a
 * long launch), this sees a wait as it happens, also one the kernel never
 * charges (a virtual machine whose CPUs the hypervisor took away). */
#ifndef RVHAL_BASE_CPU_WAIT_H
#define RVHAL_BASE_CPU_WAIT_H

#include <stdint.h>

#define RVHAL_CPU_WAIT_THREADS 64 /* threads followed; QEMU has about 2 + one per hart */
/* QEMU's wait stretches a launch's deadline to at most this many timeouts
 * of wall time (rvhal_cpu_wait_credit). */
#define RVHAL_CPU_WAIT_MAX_FACTOR 5

typedef struct rvhal_cpu_wait_thread {
  int32_t tid;
  uint64_t ran0, waited0;  /* its time on a CPU and run_delay when first seen (0 if it started since) */
  uint64_t ran, waited;    /* ... at the last sample */
  uint64_t held;           /* waiting since before the last sample, not yet in run_delay */
} rvhal_cpu_wait_thread_t;

typedef struct rvhal_cpu_wait {
  long pid;
  uint32_t num_threads;
  uint64_t last_ns;        /* the last sample (CLOCK_MONOTONIC) */
  rvhal_cpu_wait_thread_t t[RVHAL_CPU_WAIT_THREADS];
} rvhal_cpu_wait_t;

/* Starts following process pid's threads. 0, or -1 if the kernel does not
 * tell (no /proc, no schedstat, pid gone). */
int rvhal_cpu_wait_start(rvhal_cpu_wait_t *w, long pid);
/* Since rvhal_cpu_wait_start: the time the process's threads waited for a
 * CPU, summed over them, in ns (0 if unknown), and in *out_ran_ns (if not
 * NULL) the time they ran. The sum, not the longest: QEMU's threads hand
 * work to each other (a hart's thread sleeps on the lock its main loop
 * holds while that thread waits for a CPU), so no one thread's wait shows
 * the whole delay. Threads waiting at the same time count each: an upper
 * bound, which only makes a deadline later (rvhal_cpu_wait_credit caps
 * how much). */
uint64_t rvhal_cpu_wait_sample(rvhal_cpu_wait_t *w, uint64_t *out_ran_ns);
uint64_t rvhal_cpu_wait_since(rvhal_cpu_wait_t *w);
/* How much a deadline of timeout_ns is moved out for `waited_ns` of QEMU's
 * wait: all of it, up to RVHAL_CPU_WAIT_MAX_FACTOR - 1 timeouts, so that a
 * kernel that hangs on a starved host still ends, after at most
 * RVHAL_CPU_WAIT_MAX_FACTOR timeouts of wall time. */
uint64_t rvhal_cpu_wait_credit(uint64_t waited_ns, uint64_t timeout_ns);

#endif
