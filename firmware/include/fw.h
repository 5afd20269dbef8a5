/* Firmware-internal state shared by its files. */
#ifndef FW_H
#define FW_H

#include <setjmp.h>
#include <stdint.h>

#include "fw_asm.h"
#include "fw_format.h"
#include "fw_team.h"
#include "rvhal/hal_sched_info.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal/rvhal_protocol.h"
#include "rvhal/rvhal_status.h"

/* The control block and print rings, placed by the linker script after the
 * firmware image (RVHAL_CTRL_OFFSET / RVHAL_PRINT_OFFSET into the region). */
extern rvhal_ctrl_t fw_ctrl_block;
extern uint8_t fw_print_rings[];
#define FW_CTRL (&fw_ctrl_block)
#define FW_STACK_CANARY 0x5354414b43414e59ull

/* The lowest word a hart's stack may use (just above its guard): where its
 * canary lives. */
static inline volatile uint64_t *fw_stack_canary(uint32_t index) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  return (volatile uint64_t *)(uintptr_t)(b->stacks_base + (uint64_t)index * b->hart_stack_size + RVHAL_STACK_GUARD);
}

/* 1 if hart `index`'s canary was overwritten (a kernel frame jumped the
 * guard), re-armed for the next launch; the one canary check (scheduler.c
 * after a share, launch_owner.c for every hart at the launch's end). */
static inline int fw_stack_canary_broken(uint32_t index) {
  volatile uint64_t *canary = fw_stack_canary(index);
  if (*canary == FW_STACK_CANARY) return 0;
  *canary = FW_STACK_CANARY;
  return 1;
}

/* The launch being run; shared by its harts. */
typedef struct fw_launch {
  uint64_t seq;
  const rvhal_launch_desc_t *desc;
  hal_kernel_entry_t entry;
  void *args;
  uint64_t chunks_per_row; /* claims per row of groups along dimension 0 */
  uint64_t total_chunks;
  uint32_t participants;   /* harts taking part */
  uint32_t team_size;
  uint64_t start_mtime;
  volatile uintptr_t next_chunk; /* claimed with an atomic add */
  volatile uint32_t finished;   /* participants done */
  volatile int32_t status;      /* first error wins */
  volatile uint32_t abort;      /* set on error: take no more groups */
  volatile uint32_t fault_hart;
  volatile uint32_t turn;       /* exact timing: the team whose turn it is */
  volatile uint32_t arrived;    /* exact timing: harts asleep, waiting for their turn */
  uint32_t privileged; /* RVHAL_LAUNCH_PRIVILEGED: the kernel runs in our mode, not isolated */
} fw_launch_t;

/* The claim state a U-mode claim loop (user_loop.c) shares with the other
 * harts of its launch: on a page every kernel may write; reset at each
 * launch's start, abort mirrored from fw_launch (launch_owner.c). */
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

/* The memory a U-mode kernel may read on one hart, as [lo, hi) ranges
 * (pointers it hands to an ecall are checked against them). */
#define FW_USER_RANGES 4

typedef struct fw_hart {
  uint32_t index;
  uint32_t in_kernel; /* a trap now is the kernel's, not the firmware's */
  uintptr_t seen_gen; /* last launch generation this hart saw */
  uint32_t program_gen; /* the last program change whose residue this hart cleared from its stacks (user.c) */
  rvhal_hart_block_t *block;
  jmp_buf recover;    /* where a trapping kernel call unwinds to */
  uint32_t barrier_sense; /* this hart's sense for team barriers */
  rvhal_call_info_t call;
  fw_team_t *team;                 /* this share's team (fw_team.h) */
  fw_user_t *user;                 /* top of this hart's stack */
  void *kernel_args;               /* per launch: the packed arguments the kernel gets */
  uintptr_t kernel_sp;             /* and its stack pointer */
  uintptr_t user_lo[FW_USER_RANGES], user_hi[FW_USER_RANGES];
} fw_hart_t;

/* Per-hart scratch: the top FW_SCRATCH_SIZE bytes of each hart's boot
 * stack; its trap stack lies just below (fw_asm.h). */
typedef struct fw_scratch {
  uint32_t index;
  uint32_t hartid;
  fw_hart_t *hart;
  uintptr_t fw_sp __attribute__((aligned(8)));
  uintptr_t ie __attribute__((aligned(8)));
  uintptr_t t0 __attribute__((aligned(8)));
  uintptr_t t1 __attribute__((aligned(8)));
  uintptr_t ra __attribute__((aligned(8)));
} fw_scratch_t;
_Static_assert(__builtin_offsetof(fw_scratch_t, index) == FW_SCRATCH_INDEX_OFS, "start.S writes it");
_Static_assert(__builtin_offsetof(fw_scratch_t, hartid) == FW_SCRATCH_HARTID_OFS, "start.S writes it");
_Static_assert(__builtin_offsetof(fw_scratch_t, hart) == FW_SCRATCH_HART_OFS, "pinned for assembly");
_Static_assert(__builtin_offsetof(fw_scratch_t, fw_sp) == FW_SCRATCH_FWSP_OFS, "pinned for assembly");
_Static_assert(__builtin_offsetof(fw_scratch_t, ie) == FW_SCRATCH_IE_OFS, "pinned for assembly");
_Static_assert(__builtin_offsetof(fw_scratch_t, t0) == FW_SCRATCH_T0_OFS, "pinned for assembly");
_Static_assert(__builtin_offsetof(fw_scratch_t, t1) == FW_SCRATCH_T1_OFS, "pinned for assembly");
_Static_assert(__builtin_offsetof(fw_scratch_t, ra) == FW_SCRATCH_RA_OFS, "pinned for assembly");
_Static_assert(sizeof(fw_scratch_t) <= FW_SCRATCH_SIZE, "fits its slot");

/* Hart `index`'s scratch; its trap stack's top is the scratch's address. */
static inline fw_scratch_t *fw_scratch_of(uint32_t index) {
  extern uint8_t fw_boot_stacks[];
  return (fw_scratch_t *)(fw_boot_stacks + (uintptr_t)(index + 1) * FW_BOOT_STACK_SIZE - FW_SCRATCH_SIZE);
}

extern fw_hart_t fw_harts[RVHAL_MAX_HARTS];
extern fw_launch_t fw_launch;
extern volatile uintptr_t fw_launch_gen;
extern uint32_t fw_num_harts;
extern const rvhal_services_t fw_services;

/* boot.c */
void fw_fail(int32_t status, const char *what, uint64_t value) __attribute__((noreturn));
uint64_t fw_load_u64(const volatile uint64_t *p);
void fw_store_u64(volatile uint64_t *p, uint64_t v);

/* scheduler.c */
void fw_run_launch(uint64_t seq);      /* hart 0; returns once every hart is done with it */
void fw_run_share(fw_hart_t *hart);    /* one hart's part of the running launch */
void fw_run_cmdlist(uint64_t seq);     /* hart 0: the command list of ring launch seq (command_list_walk.c) */
void fw_worker_loop(fw_hart_t *hart) __attribute__((noreturn));

/* ring_loop.c */
void fw_ring_loop(fw_hart_t *hart) __attribute__((noreturn));

/* team_barrier.c */
void fw_team_barrier(const rvhal_call_info_t *ci);
int fw_team_wait(const rvhal_call_info_t *ci); /* nonzero: the launch failed meanwhile */

/* user.c */
void fw_user_setup(fw_hart_t *hart);        /* per launch: the kernel's block and its memory map */
int fw_user_readable(const fw_hart_t *hart, uintptr_t p, uintptr_t n);
void fw_user_program_installed(const rvhal_launch_desc_t *d);

/* user_loop.c: U-mode code and its shared page (linker/firmware.ld.S) */
void fw_user_loop(fw_uloop_t *u);
extern fw_user_shared_t fw_user_shared;
extern uint8_t __fw_user_start[], __fw_user_shared[], __fw_user_end[];

/* trap.c */
void fw_trap_handler(uintptr_t *frame);
void fw_kernel_fail(const rvhal_call_info_t *ci, int32_t status, const char *detail, uint64_t value)
    __attribute__((noreturn));

/* print_service.c */
void fw_print_record(uint32_t hart, uint64_t item, const char *text, uint32_t len, uint32_t flags);

/* start.S */
void fw_call_on_stack(void *arg, void (*fn)(void *), uintptr_t stack_top) __attribute__((noreturn));
void fw_trap_leave_to(uintptr_t trap_stack_top, void (*fn)(void)) __attribute__((noreturn));
/* Run a kernel call on `user_sp` (M-mode firmware: in U-mode). */
void fw_user_call(void *args, hal_sched_info_t *sched, uintptr_t entry, uintptr_t user_sp, fw_scratch_t *scratch);
void fw_priv_call(void *args, hal_sched_info_t *sched, uintptr_t entry, uintptr_t user_sp); /* RVHAL_LAUNCH_PRIVILEGED */
extern uint8_t fw_main_stacks[];
extern uint8_t fw_boot_stacks[];


#endif /* FW_H */
