/* The observe module's state and what the other modules tell it
 * (observe.h): each launch's start, retirement, report and record, the
 * host's copies and queue commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/counters_internal.h"
#include "observe/observe_state.h"

int rvhal_observe_create(const rvhal_device_t *d, rvhal_observe_t **out_observe) {
  rvhal_observe_t *o = calloc(1, sizeof *o);
  if (!o) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_mutex_init(&o->counters.dev_lock, NULL);
  const rvhal_device_options_t *opt = rvhal_device_options(d);
  if (opt->profile) {
    int rc = rvhal_profile_open(opt->profile, &o->profile);
    if (rc) {
      rvhal_observe_destroy(o);
      return rc;
    }
    const rvhal_device_info_t *info = rvhal_device_get_info(d);
    char pname[160];
    snprintf(pname, sizeof pname, "rvhal device %u: %s, %u harts", rvhal_device_index(d), info->name, info->num_harts);
    rvhal_profile_name_process(o->profile, pname);
  }
  o->created_ns = rvhal_now_ns();
  *out_observe = o;
  return RVHAL_OK;
}

int rvhal_observe_start(const rvhal_device_t *d) {
  rvhal_observe_t *o = rvhal_observe_of(d);
  rvhal_counters_init(&o->counters, d);
  if (o->counters.debug_link) rvhal_profile_debug_link(o->profile);
  return rvhal_progress_thread_start(d);
}

void rvhal_observe_stop(rvhal_observe_t *o) {
  if (o) rvhal_progress_thread_stop(o);
}

void rvhal_observe_destroy(rvhal_observe_t *o) {
  if (!o) return;
  rvhal_observe_stop(o);
  rvhal_profile_close(o->profile);
  pthread_mutex_destroy(&o->counters.dev_lock);
  free(o);
}

uint64_t rvhal_observe_created_ns(const rvhal_device_t *d) { return rvhal_observe_of(d)->created_ns; }
int rvhal_observe_profiling(const rvhal_device_t *d) { return rvhal_observe_of(d)->profile != NULL; }
int rvhal_observe_wants_events(const rvhal_device_t *d) {
  return rvhal_profile_wants_events(rvhal_observe_of(d)->profile);
}
int rvhal_observe_wants_timeline(const rvhal_device_t *d) {
  return rvhal_observe_wants_events(d) || rvhal_device_options(d)->progress_fn != NULL;
}
int rvhal_observe_debug_link(const rvhal_device_t *d) { return rvhal_observe_of(d)->counters.debug_link; }

void rvhal_observe_launch_started(const rvhal_device_t *d, const rvhal_launch_in_flight_t *launch) {
  rvhal_launch_in_flight_t *f = &rvhal_observe_of(d)->in_flight;
  f->start_ns = launch->start_ns;
  f->groups = launch->groups;
  f->harts = launch->harts;
  f->team = launch->team;
  f->trace = launch->trace;
  __atomic_store_n(&f->seq, launch->seq, __ATOMIC_RELEASE);
}

void rvhal_observe_launch_retired(const rvhal_device_t *d, uint64_t seq) {
  rvhal_launch_in_flight_t *f = &rvhal_observe_of(d)->in_flight;
  if (seq == __atomic_load_n(&f->seq, __ATOMIC_RELAXED)) __atomic_store_n(&f->seq, 0, __ATOMIC_RELEASE);
}

void rvhal_observe_launch_report(const rvhal_device_t *d, const rvhal_launch_report_t *report) {
  rvhal_observe_of(d)->last = *report;
}

void rvhal_observe_launch_record(const rvhal_device_t *d, const rvhal_launch_record_t *record) {
  rvhal_observe_t *o = rvhal_observe_of(d);
  rvhal_counters_after_launch(&o->counters, record);
  if (o->profile) rvhal_profile_record(o->profile, record);
}

int rvhal_device_last_launch(const rvhal_device_t *d, rvhal_launch_report_t *out_report) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_report) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_last_launch: NULL argument");
  const rvhal_observe_t *o = rvhal_observe_of(d);
  if (!o->last.seq) return rvhal_error(RVHAL_NOT_FOUND, "device_last_launch: no launch has completed yet");
  *out_report = o->last;
  return RVHAL_OK;
}

void rvhal_observe_queue_command(const rvhal_device_t *d, uint32_t queue_id, const char *what, uint64_t queued_ns,
                                 uint64_t submitted_ns, uint64_t started_ns, uint64_t ended_ns) {
  const rvhal_observe_t *o = rvhal_observe_of(d);
  rvhal_profile_queue_command(o->profile, o->created_ns, queue_id, what, queued_ns, submitted_ns, started_ns,
                              ended_ns);
}

void rvhal_observe_host_wait(const rvhal_device_t *d, const char *what, uint64_t start_ns, uint64_t end_ns) {
  const rvhal_observe_t *o = rvhal_observe_of(d);
  rvhal_profile_host_call(o->profile, o->created_ns, RVHAL_PROFILE_TRACK_WAITS, what, 0, start_ns, end_ns);
}

rvhal_profile_call_t rvhal_observe_call_begin(const rvhal_device_t *d, const char *name, uint64_t bytes) {
  const rvhal_observe_t *o = d ? rvhal_observe_of(d) : NULL;
  if (!o || !o->profile) return (rvhal_profile_call_t){0};
  return rvhal_profile_call_begin_(o->profile, o->created_ns, name, bytes);
}
