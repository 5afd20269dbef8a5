/* One lock and one condition variable for every event, semaphore and queue
 * of the process. A command may wait on events and semaphores of any queue
 * of any device, so a waiter must see every completion; with one lock there
 * is no lock order to get wrong, and completions are rare next to the work
 * they stand for (a launch, a copy), so contention does not matter. */
#ifndef RVHAL_HOST_SYNC_H
#define RVHAL_HOST_SYNC_H

#include <pthread.h>
#include <stdint.h>

void rvhal_sync_lock(void);
void rvhal_sync_unlock(void);
/* Wakes every waiter (call with the lock held, after changing state). */
void rvhal_sync_broadcast(void);
/* Sleeps (lock held, released while asleep) until a broadcast or the host
 * clock reaches deadline_ns; 0, or 1 once the deadline has passed. */
int rvhal_sync_wait(uint64_t deadline_ns);
/* The same on a condition variable of its own (made by rvhal_sync_cond_init:
 * CLOCK_MONOTONIC), for a waiter only some changes concern (a queue's
 * finish: not woken by every command of every queue). */
int rvhal_sync_wait_on(pthread_cond_t *c, uint64_t deadline_ns);
void rvhal_sync_cond_init(pthread_cond_t *c);
/* CLOCK_MONOTONIC deadline timeout_ms from now; UINT64_MAX for
 * RVHAL_WAIT_FOREVER. */
uint64_t rvhal_sync_deadline(uint32_t timeout_ms);
/* A host thread starts or stops waiting for a result (an event, a
 * semaphore, a queue's finish): while none does, the program is still
 * enqueueing, and an out-of-order queue watches for more launches to
 * send beside the one on the device (queue.c). Lock held. */
void rvhal_sync_await_begin(void);
void rvhal_sync_await_end(void);
uint32_t rvhal_sync_awaiting(void);
/* strdup that never fails: a message that cannot be copied becomes a fixed
 * text, so a failure is never lost for want of memory. */
char *rvhal_sync_strdup(const char *s);
/* The same for a formatted message, sized from its content. */
char *rvhal_sync_strprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rvhal_sync_strfree(char *s);

#endif /* RVHAL_HOST_SYNC_H */
