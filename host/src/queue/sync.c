/* The process-wide lock of queues, events and semaphores (sync.h). */
#include <stdarg.h>
#include <stdio.h>
#include "queue/sync.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/internal.h"
#include "rvhal/queue.h"

static pthread_mutex_t sync_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sync_cond;
static pthread_once_t sync_once = PTHREAD_ONCE_INIT;
static uint32_t sync_sleepers; /* threads asleep on sync_cond (under sync_mutex) */

/* The condition variable waits on CLOCK_MONOTONIC, like every deadline of
 * the library, so a change of the wall clock moves no timeout. */
void rvhal_sync_cond_init(pthread_cond_t *c) {
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(c, &a);
  pthread_condattr_destroy(&a);
}

static void sync_init(void) { rvhal_sync_cond_init(&sync_cond); }

void rvhal_sync_lock(void) {
  pthread_once(&sync_once, sync_init);
  pthread_mutex_lock(&sync_mutex);
}

void rvhal_sync_unlock(void) { pthread_mutex_unlock(&sync_mutex); }

/* Most commands end with nobody asleep (the queue's thread is busy, the
 * caller waits on its queue's own condition): no call then. */
void rvhal_sync_broadcast(void) {
  if (sync_sleepers) pthread_cond_broadcast(&sync_cond);
}

int rvhal_sync_wait_on(pthread_cond_t *c, uint64_t deadline_ns) {
  if (deadline_ns == UINT64_MAX) {
    pthread_cond_wait(c, &sync_mutex);
    return 0;
  }
  if (rvhal_now_ns() >= deadline_ns) return 1;
  struct timespec ts = {.tv_sec = (time_t)(deadline_ns / 1000000000ull),
                        .tv_nsec = (long)(deadline_ns % 1000000000ull)};
  pthread_cond_timedwait(c, &sync_mutex, &ts);
  return rvhal_now_ns() >= deadline_ns;
}

int rvhal_sync_wait(uint64_t deadline_ns) {
  sync_sleepers++;
  int late = rvhal_sync_wait_on(&sync_cond, deadline_ns);
  sync_sleepers--;
  return late;
}

static uint32_t sync_awaiting; /* host threads waiting for a result (under sync_mutex) */

void rvhal_sync_await_begin(void) {
  if (sync_awaiting++ == 0 && sync_sleepers) pthread_cond_broadcast(&sync_cond); /* a watching queue stops */
}
void rvhal_sync_await_end(void) { sync_awaiting--; }
uint32_t rvhal_sync_awaiting(void) { return sync_awaiting; }

uint64_t rvhal_sync_deadline(uint32_t timeout_ms) {
  if (timeout_ms == RVHAL_WAIT_FOREVER) return UINT64_MAX;
  return rvhal_now_ns() + (uint64_t)timeout_ms * 1000000ull;
}

static char lost_message[] = "(message lost: out of host memory)";
static char empty_message[] = ""; /* shared: most events end well and never need their own */

char *rvhal_sync_strdup(const char *s) {
  if (!s || !*s) return empty_message;
  char *c = strdup(s);
  return c ? c : lost_message;
}

char *rvhal_sync_strprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *c = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!c) return lost_message;
  va_start(ap, fmt);
  vsnprintf(c, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return c;
}

void rvhal_sync_strfree(char *s) {
  if (s != lost_message && s != empty_message) free(s);
}
