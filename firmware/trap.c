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

/* The trapping hart's scratch: just above its trap frame, whose top was
 * xscratch (fw_asm.h); no hart-id CSR needed, in either mode. */
static fw_scratch_t *scratch_of_frame(uintptr_t *frame) {
  return (fw_scratch_t *)(frame + FW_TRAP_FRAME_WORDS);
}

/* Runs on the trap stack after leaving trap context (xscratch = its top =
 * the hart's scratch). */
static void fw_kernel_unwind(void) {
  fw_scratch_t *s = (fw_scratch_t *)xcsr_read(CSR_XSCRATCH);
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
  r->entry = (uintptr_t)fw_launch.entry;
  memset(r->detail, 0, sizeof r->detail);
  if (detail) {
    size_t n = strlen(detail);
    memcpy(r->detail, detail, n < sizeof r->detail - 1 ? n : sizeof r->detail - 1);
  }
  fw_fence();
  r->seq = fw_launch.seq;
  fw_launch_fail(hart, status);
  hart->in_kernel = 0;
}

void fw_trap_handler(uintptr_t *frame) {
  uintptr_t cause = xcsr_read(CSR_XCAUSE), epc = xcsr_read(CSR_XEPC), tval = xcsr_read(CSR_XTVAL);
  fw_scratch_t *scratch = scratch_of_frame(frame);
  uint32_t index = scratch->index;
  fw_hart_t *hart = &fw_harts[index];

  if ((intptr_t)cause < 0) return; /* interrupts are never enabled globally; ignore */

  if (!hart->in_kernel) {
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
