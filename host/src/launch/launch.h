/* Launches on a device, the face of launch/: the module's state (the
 * ring: launches submitted and retired, the program resident in the
 * program area, waiting, print output, command lists) and the launch in
 * two halves that queues and command buffers use. The kernel_exec calls
 * are the public API (rvhal/device.h). */
#ifndef RVHAL_HOST_LAUNCH_H
#define RVHAL_HOST_LAUNCH_H

#include <stdint.h>

#include "device/core.h"
#include "launch/launch_request.h"
#include "observe/launch_record.h"
#include "rvhal/rvhal_protocol.h"

typedef struct rvhal_launcher rvhal_launcher_t;

int rvhal_launcher_create(const rvhal_device_t *d, rvhal_launcher_t **out_launcher);
void rvhal_launcher_destroy(rvhal_launcher_t *l);
/* Where kernel print output goes (rvhal_device_set_print_fn). */
void rvhal_launcher_set_print_fn(const rvhal_device_t *d, rvhal_print_fn_t fn, void *user);
void rvhal_launcher_get_print_fn(const rvhal_device_t *d, rvhal_print_fn_t *out_fn, void **out_user);

/* A launch in two halves: submitted, then completed. Several can be on the
 * device at once, up to the ring's depth (queue.c does); they complete in
 * the order they were submitted. */
typedef struct rvhal_launch {
  uint64_t seq, boot;
  hal_program_t program;
  const char *kname;
  uint64_t t0, total_groups, chunk, global[3], local[3];
  uint32_t harts, team, work_dim;
  uint32_t timeout_ms; /* the launch's own; 0: the device's */
  int counting;
  int rang; /* the submission rang the doorbell: hart 0 was asleep (launch.c's spin) */
  int debug_counted; /* debug_start holds every hart's mcycle, minstret at submission (a debug link) */
  uint64_t debug_start[RVHAL_MAX_HARTS][2];
  rvhal_launch_times_t times; /* set when it completed (rvhal_launch_wait) */
} rvhal_launch_t;

/* The device lock and its hold (rvhal_device_hold) must be held from
 * submission until completion. Checks, packs and submits; order:
 * RVHAL_LAUNCH_AFTER_OK (the device cancels it if the launch before it
 * failed), RVHAL_LAUNCH_OVERLAP (it does not depend on the launch
 * before it: the device may run it beside that one) and RVHAL_LAUNCH_WATCH
 * (more may follow while it runs), or 0. */
int rvhal_launch_submit(rvhal_device_t *d, const rvhal_launch_request_t *r, uint32_t order, rvhal_launch_t *out);
/* 0 once launch l is seen to have ended, by a look at the ring (no
 * wait); 1 while it runs, and where a look would be a round trip to the
 * device (a debug link: there only rvhal_launch_complete tells). */
int rvhal_launch_running(rvhal_device_t *d, const rvhal_launch_t *l);
/* Waits for it and reports as kernel_exec does; more: later launches are on
 * the device (their print output waits). */
int rvhal_launch_complete(rvhal_device_t *d, rvhal_launch_t *l, int more);
/* The blocking call (kernel_exec): submit and complete, device lock and
 * hold taken; *out_times (may be NULL) when it ran. */
int rvhal_launch_run(rvhal_device_t *d, const rvhal_launch_request_t *r, rvhal_launch_times_t *out_times);

#endif /* RVHAL_HOST_LAUNCH_H */
