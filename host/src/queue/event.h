/* Events and timeline semaphores inside the library (queue.h is the API). */
#ifndef RVHAL_HOST_EVENT_H
#define RVHAL_HOST_EVENT_H

#include "rvhal/queue.h"

struct rvhal_event {
  uint32_t refs;   /* the command holds one until it ends */
  int done;
  int status;
  char *what;      /* the command, for the messages of what waits on it */
  char *message;
  char *cause;     /* failed: "<what> failed: <message>"; cancelled: the cause it inherited */
  rvhal_event_times_t times;
};

struct rvhal_semaphore {
  uint64_t value;
  int status;      /* RVHAL_OK, or why it failed */
  char *message;
};

/* A pending event (one reference, the command's), naming its command. */
rvhal_event_t *rvhal_event_new(const char *what);
/* Ends the event and drops the command's reference. Sync lock held. */
void rvhal_event_complete_locked(rvhal_event_t *e, int status, const char *message, const char *cause);
void rvhal_event_release_locked(rvhal_event_t *e);
/* Sync lock held. */
void rvhal_semaphore_fail_locked(rvhal_semaphore_t *s, int status, const char *message);

#endif /* RVHAL_HOST_EVENT_H */
