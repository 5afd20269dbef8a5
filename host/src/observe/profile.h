/* Profiles of every launch, for people to read and look at: a per-hart
 * table (stderr), a CSV (one row per launch and hart), a Chrome trace-event
 * JSON timeline (Perfetto, chrome://tracing) and an SVG timeline. Turned on
 * by rvhal_device_options_t.profile or $RVHAL_PROFILE. */
#ifndef RVHAL_HOST_PROFILE_H
#define RVHAL_HOST_PROFILE_H

#include <stdint.h>

#include "observe/launch_record.h"

typedef struct rvhal_profile rvhal_profile_t;

/* spec: "table", "csv=FILE", "trace=FILE", "svg=FILE", comma-separated. */
int rvhal_profile_open(const char *spec, rvhal_profile_t **out_profile);
/* Wants per-hart timeline events (trace or svg). */
int rvhal_profile_wants_events(const rvhal_profile_t *p);
/* The device has a debug link: the table, CSV and trace show its
 * debug_instructions and debug_cycles per hart too. */
void rvhal_profile_debug_link(rvhal_profile_t *p);
/* One launch, from its record (never the device: launch_record.h). */
void rvhal_profile_record(rvhal_profile_t *p, const rvhal_launch_record_t *launch);
/* One queue command, on the queue's track of the trace (host clock ns). */
void rvhal_profile_queue_command(rvhal_profile_t *p, uint64_t created_ns, uint32_t queue_id, const char *what,
                                 uint64_t queued_ns, uint64_t submitted_ns, uint64_t started_ns, uint64_t ended_ns);
/* The trace's process name (Perfetto shows "Process 1" without one). */
void rvhal_profile_name_process(rvhal_profile_t *p, const char *name);

/* The host's tracks in the trace, beside the harts' (tid HOST_TID + track). */
typedef enum rvhal_profile_track {
  RVHAL_PROFILE_TRACK_CALLS = 0,    /* API calls: mem_write, mem_read, ... */
  RVHAL_PROFILE_TRACK_LAUNCHES = 1, /* each launch, submit to completion seen */
  RVHAL_PROFILE_TRACK_WAITS = 2,    /* the host waiting: queue_finish */
} rvhal_profile_track_t;
#define RVHAL_PROFILE_HOST_TID 900u

/* A span on a host track (host clock ns; bytes 0: none said). */
void rvhal_profile_host_call(rvhal_profile_t *p, uint64_t created_ns, rvhal_profile_track_t track, const char *name,
                             uint64_t bytes, uint64_t start_ns, uint64_t end_ns);

/* A call, from its start to its end, on the API-calls track
 * (observe.h's RVHAL_OBSERVE_CALL). */
typedef struct rvhal_profile_call {
  rvhal_profile_t *p;
  uint64_t created_ns;
  const char *name;
  uint64_t bytes, start_ns;
} rvhal_profile_call_t;
rvhal_profile_call_t rvhal_profile_call_begin_(rvhal_profile_t *p, uint64_t created_ns, const char *name,
                                               uint64_t bytes);
void rvhal_profile_call_end_(rvhal_profile_call_t *c);

/* Finishes the files (closes the JSON, draws the SVG) and frees. */
void rvhal_profile_close(rvhal_profile_t *p);

#endif /* RVHAL_HOST_PROFILE_H */
