/* Timeline semaphores (queue.h): a value that only grows, and a failure
 * state that every waiter sees. */
#include <stdlib.h>

#include "queue/event.h"
#include "base/internal.h"
#include "queue/sync.h"

int rvhal_semaphore_create(uint64_t initial_value, rvhal_semaphore_t **out_semaphore) {
  if (!out_semaphore) return rvhal_error(RVHAL_INVALID_ARGUMENT, "out_semaphore is NULL");
  rvhal_semaphore_t *s = calloc(1, sizeof *s);
  if (!s) return rvhal_error(RVHAL_HOST_IO, "out of host memory for a semaphore");
  s->value = initial_value;
  *out_semaphore = s;
  return RVHAL_OK;
}

void rvhal_semaphore_destroy(rvhal_semaphore_t *s) {
  if (!s) return;
  if (s->message) rvhal_sync_strfree(s->message);
  free(s);
}

int rvhal_semaphore_signal(rvhal_semaphore_t *s, uint64_t value) {
  if (!s) return rvhal_error(RVHAL_INVALID_ARGUMENT, "semaphore is NULL");
  rvhal_sync_lock();
  int rc = RVHAL_OK;
  if (s->status != RVHAL_OK)
    rc = rvhal_error(s->status, "semaphore failed before this signal: %s", s->message);
  else if (value < s->value)
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "semaphore signal %llu is below its value %llu (a timeline only grows)",
                     (unsigned long long)value, (unsigned long long)s->value);
  else {
    s->value = value;
    rvhal_sync_broadcast();
  }
  rvhal_sync_unlock();
  return rc;
}

void rvhal_semaphore_fail_locked(rvhal_semaphore_t *s, int status, const char *message) {
  if (s->status != RVHAL_OK) return; /* the first failure is the cause */
  s->status = status != RVHAL_OK ? status : RVHAL_CANCELLED;
  s->message = rvhal_sync_strdup(message);
  rvhal_sync_broadcast();
}

void rvhal_semaphore_fail(rvhal_semaphore_t *s, int status, const char *message) {
  if (!s) return;
  rvhal_sync_lock();
  rvhal_semaphore_fail_locked(s, status, message);
  rvhal_sync_unlock();
}

int rvhal_semaphore_query(rvhal_semaphore_t *s, uint64_t *out_value) {
  if (!s) return rvhal_error(RVHAL_INVALID_ARGUMENT, "semaphore is NULL");
  rvhal_sync_lock();
  if (out_value) *out_value = s->value;
  int status = s->status;
  rvhal_sync_unlock();
  return status;
}

int rvhal_semaphore_wait(rvhal_semaphore_t *s, uint64_t value, uint32_t timeout_ms) {
  if (!s) return rvhal_error(RVHAL_INVALID_ARGUMENT, "semaphore is NULL");
  uint64_t deadline = rvhal_sync_deadline(timeout_ms);
  rvhal_sync_lock();
  rvhal_sync_await_begin();
  while (s->value < value && s->status == RVHAL_OK && !rvhal_sync_wait(deadline)) {
  }
  rvhal_sync_await_end();
  int rc = RVHAL_OK;
  if (s->status != RVHAL_OK) rc = rvhal_error(s->status, "semaphore failed because %s", s->message);
  else if (s->value < value)
    rc = rvhal_error(RVHAL_TIMEOUT, "semaphore is at %llu, not %llu, after %u ms", (unsigned long long)s->value,
                     (unsigned long long)value, timeout_ms);
  rvhal_sync_unlock();
  return rc;
}
