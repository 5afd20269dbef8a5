/* What the host reports about a device's launches, the face of observe/:
 * the module's state (the counters, the profile, the launch in flight with
 * the progress thread, the last launch's report) and what the other
 * modules tell it. It learns everything from records it is handed
 * (launch_record.h), never by reading a launch's state. */
#ifndef RVHAL_HOST_OBSERVE_H
#define RVHAL_HOST_OBSERVE_H

#include <stdint.h>

#include "device/core.h"
#include "observe/launch_record.h"
#include "observe/profile.h"

typedef struct rvhal_observe rvhal_observe_t;

/* Opens the device's profile (a bad spec fails here, before any process
 * starts); the clock's time zero for profiles and records. */
int rvhal_observe_create(const rvhal_device_t *d, rvhal_observe_t **out_observe);
/* Once the device is up: the counters (a debug link is the backend's) and
 * the thread that calls options.progress_fn. */
int rvhal_observe_start(const rvhal_device_t *d);
void rvhal_observe_stop(rvhal_observe_t *o); /* the progress thread; idempotent */
void rvhal_observe_destroy(rvhal_observe_t *o); /* finishes the profile's files */

/* The host clock of the device's creation: profiles' time zero. */
uint64_t rvhal_observe_created_ns(const rvhal_device_t *d);
/* A profile is being written (queues time their commands for it). */
int rvhal_observe_profiling(const rvhal_device_t *d);
/* Launches should record per-hart timeline events: for the profile's
 * trace or SVG (events: the record carries them), or progress_fn's
 * fraction of groups done (timeline). */
int rvhal_observe_wants_events(const rvhal_device_t *d);
int rvhal_observe_wants_timeline(const rvhal_device_t *d);
/* The DEBUG_* hart counters are read, through the backend's debug link. */
int rvhal_observe_debug_link(const rvhal_device_t *d);

/* The launch the device runs now, for rvhal_device_launch_progress. */
typedef struct rvhal_launch_in_flight {
  uint64_t seq; /* 0: none */
  uint64_t start_ns, groups;
  uint32_t harts, team, trace;
} rvhal_launch_in_flight_t;
void rvhal_observe_launch_started(const rvhal_device_t *d, const rvhal_launch_in_flight_t *launch);
void rvhal_observe_launch_retired(const rvhal_device_t *d, uint64_t seq);
/* A launch succeeded: its report (rvhal_device_last_launch). */
void rvhal_observe_launch_report(const rvhal_device_t *d, const rvhal_launch_report_t *report);
/* A counting launch's record: the counters and the profile take it. */
void rvhal_observe_launch_record(const rvhal_device_t *d, const rvhal_launch_record_t *record);
/* A copy wrote or read global memory (the transfer counters). */
void rvhal_observe_transfer(const rvhal_device_t *d, uint64_t written, uint64_t read);
/* A queue command, and a wait of the host, on the profile's host tracks. */
void rvhal_observe_queue_command(const rvhal_device_t *d, uint32_t queue_id, const char *what, uint64_t queued_ns,
                                 uint64_t submitted_ns, uint64_t started_ns, uint64_t ended_ns);
void rvhal_observe_host_wait(const rvhal_device_t *d, const char *what, uint64_t start_ns, uint64_t end_ns);

/* RVHAL_OBSERVE_CALL(d, "mem_write", size) at the top of an API function:
 * the call, from there to its return, on the profile's API-calls track. */
rvhal_profile_call_t rvhal_observe_call_begin(const rvhal_device_t *d, const char *name, uint64_t bytes);
#define RVHAL_OBSERVE_CALL(d, name, bytes)                                                      \
  rvhal_profile_call_t rvhal_observe_call_ __attribute__((cleanup(rvhal_profile_call_end_), unused)) = \
      rvhal_observe_call_begin(d, name, bytes)

#endif /* RVHAL_HOST_OBSERVE_H */
