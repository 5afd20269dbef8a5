/* The kernel's side of a share (user.c, user_loop.c): what a kernel sees
 * of the firmware's per-call state, and the U-mode claim loop's state. */
#ifndef FW_USER_H
#define FW_USER_H

#include <stdint.h>

#include "fw_claim.h"
#include "fw_hart.h"
#include "rvhal/hal_sched_info.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal/rvhal_protocol.h"

/* The claim state a U-mode claim loop (user_loop.c) shares with the other
 * harts of its launch, one per lane: on a page every kernel may write (a
 * kernel that writes it disturbs only launches of its own program: lanes
 * run one program); reset at each launch's start, abort mirrored from the
 * launch (launch_owner.c). */
typedef struct fw_user_shared {
  volatile uintptr_t next_chunk;
  volatile uint32_t abort;
} fw_user_shared_t;

/* A U-mode claim loop's state (user_loop.c): in the kernel's block, filled
 * per share; groups and kernel_cycles come back (counters only). */
typedef struct fw_uloop {
  fw_user_shared_t *shared;
  hal_sched_info_t *sched;
  hal_kernel_entry_t entry;
  void *args;
  uintptr_t chunk, ngx, ngy, per_row, total;
  uintptr_t team, teams, exact, counting;
  uint64_t groups, kernel_cycles;
  fw_nonuniform_t nu; /* fw_user_loop_nonuniform's geometry */
} fw_uloop_t;

/* What a kernel of hart i may see of the firmware's per-call state: at the
 * top of the hart's stack (the kernel's memory), filled per launch. The
 * firmware writes it and never trusts what it reads back. */
typedef struct fw_user {
  rvhal_launch_desc_t desc; /* a copy of the launch's; its packed arguments are copied just below this block */
  rvhal_call_info_t call;
  hal_sched_info_t sched;
  rvhal_team_t team; /* the team's, in its leader's block */
  uint64_t counters[RVHAL_NUM_HART_COUNTERS]; /* what the SDK counts, added to the hart's after the share */
  fw_uloop_t loop; /* a U-mode claim loop's state (scheduler.c) */
} fw_user_t;

/* user.c */
void fw_user_setup(fw_hart_t *hart);        /* per launch: the kernel's block and its memory map */
int fw_user_readable(const fw_hart_t *hart, uintptr_t p, uintptr_t n);
void fw_user_program_installed(const rvhal_launch_desc_t *d);

/* user_loop.c: U-mode code and its shared page (linker/firmware.ld.S) */
void fw_user_loop(fw_uloop_t *u);
void fw_user_loop_nonuniform(fw_uloop_t *u); /* RVHAL_LAUNCH_NON_UNIFORM launches */
extern fw_user_shared_t fw_user_shared[2]; /* one per lane (FW_LANES, fw_launch.h) */
extern uint8_t __fw_user_start[], __fw_user_shared[], __fw_user_end[];

#endif /* FW_USER_H */
