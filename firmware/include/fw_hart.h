/* A hart's own state (hart.c owns it): what boot publishes for it, its
 * scratch (for the trap entry), its stack's canary, and what its current
 * share needs. State of other subsystems lives with them: the launch's in
 * fw_launch.h, a team's in fw_team.h, isolation's in its scheme's file. */
#ifndef FW_HART_H
#define FW_HART_H

#include <setjmp.h>
#include <stdint.h>

#include "fw_asm.h"
#include "fw_ctrl.h"
#include "fw_team.h"
#include "rvhal/rvhal_kernel_abi.h"

struct fw_user;
struct fw_launch;

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

typedef struct fw_hart {
  uint32_t index;
  uint32_t in_kernel; /* a trap now is the kernel's, not the firmware's */
  uintptr_t seen_gen; /* last launch generation this hart saw */
  struct fw_launch *volatile assigned; /* the lane to join at the next generation (hart 0 sets it first) */
  struct fw_launch *launch;            /* this share's launch (fw_launch.h) */
  rvhal_hart_block_t *block;
  jmp_buf recover;    /* where a trapping kernel call unwinds to */
  uint32_t barrier_sense; /* this hart's sense for team barriers */
  rvhal_call_info_t call;
  fw_team_t *team;                 /* this share's team (fw_team.h) */
  struct fw_user *user;            /* top of this hart's stack (fw_user.h) */
  void *kernel_args;               /* per launch: the packed arguments the kernel gets */
  uintptr_t kernel_sp;             /* and its stack pointer */
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
extern uint32_t fw_num_harts; /* harts the boot configuration asked for */

/* Each hart at start-up (boot.c): its state, its guards and isolation, its
 * canary, its board-specific set-up. */
void fw_hart_init(uint32_t index);

#endif /* FW_HART_H */
