/* The launch module's state and the steps of a launch that command lists
 * share (command_list_encode.c), private to launch/ (launch.h is its
 * face). */
#ifndef RVHAL_HOST_LAUNCHER_H
#define RVHAL_HOST_LAUNCHER_H

#include "launch/launch.h"
#include "launch/launch_plan.h"
#include "observe/print_drain.h"

/* What launches on a device keep between them. It describes the firmware
 * of one boot: rvhal_launcher() notices a new boot from the core's count
 * and starts afresh (nothing installed, no launch on the ring). */
struct rvhal_launcher {
  rvhal_device_t *device;
  /* The device as launches see it, fixed for its lifetime. */
  rvhal_backend_t *backend;
  rvhal_ctrl_t *ctrl;
  const rvhal_layout_t *layout;
  const rvhal_device_info_t *info;
  const rvhal_device_options_t *options;
  uint32_t host_cpus;        /* cores this process may run on */
  uint32_t host_spin_ns;     /* $RVHAL_HOST_SPIN_NS: spin before sleeping on a launch (0: adaptive) */
  uint64_t boots;            /* the boot this state describes */
  hal_program_t resident;    /* program installed in the program area (0: none) */
  uint64_t seq;              /* last launch submitted */
  uint64_t retired;          /* last launch whose completion the host has read (seq - retired: on the device) */
  int lost;                  /* the device stopped and could not be restarted */
  rvhal_print_state_t print;
  uint64_t recent_launch_ns; /* running average of launches' device times: how long to spin */
  uint64_t recent_wake_ns;   /* the same of a doorbell's wake-up: round trip minus device time */
  uint64_t tlb_entries;      /* what the harts' TLBs were grown to (0: not yet) */
  int placed_cpu;            /* host CPU hart 0 was last kept off (-1: none) */
  /* Command lists in the firmware region (command_list_encode.c): bytes
   * handed out, and a count bumped whenever they are all thrown away (area
   * full). */
  uint32_t cmdlist_used;
  uint64_t cmdlist_epoch;
};

/* The device's launch state, up to date with its boot count. */
rvhal_launcher_t *rvhal_launcher(const rvhal_device_t *d);

/* The steps before a slot is written, for command lists too: the program
 * and kernel looked up, the launch checked and planned (launch_plan.h),
 * its buffers found in global memory. Nothing on the device is written. */
typedef struct rvhal_launch_prepared {
  rvhal_launch_plan_t plan;
  const rvhal_launch_request_t *request;
  uint64_t entry;        /* the kernel's device address */
  uint64_t buffer_bytes; /* of the allocations its buffer arguments are in */
} rvhal_launch_prepared_t;
int rvhal_launch_prepare(rvhal_device_t *d, const rvhal_launch_request_t *r, rvhal_launch_prepared_t *out);
/* Writes a prepared launch into desc and args_buf (at device address
 * args_dev), filling all of out but t0; desc->seq is the next seq, nothing
 * is installed or published. Cannot fail: every check was made. */
void rvhal_launch_encode(rvhal_device_t *d, const rvhal_launch_prepared_t *pr, rvhal_launch_desc_t *desc,
                         uint8_t *args_buf, uint64_t args_dev, rvhal_launch_t *out);
/* A kernel's own fail call stopped launch seq on one of harts [first,
 * end): its error (RVHAL_KERNEL_FAILED with the kernel's code, or one of
 * the codes a kernel may report), else RVHAL_OK. status: the completion's
 * (RVHAL_OK: a fail call with code 0 stops the launch, which then
 * completes with RVHAL_OK; else the report must carry that code). */
int rvhal_launch_kernel_report(const rvhal_device_t *d, uint64_t seq, int32_t status, uint32_t first, uint32_t end,
                               const char *kname);
/* The ring's next slot, unless the ring is full (RVHAL_BUSY naming `who`). */
int rvhal_launch_next_slot(rvhal_device_t *d, const char *who, rvhal_launch_slot_t **out_slot);
/* The program's staged copy written again unless it is the one the device
 * will have installed; then (nothing can fail after) its installs put in
 * desc, or none when it is resident, and it is resident from here on. */
int rvhal_launch_stage(rvhal_device_t *d, hal_program_t program);
void rvhal_launch_install(rvhal_device_t *d, hal_program_t program, rvhal_launch_desc_t *desc);
/* A launch that may not have installed its program (cancelled, rejected,
 * lost): the next one installs again. */
void rvhal_launch_forget_resident(rvhal_device_t *d);
/* Puts ring slot desc (filled in, desc->seq the next seq) on the device. */
int rvhal_launch_publish(rvhal_device_t *d, const rvhal_launch_desc_t *desc, rvhal_launch_t *out);
/* Waits for launch l; *out_done is its completion record, checked. */
int rvhal_launch_wait(rvhal_device_t *d, rvhal_launch_t *l, int more, rvhal_completion_t *out_done,
                      uint64_t *out_t1);
/* What a checked completion record means for launch l, as kernel_exec reports it. */
int rvhal_launch_outcome(rvhal_device_t *d, const rvhal_launch_t *l, const rvhal_completion_t *checked, uint64_t t1);

#endif /* RVHAL_HOST_LAUNCHER_H */
