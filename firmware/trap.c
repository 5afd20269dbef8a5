/* Kernel faults and stops. A kernel that raises an exception, or whose
 * runtime gives up (fail service), is stopped: the reason goes into its
 * hart's trap report, the launch is marked failed, the other harts of the
 * launch stop taking work and are woken if they sleep in a barrier, and the
 * hart unwinds to the scheduler, so the device keeps working. A fault in the
 * firmware itself is fatal and reported to the host. */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_launch.h"
#include "fw_mmio.h"
#include "rvhal/rvhal_ecall.h"

/* The trapping hart's scratch: just above its trap frame, whose top was
 * xscratch (fw_asm.h); no hart-id CSR needed, in either mode. */
static fw_scratch_t *scratch_of_frame(uintptr_t *frame) {
  return (fw_scratch_t *)(frame + FW_TRAP_FRAME_WORDS);
}

/* Runs on the trap stack after leaving trap context (xscratch = its top =
 * the hart's scratch). */
static void fw_kernel_unwind(void) {
  fw_scratch_t *s = (fw_scratch_t *)xcsr_read(CSR_XSCRATCH);
  xcsr_write(CSR_XIE, s->ie); /* a U-mode share runs with xie = 0 (scheduler.c) */
  xcsr_set(CSR_XSTATUS, XSTATUS_FS_INITIAL); /* longjmp restores FP registers */
  longjmp(s->hart->recover, 1);
}

/* Record why the running kernel stopped and stop the launch. */
static void stop_launch(fw_hart_t *hart, uint32_t kind, int32_t status, uintptr_t cause, uintptr_t epc,
                        uintptr_t tval, uintptr_t sp, uintptr_t ra, const char *detail) {
  rvhal_trap_report_t *r = &hart->block->trap;
  r->kind = kind;
  r->status = status;
  r->mcause = cause;
  r->mepc = epc;
  r->mtval = tval;
  r->sp = sp;
  r->ra = ra;
  r->entry = (uintptr_t)hart->launch->entry;
  memset(r->detail, 0, sizeof r->detail);
  if (detail) {
    size_t n = strlen(detail);
    memcpy(r->detail, detail, n < sizeof r->detail - 1 ? n : sizeof r->detail - 1);
  }
  fw_fence();
  r->seq = hart->launch->seq;
  fw_launch_fail(hart, status);
  hart->in_kernel = 0;
}

#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_ECALL_U FW_CAUSE_ECALL_U /* RVHAL_ECALL_RETURN never gets here: start.S */

/* An ecall from a U-mode kernel (abi/rvhal/rvhal_ecall.h). Returns to the
 * kernel, or leaves it through fw_kernel_unwind. */
static void user_ecall(fw_hart_t *hart, fw_scratch_t *scratch, uintptr_t *frame, uintptr_t epc) {
  const uintptr_t a0 = frame[10], a1 = frame[11], a2 = frame[12], a3 = frame[13], a4 = frame[14];
  switch (frame[17]) {
  case RVHAL_ECALL_TEAM_BARRIER: {
    if (fw_team_wait(&hart->call)) {
      hart->in_kernel = 0; /* another hart recorded why */
      fw_trap_leave_to((uintptr_t)scratch, fw_kernel_unwind);
    }
    break;
  }
  case RVHAL_ECALL_PRINT:
    if (!fw_user_readable(hart, a2, a3)) {
      char why[sizeof hart->block->trap.detail];
      fw_format(why, sizeof why, "print: text at address 0x%lx outside its memory", (unsigned long)a2);
      stop_launch(hart, RVHAL_TRAP_EXCEPTION, RVHAL_KERNEL_TRAP, CAUSE_ECALL_U, epc, a2, frame[2], frame[1], why);
      fw_trap_leave_to((uintptr_t)scratch, fw_kernel_unwind);
    }
    fw_print_record(hart->index, (uint64_t)a0 | (uint64_t)a1 << 16 << 16, (const char *)a2, (uint32_t)a3,
                    (uint32_t)a4);
    break;
  case RVHAL_ECALL_FAIL: {
    char detail[64];
    size_t n = 0;
    while (n < sizeof detail - 1 && fw_user_readable(hart, a1 + n, 1) && ((const char *)a1)[n]) {
      detail[n] = ((const char *)a1)[n];
      n++;
    }
    detail[n] = 0;
    stop_launch(hart, RVHAL_TRAP_SOFTWARE, (int32_t)a0, 0, epc, (uintptr_t)((uint64_t)a2 | (uint64_t)a3 << 16 << 16),
                frame[2], frame[1], detail);
    fw_trap_leave_to((uintptr_t)scratch, fw_kernel_unwind);
  }
  default: {
    char why[sizeof hart->block->trap.detail];
    fw_format(why, sizeof why, "unknown environment call number %ld (a7)", (long)frame[17]);
    stop_launch(hart, RVHAL_TRAP_EXCEPTION, RVHAL_KERNEL_TRAP, CAUSE_ECALL_U, epc, frame[17], frame[2], frame[1], why);
    fw_trap_leave_to((uintptr_t)scratch, fw_kernel_unwind);
  }
  }
  xcsr_write(CSR_XEPC, epc + 4);
}

void fw_trap_handler(uintptr_t *frame) {
  uintptr_t cause = xcsr_read(CSR_XCAUSE), epc = xcsr_read(CSR_XEPC), tval = xcsr_read(CSR_XTVAL);
  fw_scratch_t *scratch = scratch_of_frame(frame);
  uint32_t index = scratch->index;
  fw_hart_t *hart = &fw_harts[index];

  if ((intptr_t)cause < 0) return; /* interrupts are never enabled globally; ignore */

  /* The kernel is what runs in U-mode (or in our mode, privileged, while
   * in_kernel); anything else is ours. */
  const int from_kernel = (xcsr_read(CSR_XSTATUS) & XSTATUS_XPP_MASK) == 0 ||
                          (hart->in_kernel && hart->launch->privileged);
  if (from_kernel && cause == CAUSE_ECALL_U) {
    user_ecall(hart, scratch, frame, epc);
    return;
  }
  /* The kernel's first FP instruction of the launch: FS was off (scheduler.c). */
  if (FW_HAS_FP && from_kernel && cause == CAUSE_ILLEGAL_INSTRUCTION &&
      (xcsr_read(CSR_XSTATUS) & XSTATUS_FS_MASK) == 0) {
    xcsr_set(CSR_XSTATUS, XSTATUS_FS_INITIAL);
    hart->user->call.fp_live = 1;
    return; /* retry it */
  }
  if (!from_kernel) {
    char what[80];
    fw_format(what, sizeof what, "firmware exception on hart %u: " FW_PRIV_NAME "-mode cause %lu at pc 0x%lx, tval", (unsigned)index,
              (unsigned long)cause, (unsigned long)epc);
    fw_fail(RVHAL_FIRMWARE, what, tval);
  }
  stop_launch(hart, RVHAL_TRAP_EXCEPTION, RVHAL_KERNEL_TRAP, cause, epc, tval, frame[2], frame[1], 0);
  fw_trap_leave_to((uintptr_t)scratch, fw_kernel_unwind);
}

void fw_kernel_fail(const rvhal_call_info_t *ci, int32_t status, const char *detail, uint64_t value) {
  fw_hart_t *hart = &fw_harts[ci->hart_index];
  uintptr_t sp;
  __asm__ volatile("mv %0, sp" : "=r"(sp));
  stop_launch(hart, RVHAL_TRAP_SOFTWARE, status, 0, (uintptr_t)__builtin_return_address(0), (uintptr_t)value, sp,
              (uintptr_t)__builtin_return_address(0), detail);
  longjmp(hart->recover, 1);
}
