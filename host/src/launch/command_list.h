/* Command lists on the host (rvhal_cmdlist.h is the device's side): the
 * commands a command buffer recorded (queue/command_buffer.c) and their
 * encodings in the firmware region's command-list area
 * (command_list_encode.c), which the firmware walks from one ring entry.
 * A face of launch/: the queue module records into it and runs it. */
#ifndef RVHAL_HOST_COMMAND_LIST_H
#define RVHAL_HOST_COMMAND_LIST_H

#include "launch/launch.h"
#include "rvhal/queue.h"

typedef enum { RVHAL_CB_KERNEL, RVHAL_CB_COPY, RVHAL_CB_FILL, RVHAL_CB_BARRIER } rvhal_cb_op_kind_t;

typedef struct rvhal_cb_op {
  rvhal_cb_op_kind_t kind;
  /* kernel */
  const rvhal_launch_request_t *launch; /* a reference */
  int32_t *bindings;                    /* per argument: binding slot, or -1; NULL: none */
  /* copy, fill */
  hal_addr_t dst, src;
  hal_size_t size, pattern_size;
  uint8_t pattern[RVHAL_FILL_PATTERN_MAX];
} rvhal_cb_op_t;

/* A global-buffer argument of a recorded launch, where its packed word lies
 * in the device's command list (every submission checks it, and rewrites
 * it when its binding changed). */
typedef struct rvhal_cb_patch {
  uint32_t op, arg;
  int32_t slot;     /* binding slot, or -1: the recorded address */
  uint32_t at;      /* byte offset of its word in the command list area */
  hal_addr_t value; /* what the list holds now */
} rvhal_cb_patch_t;

/* A command list in device memory, valid while device, boots and epoch
 * are those of the device. */
typedef struct rvhal_cb_encoding {
  const rvhal_device_t *device;
  uint64_t boots, epoch;
  uint32_t offset, bytes; /* in the area */
  uint32_t first_launch;  /* offset of the first launch's descriptor in the area, or UINT32_MAX */
  uint32_t *rec;          /* per op: offset of its descriptor (launches) in the area */
  rvhal_launch_t *launch; /* per op: a launch's facts, for its messages */
  rvhal_cb_patch_t *patches;
  uint32_t num_patches;
} rvhal_cb_encoding_t;

/* The commands, and two copies of their list on the device (under the
 * device's lock): a submission behind another of the same list patches the
 * one the device is not running. enc_busy: submissions of each on the
 * device. */
typedef struct rvhal_command_list {
  rvhal_cb_op_t *ops;
  uint32_t num_ops;
  hal_program_t program; /* the one program of its launches; 0: none yet */
  int several_programs;  /* launches of several programs: the host replays it */
  rvhal_cb_encoding_t enc[2];
  uint32_t enc_busy[2];
} rvhal_command_list_t;

/* Runs the list on device d, device lock held: the firmware walks its
 * command list from one ring entry (RVHAL_LAUNCH_CMDLIST), or, with
 * counters or a profile on or launches of several programs, the host runs
 * its commands in turn. The first failure stops it and is returned as the
 * blocking call gives it, naming the command; *out_times describes the
 * whole run on the device clock (zero when nothing ran on the device). */
int rvhal_cmdlist_run(rvhal_device_t *d, rvhal_command_list_t *list, const hal_addr_t *bindings,
                      rvhal_launch_times_t *out_times);
/* Frees what the list's encodings hold on the host. */
void rvhal_cmdlist_forget(rvhal_command_list_t *list);

/* A submission on the device (queue.c keeps it with its launches in flight). */
typedef struct rvhal_cmdlist_flight {
  rvhal_launch_t l; /* the ring entry */
  uint32_t enc, n;  /* the copy of the list, commands submitted */
  int nothing;      /* n == 0: nothing went to the device */
  int bad_rc;       /* n < the list's commands: command n was refused at submission, */
  char bad[1024];   /* ... with this message */
} rvhal_cmdlist_flight_t;

/* Device lock held. 1 if the list can go on the device behind launches
 * already there: the firmware runs it and a copy of it is ready. */
int rvhal_cmdlist_ready(rvhal_device_t *d, const rvhal_command_list_t *list);
/* Device lock and its hold held: checks, patches and publishes one
 * submission (after_ok: launches are on the device before it, and it does
 * not run if the last of them failed; no list is encoded then).
 * RVHAL_UNSUPPORTED: the host must run it (rvhal_cmdlist_run). */
int rvhal_cmdlist_submit(rvhal_device_t *d, rvhal_command_list_t *list, const hal_addr_t *bindings, int after_ok,
                         rvhal_cmdlist_flight_t *f);
/* Waits for it and reports as rvhal_cmdlist_run does. */
int rvhal_cmdlist_complete(rvhal_device_t *d, rvhal_command_list_t *list, const rvhal_cmdlist_flight_t *f, int more,
                           rvhal_launch_times_t *out_times);

#endif /* RVHAL_HOST_COMMAND_LIST_H */
