/* Events: the completion record of one queue command (queue.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/event.h"
#include "base/internal.h"
#include "queue/sync.h"

rvhal_event_t *rvhal_event_new(const char *what) {
  rvhal_event_t *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->refs = 1;
  e->what = rvhal_sync_strdup(what);
  e->message = rvhal_sync_strdup("");
  return e;
}

void rvhal_event_release_locked(rvhal_event_t *e) {
  if (!e || --e->refs) return;
  rvhal_sync_strfree(e->what);
  rvhal_sync_strfree(e->message);
  if (e->cause) rvhal_sync_strfree(e->cause);
  free(e);
}

void rvhal_event_complete_locked(rvhal_event_t *e, int status, const char *message, const char *cause) {
  e->status = status;
  if (status != RVHAL_OK) {
    rvhal_sync_strfree(e->message);
    e->message = rvhal_sync_strdup(message);
    e->cause = rvhal_sync_strdup(cause);
  }
  e->done = 1;
  rvhal_sync_broadcast();
  rvhal_event_release_locked(e);
}

void rvhal_event_retain(rvhal_event_t *e) {
  if (!e) return;
  rvhal_sync_lock();
  e->refs++;
  rvhal_sync_unlock();
}

void rvhal_event_release(rvhal_event_t *e) {
  if (!e) return;
  rvhal_sync_lock();
  rvhal_event_release_locked(e);
  rvhal_sync_unlock();
}

int rvhal_event_query(const rvhal_event_t *e, int *out_status) {
  if (!e) return rvhal_error(RVHAL_INVALID_ARGUMENT, "event is NULL");
  rvhal_sync_lock();
  int done = e->done;
  if (done && out_status) *out_status = e->status;
  rvhal_sync_unlock();
  return done;
}

int rvhal_event_wait(rvhal_event_t *e, uint32_t timeout_ms) {
  if (!e) return rvhal_error(RVHAL_INVALID_ARGUMENT, "event is NULL");
  uint64_t deadline = rvhal_sync_deadline(timeout_ms);
  rvhal_sync_lock();
  rvhal_sync_await_begin();
  while (!e->done && !rvhal_sync_wait(deadline)) {
  }
  rvhal_sync_await_end();
  /* the message is made under the lock: the event's strings are the queue's */
  int rc = !e->done ? rvhal_error(RVHAL_TIMEOUT, "%s has not ended after %u ms", e->what, timeout_ms)
           : e->status != RVHAL_OK ? rvhal_error(e->status, "%s", e->message)
                                   : RVHAL_OK;
  rvhal_sync_unlock();
  return rc;
}

const char *rvhal_event_message(const rvhal_event_t *e) {
  if (!e) return "";
  rvhal_sync_lock();
  const char *m = e->done ? e->message : "";
  rvhal_sync_unlock();
  return m;
}

int rvhal_event_times(const rvhal_event_t *e, rvhal_event_times_t *out_times) {
  if (!e || !out_times) return rvhal_error(RVHAL_INVALID_ARGUMENT, "event or out_times is NULL");
  rvhal_sync_lock();
  *out_times = e->times;
  rvhal_sync_unlock();
  return RVHAL_OK;
}
