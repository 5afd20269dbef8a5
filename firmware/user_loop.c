/* The claim loop of a U-mode share (a hart alone in its team, no trace):
 * firmware code that runs in U-mode, on the kernel's stack, so that a
 * work-group dispatch is a plain call and return, not a trip through the
 * firmware (an mret and an ecall per group: docs/performance.md, "Figures
 * behind the code's choices"). The firmware enters it once per share with
 * fw_user_call and gets control back when it returns (to fw_user_return,
 * start.S).
 *
 * It lives on its own page (.usertext, linker/firmware.ld.S), which a
 * U-mode kernel may execute but not write; the claim counter and the abort
 * flag lie on the page after it (.usershared), which every kernel may
 * write: a kernel that writes them only skips or repeats groups of its own
 * launch. Its state block (fw_uloop_t) lies in the kernel's memory too, so
 * the firmware trusts nothing it reads back from either (only counters,
 * which the host checks). Nothing here may reach firmware data: no globals,
 * no calls but the kernel's entry. */
#include "fw.h"
#include "fw_claim.h"
#include "fw_mmio.h"

/* The cycle counter as U-mode reads it (mcounteren/scounteren allow it);
 * inline: this page may call nothing. */
static inline uint64_t cycles(void) { return FW_READ_COUNTER64("cycle"); }

fw_user_shared_t fw_user_shared[2] __attribute__((section(".usershared"), aligned(4096)));

__attribute__((section(".usertext"), noinline, used)) void fw_user_loop(fw_uloop_t *u) {
  volatile fw_user_shared_t *s = u->shared;
  hal_sched_info_t *sched = u->sched;
  const hal_kernel_entry_t entry = u->entry;
  void *const args = u->args;
  const uintptr_t chunk = u->chunk, ngx = u->ngx, ngy = u->ngy, per_row = u->per_row, total = u->total;
  const uintptr_t step = u->exact ? u->teams : 0;
  const int counting = u->counting;
  uintptr_t next = u->team; /* exact timing: team + k * teams at claim k */
  for (;;) {
    if (s->abort) return;
    uintptr_t c = next;
    if (step) next += step;
    else c = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);
    if (c >= total) return;
    const uintptr_t n = fw_claim_groups(sched, c, chunk, ngx, ngy, per_row);
    if (counting) {
      const uint64_t k0 = cycles();
      entry(args, sched);
      u->kernel_cycles += cycles() - k0;
    } else {
      entry(args, sched);
    }
    u->groups += n;
  }
}

/* The same for a non-uniform launch (RVHAL_LAUNCH_NON_UNIFORM), whose calls
 * also set their groups' size and offset (fw_claim.h). A loop of its own:
 * made from one inline body, the uniform loop above came out laid out
 * differently, one instruction more per claim with counters on. */
__attribute__((section(".usertext"), noinline, used)) void fw_user_loop_nonuniform(fw_uloop_t *u) {
  volatile fw_user_shared_t *s = u->shared;
  hal_sched_info_t *sched = u->sched;
  const hal_kernel_entry_t entry = u->entry;
  void *const args = u->args;
  const uintptr_t chunk = u->chunk, per_row = u->per_row, total = u->total;
  const uintptr_t step = u->exact ? u->teams : 0;
  const int counting = u->counting;
  uintptr_t next = u->team;
  for (;;) {
    if (s->abort) return;
    uintptr_t c = next;
    if (step) next += step;
    else c = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);
    if (c >= total) return;
    const uintptr_t n = fw_claim_groups_nonuniform(sched, c, chunk, per_row, &u->nu);
    if (counting) {
      const uint64_t k0 = cycles();
      entry(args, sched);
      u->kernel_cycles += cycles() - k0;
    } else {
      entry(args, sched);
    }
    u->groups += n;
  }
}
