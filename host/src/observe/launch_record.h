/* What a launch produced, as the launch module (launch.c) read it once from
 * the device, range-checked: observability (observe/: counters, profiles)
 * takes this record and never looks at the device itself, and callers that
 * time commands (queues, command buffers) take the launch's times from it
 * instead of fields of the device left behind by the last launch. */
#ifndef RVHAL_HOST_LAUNCH_RECORD_H
#define RVHAL_HOST_LAUNCH_RECORD_H

#include <stdint.h>

#include "rvhal/rvhal_counters.h"
#include "rvhal/rvhal_limits.h"
#include "rvhal/rvhal_protocol.h"

/* When a launch ran, on the device clock (ns since the device's time 0). */
typedef struct rvhal_launch_times {
  uint64_t start_ns, end_ns; /* first hart started, last hart ended */
  uint64_t device_ns;        /* end - start */
} rvhal_launch_times_t;

/* One hart's part. */
typedef struct rvhal_launch_hart_record {
  int took_part;                                 /* its counters are this launch's (else all zero) */
  uint64_t counters[RVHAL_HART_COUNTER_SLOTS];   /* by RVHAL_HART_COUNTER_* id */
  uint64_t start_cycle, end_cycle;
  const rvhal_trace_event_t *events;             /* a host copy (RVHAL_LAUNCH_TRACE), at most trace_capacity */
  uint32_t num_events, dropped;                  /* dropped: events the device had no room for */
} rvhal_launch_hart_record_t;

typedef struct rvhal_launch_record {
  uint64_t seq;
  const char *kernel;
  uint32_t work_dim;
  uint64_t global[3], local[3], groups;
  uint32_t harts, harts_per_group;
  uint64_t host_start_ns; /* since the device was created */
  uint64_t host_ns;       /* submit to completion */
  uint64_t device_ticks;  /* launch span, device timebase */
  rvhal_launch_times_t times;
  /* the device's facts that say how to read the numbers */
  uint64_t timebase_hz;
  uint32_t num_harts;        /* of the device: hart[0 .. num_harts) are filled in */
  uint32_t trace_capacity;   /* events a hart can record per launch */
  int exact_timing;          /* -icount: cycles are virtual and repeatable */
  int plugin_counts;         /* rvhal's QEMU plugin counted instructions per hart */
  int debug_counts;          /* the DEBUG_* counters of every hart were read through a debug link */
  rvhal_launch_hart_record_t hart[RVHAL_MAX_HARTS];
} rvhal_launch_record_t;

#endif /* RVHAL_HOST_LAUNCH_RECORD_H */
