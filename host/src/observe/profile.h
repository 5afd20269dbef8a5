/* Profiles of every launch, for people to read and look at: a per-hart
 * table (stderr), a CSV (one row per launch and hart), a Chrome trace-event
 * JSON timeline (Perfetto, chrome://tracing) and an SVG timeline. Turned on
 * by rvhal_device_options_t.profile or $RVHAL_PROFILE. */
#ifndef RVHAL_HOST_PROFILE_H
#define RVHAL_HOST_PROFILE_H

#include <stdint.h>

#include "launch/launch_record.h"

typedef struct rvhal_profile rvhal_profile_t;

/* spec: "table", "csv=FILE", "trace=FILE", "svg=FILE", comma-separated. */
int rvhal_profile_open(const char *spec, rvhal_profile_t **out_profile);
/* Wants per-hart timeline events (trace or svg). */
int rvhal_profile_wants_events(const rvhal_profile_t *p);
/* One launch, from its record (never the device: launch_record.h). */
void rvhal_profile_record(rvhal_profile_t *p, const rvhal_launch_record_t *launch);
/* One queue command, on the queue's track of the trace (host clock ns). */
void rvhal_profile_queue_command(rvhal_profile_t *p, uint64_t created_ns, uint32_t queue_id, const char *what,
                                 uint64_t queued_ns, uint64_t submitted_ns, uint64_t started_ns, uint64_t ended_ns);
/* Finishes the files (closes the JSON, draws the SVG) and frees. */
void rvhal_profile_close(rvhal_profile_t *p);

#endif /* RVHAL_HOST_PROFILE_H */
