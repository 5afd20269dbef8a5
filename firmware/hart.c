/* The harts' own state (fw_hart.h): set up once per hart at start-up. */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_isolation.h"
#include "fw_launch.h"
#include "fw_mmio.h"

fw_hart_t fw_harts[RVHAL_MAX_HARTS];
uint32_t fw_num_harts;

void fw_hart_init(uint32_t index) {
  fw_hart_t *hart = &fw_harts[index];
  rvhal_ctrl_t *ctrl = FW_CTRL;
  const rvhal_boot_config_t *b = &ctrl->boot;
  hart->index = index;
  hart->launch = hart->assigned = &fw_launches[0]; /* never NULL: a trap's record reads it */
  hart->block = &ctrl->harts[index];
  memset(hart->block->counters, 0, sizeof hart->block->counters);
  hart->block->counters_seq = 0;
  memset(&hart->block->trap, 0, sizeof hart->block->trap);
  hart->call.abi_version = RVHAL_KERNEL_ABI_VERSION;
  hart->call.hart_index = index;
  hart->call.services = &fw_services;
  hart->call.counters = hart->block->counters;
  hart->call.local_mem_size = b->local_mem_size;
  /* A hart's pool of work-item stacks starts with a guard like its stack's. */
  uintptr_t pool = (uintptr_t)(b->fibers_base + (uint64_t)index * b->fiber_pool_size);
  hart->call.fiber_pool = pool + RVHAL_STACK_GUARD;
  hart->call.fiber_pool_size = (uintptr_t)b->fiber_pool_size - RVHAL_STACK_GUARD;
  hart->call.fiber_stack_size = (uintptr_t)b->fiber_stack_size;
  /* Below the stack and the pool, guards no kernel reaches; and what a
   * U-mode kernel may reach at all (fw_isolation.h). A privileged kernel
   * has only the canary above the stack's guard. */
  fw_isolation_hart(index);
  /* The kernel's block at the top of the hart's stack (user.c). */
  uintptr_t top = (uintptr_t)(b->stacks_base + (uint64_t)(index + 1) * b->hart_stack_size);
  hart->user = (fw_user_t *)((top - sizeof(fw_user_t)) & ~(uintptr_t)15);
  *fw_stack_canary(index) = FW_STACK_CANARY;
  fw_timer_set(index, FW_TIMER_OFF);
  fw_board_hart_init(index);
}
