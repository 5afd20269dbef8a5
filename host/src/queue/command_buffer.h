/* Command buffers inside the library: what command_buffer.c records and
 * queue.c replays (rvhal/queue.h is the API). */
#ifndef RVHAL_HOST_COMMAND_BUFFER_H
#define RVHAL_HOST_COMMAND_BUFFER_H

#include "device/device_internal.h"
#include "rvhal/queue.h"

typedef enum { RVHAL_CB_KERNEL, RVHAL_CB_COPY, RVHAL_CB_FILL, RVHAL_CB_BARRIER } rvhal_cb_op_kind_t;

typedef struct rvhal_cb_op {
  rvhal_cb_op_kind_t kind;
  /* kernel */
  hal_program_t program;
  hal_kernel_t kernel;
  hal_ndrange_t ndrange;
  uint32_t num_args, work_dim;
  hal_arg_t *args;   /* POD values point into pod */
  uint8_t *pod;
  int32_t *bindings; /* per argument: binding slot, or -1; NULL: none */
  rvhal_launch_options_t options;
  int has_options;
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

/* The buffer's command list in device memory (launch/command_list_encode.c), valid while
 * device, boots and epoch are those of the device. */
typedef struct rvhal_cb_encoding {
  rvhal_device_t *device;
  uint64_t boots, epoch;
  uint32_t offset, bytes; /* in the area */
  uint32_t first_launch;  /* offset of the first launch's descriptor in the area, or UINT32_MAX */
  uint32_t *rec;          /* per op: offset of its descriptor (launches) in the area */
  rvhal_launch_t *launch; /* per op: a launch's facts, for its messages */
  rvhal_cb_patch_t *patches;
  uint32_t num_patches;
} rvhal_cb_encoding_t;

struct rvhal_command_buffer {
  rvhal_device_t *device;
  rvhal_cb_op_t *ops;
  uint32_t num_ops, cap_ops;
  uint32_t num_slots; /* binding slots used: 1 + the highest */
  int ended;
  uint32_t refs;           /* the caller's, and one per enqueued command (sync lock) */
  hal_program_t program;   /* the one program of its launches; 0: none yet */
  int several_programs;    /* launches of several programs: the host replays it */
  /* Two copies of its command list (under the device's lock): a submission
   * behind another of the same buffer patches the one the device is not
   * running. enc_busy: submissions of each on the device. */
  rvhal_cb_encoding_t enc[2];
  uint32_t enc_busy[2];
};

/* queue.c: the buffer as one queue command; it holds a reference. */
int rvhal_queue_enqueue_recorded(rvhal_queue_t *q, const rvhal_dependencies_t *deps, rvhal_command_buffer_t *cb,
                                 const hal_addr_t *bindings, uint32_t num_bindings, rvhal_event_t **out_event);
/* Drops a reference (sync lock held); the last frees the buffer. */
void rvhal_command_buffer_release_locked(rvhal_command_buffer_t *cb);

/* command_list_encode.c: runs the buffer on its device, device lock held:
 * the firmware walks its command list from one ring entry
 * (RVHAL_LAUNCH_CMDLIST), or, with counters or a profile on or launches of
 * several programs, the host runs its commands in turn. The first failure
 * stops it and is returned as the blocking call gives it, naming the
 * command; *out_times describes the whole run on the device clock (zero
 * when nothing ran on the device). */
int rvhal_cmdlist_run(rvhal_device_t *d, rvhal_command_buffer_t *cb, const hal_addr_t *bindings,
                      uint32_t num_bindings, rvhal_launch_times_t *out_times);
/* Frees what the encoding holds on the host. */
void rvhal_cmdlist_forget(rvhal_cb_encoding_t *enc);

/* A submission on the device (queue.c keeps it with its launches in flight). */
typedef struct rvhal_cmdlist_flight {
  rvhal_launch_t l; /* the ring entry */
  uint32_t enc, n;  /* the copy of the list, commands submitted */
  int nothing;      /* n == 0: nothing went to the device */
  int bad_rc;       /* n < the buffer's commands: command n was refused at submission, */
  char bad[1024];   /* ... with this message */
} rvhal_cmdlist_flight_t;

/* Device lock held. 1 if the buffer can go on the device behind launches
 * already there: the firmware runs it and a copy of its list is ready. */
int rvhal_cmdlist_ready(rvhal_device_t *d, const rvhal_command_buffer_t *cb);
/* Device lock held: checks, patches and publishes one submission (after_ok:
 * launches are on the device before it, and it does not run if the last of
 * them failed; no list is encoded then). RVHAL_UNSUPPORTED: the host must
 * run it (rvhal_cmdlist_run). */
int rvhal_cmdlist_submit(rvhal_device_t *d, rvhal_command_buffer_t *cb, const hal_addr_t *bindings, int after_ok,
                         rvhal_cmdlist_flight_t *f);
/* Waits for it and reports as rvhal_cmdlist_run does. */
int rvhal_cmdlist_complete(rvhal_device_t *d, rvhal_command_buffer_t *cb, const rvhal_cmdlist_flight_t *f, int more,
                           rvhal_launch_times_t *out_times);

#endif /* RVHAL_HOST_COMMAND_BUFFER_H */
