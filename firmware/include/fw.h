/* What the firmware's files share: each module's interface (state lives in
 * its owner's header: fw_hart.h, fw_launch.h, fw_team.h, fw_user.h). */
#ifndef FW_H
#define FW_H

#include <stdint.h>

#include "fw_asm.h"
#include "fw_ctrl.h"
#include "fw_format.h"
#include "fw_hart.h"
#include "fw_user.h"
#include "rvhal/hal_sched_info.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal/rvhal_protocol.h"
#include "rvhal/rvhal_status.h"

extern const rvhal_services_t fw_services; /* kernel_services.c */

/* failure.c */
void fw_fail(int32_t status, const char *what, uint64_t value) __attribute__((noreturn));

/* shared_u64.c */
uint64_t fw_load_u64(const volatile uint64_t *p);
void fw_store_u64(volatile uint64_t *p, uint64_t v);

/* scheduler.c */
uint64_t fw_run_launch(uint64_t seq);  /* hart 0: seq, maybe seq + 1 beside it; returns once every hart is done: the next seq */
void fw_run_share(fw_hart_t *hart);    /* one hart's part of the running launch */
void fw_run_cmdlist(uint64_t seq);     /* hart 0: the command list of ring launch seq (command_list_walk.c) */
void fw_worker_loop(fw_hart_t *hart) __attribute__((noreturn));

/* ring_loop.c */
void fw_ring_loop(fw_hart_t *hart) __attribute__((noreturn));

/* team_barrier.c */
void fw_team_barrier(const rvhal_call_info_t *ci);
int fw_team_wait(const rvhal_call_info_t *ci); /* nonzero: the launch failed meanwhile */

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
