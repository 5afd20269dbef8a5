/* The observe module's state, private to observe/ (observe.h is its face). */
#ifndef RVHAL_HOST_OBSERVE_STATE_H
#define RVHAL_HOST_OBSERVE_STATE_H

#include <pthread.h>

#include "observe/observe.h"
#include "rvhal/counters.h"

/* Counter values of the last launch / memory operation, and whether each
 * was read (counters.c). */
typedef struct rvhal_counter_state {
  uint32_t num;                                     /* 0: counters off */
  int debug_link;                                   /* the DEBUG_* hart counters are read (backend.h: hart_counters) */
  rvhal_counter_description_t desc[RVHAL_NUM_HART_COUNTERS + RVHAL_NUM_DEVICE_COUNTERS];
  uint64_t hart[RVHAL_NUM_HART_COUNTERS][RVHAL_MAX_HARTS];
  uint8_t hart_fresh[RVHAL_NUM_HART_COUNTERS][RVHAL_MAX_HARTS];
  uint64_t dev[RVHAL_NUM_DEVICE_COUNTERS]; /* by id - RVHAL_HART_COUNTER_SLOTS */
  uint8_t dev_fresh[RVHAL_NUM_DEVICE_COUNTERS];
  pthread_mutex_t dev_lock; /* dev, dev_fresh: copies update them while a launch holds the device */
} rvhal_counter_state_t;

struct rvhal_observe {
  rvhal_counter_state_t counters;
  rvhal_profile_t *profile;      /* NULL unless profiling */
  uint64_t created_ns;           /* host clock when created: profile time zero */
  rvhal_launch_report_t last;    /* the last successful launch */
  /* The launch being waited for (read from another thread: seq is written
   * last / cleared first). */
  rvhal_launch_in_flight_t in_flight;
  struct rvhal_progress_thread *progress_thread; /* calls options.progress_fn (progress.c) */
};

static inline rvhal_observe_t *rvhal_observe_of(const rvhal_device_t *d) { return rvhal_device_modules(d)->observe; }

/* counters.c */
void rvhal_counters_init(rvhal_counter_state_t *c, const rvhal_device_t *d);
void rvhal_counters_free(rvhal_counter_state_t *c);
/* progress.c: the thread that calls options.progress_fn while launches
 * run (started when the device has one; stop is idempotent). */
int rvhal_progress_thread_start(const rvhal_device_t *d);
void rvhal_progress_thread_stop(rvhal_observe_t *o);

#endif /* RVHAL_HOST_OBSERVE_STATE_H */
