/* What a kernel may reach. On an M-mode board kernels run in U-mode and
 * PMP entries 2..10 of each hart give them, per launch:
 *   program area: code and read-only data (RX), its data segment (RW);
 *   the stacks of the hart's team (RW: the leader's holds the group's
 *     local memory), with at the top of each the hart's block (fw_user_t:
 *     call info, copies of the launch descriptor and packed arguments);
 *   the hart's own work-item stack pool (RW);
 *   the global-memory heap (RW).
 * Nothing else: not the firmware, the control block (the launch ring
 * included: the kernel gets copies), the print rings, other teams' stacks
 * or pools, traces or staged program copies. Every boundary is a page
 * boundary (a PMP rule inside a page makes QEMU check each access to that
 * page apart). Entries 11..13 (constant) give the firmware's U-mode claim
 * loop (RX) and its shared claim page (RW), user_loop.c. Entries 0 and 1 (locked guards below the hart's stack and
 * its pool, boot.c) come first and so win. The ranges are kept in
 * fw_hart_t too: pointers a kernel passes to an ecall are checked against
 * them. Under an S-mode firmware (no PMP) page tables do the same
 * (user_pt.c). For RVHAL_LAUNCH_PRIVILEGED, kernels run in the firmware's
 * mode, on the same stack, with the launch's own descriptor and arguments. */
#include <stddef.h>
#include <string.h>

#include "fw.h"
#include "fw_csr.h"
#include "fw_launch.h"

/* Word copies and compares written out: a call to memcpy and its return,
 * on another page of firmware code, each end QEMU's translation block
 * (~40 ns each; docs/performance.md, "Launch latency"). */
typedef uintptr_t __attribute__((may_alias)) fw_word_t; /* copies any type's words */
static inline __attribute__((always_inline)) void copy_words(fw_word_t *d, const fw_word_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}
static inline __attribute__((always_inline)) int same_words(const fw_word_t *a, const fw_word_t *b, size_t n) {
  uintptr_t diff = 0;
  for (size_t i = 0; i < n; i++) diff |= a[i] ^ b[i];
  return diff == 0;
}

/* The first byte of the installed program's data segment: the lowest
 * install above the lowest one (kernel.ld puts text first). */
static uintptr_t program_data;

void fw_user_program_installed(const rvhal_launch_desc_t *d) {
  uintptr_t lo = UINTPTR_MAX, data = 0;
  for (uint32_t i = 0; i < d->num_installs; i++)
    if ((uintptr_t)d->install[i].dst < lo) lo = (uintptr_t)d->install[i].dst;
  for (uint32_t i = 0; i < d->num_installs; i++) {
    uintptr_t dst = (uintptr_t)d->install[i].dst;
    if (dst > lo && (data == 0 || dst < data)) data = dst;
  }
  program_data = data & ~(uintptr_t)3;
#ifdef FW_PRIV_S
  fw_user_pt_program(program_data ? program_data : (uintptr_t)FW_CTRL->boot.program_base + (uintptr_t)FW_CTRL->boot.program_size);
#endif
}

#ifndef FW_PRIV_S
/* cfg bytes: TOR (0x08) with R 1, W 2, X 4; 0 = off (the bottom of a TOR). */
#define RX 0x0d
#define RW 0x0b
#define PMPADDR(n, a) __asm__ volatile("csrw pmpaddr" #n ", %0" ::"r"((uintptr_t)(a) >> 2))
/* Entries 11..13, constant: the firmware's U-mode claim loop (RX) and its
 * shared claim page (RW), user_loop.c. */
#if __riscv_xlen == 64
void fw_user_pmp_init(void) {
  PMPADDR(11, __fw_user_start);
  PMPADDR(12, __fw_user_shared);
  PMPADDR(13, __fw_user_end);
  __asm__ volatile("csrw pmpcfg0, %0" ::"r"(0x9898ull | (uint64_t)RX << 24 | (uint64_t)RW << 32 | (uint64_t)RW << 48));
  __asm__ volatile("csrw pmpcfg2, %0" ::"r"((uint64_t)RW | (uint64_t)RW << 16 | (uint64_t)RX << 32 | (uint64_t)RW << 40));
}
#else
void fw_user_pmp_init(void) {
  PMPADDR(11, __fw_user_start);
  PMPADDR(12, __fw_user_shared);
  PMPADDR(13, __fw_user_end);
  __asm__ volatile("csrw pmpcfg0, %0" ::"r"(0x9898u | (uint32_t)RX << 24));
  __asm__ volatile("csrw pmpcfg1, %0" ::"r"((uint32_t)RW | (uint32_t)RW << 16));
  __asm__ volatile("csrw pmpcfg2, %0" ::"r"((uint32_t)RW | (uint32_t)RW << 16));
  __asm__ volatile("csrw pmpcfg3, %0" ::"r"((uint32_t)RX | (uint32_t)RW << 8));
}
#endif
#endif

void fw_user_setup(fw_hart_t *hart) {
  const fw_launch_t *L = &fw_launch;
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uint32_t rank = hart->index % L->team_size, leader = hart->index - rank;
  const uintptr_t S = (uintptr_t)b->hart_stack_size, P = (uintptr_t)b->fiber_pool_size;
  const uintptr_t prog = (uintptr_t)b->program_base, prog_end = prog + (uintptr_t)b->program_size;
  const uintptr_t stacks = (uintptr_t)b->stacks_base + leader * S;
  uint32_t members = L->team_size;
  if (leader + members > L->participants) members = L->participants - leader;
  const uintptr_t stacks_end = stacks + members * S;
  const uintptr_t pool = (uintptr_t)b->fibers_base + hart->index * P;
  const uintptr_t heap = (uintptr_t)(b->trace_base + b->trace_size * b->num_harts);
  const uintptr_t heap_end = (uintptr_t)b->staging_base;
  const uintptr_t lo[FW_USER_RANGES] = {prog, stacks, pool, heap};
  const uintptr_t hi[FW_USER_RANGES] = {prog_end, stacks_end, pool + P, heap_end};
  copy_words(hart->user_lo, lo, FW_USER_RANGES);
  copy_words(hart->user_hi, hi, FW_USER_RANGES);
#ifndef FW_PRIV_S
  /* Written only when they change: QEMU flushes the hart's TLB on every
   * PMP write (measured: the empty launch 1.4 -> 4.2 us when written each
   * time). */
  const uintptr_t data = program_data ? program_data : prog_end;
  const uintptr_t pmp[FW_USER_PMP] = {prog, data, prog_end, stacks, stacks_end, pool, pool + P, heap, heap_end};
  if (!same_words(pmp, hart->pmp, FW_USER_PMP)) {
    copy_words(hart->pmp, pmp, FW_USER_PMP);
    PMPADDR(2, prog);
    PMPADDR(3, data);
    PMPADDR(4, prog_end);
    PMPADDR(5, stacks);
    PMPADDR(6, stacks_end);
    PMPADDR(7, pool);
    PMPADDR(8, pool + P);
    PMPADDR(9, heap);
    PMPADDR(10, heap_end);
  }
#else
  fw_user_pt_share(hart->index, stacks, stacks_end, L->privileged);
#endif

  /* The kernel's view of this call: at the top of this hart's stack. */
  fw_user_t *u = hart->user;
  u->call = hart->call;
  if (!L->privileged) u->call.services = 0; /* ecall */
  /* xie, what a trap's unwinding restores (trap.c): a U-mode share swaps
   * it for 0 as it enters (run_protected: one CSR access less) */
  if (L->privileged) fw_scratch_of(hart->index)->ie = xcsr_read(CSR_XIE);
  u->call.team = &fw_harts[leader].user->team;
  u->call.counters = u->counters;
  u->call.fp_live = 0;
  u->sched.hal_extra = (uintptr_t)&u->call;
  hart->kernel_args = L->args;
  hart->kernel_sp = (uintptr_t)u;
  if (!L->privileged) { /* copies of the launch's descriptor and arguments (checked: <= RVHAL_ARGS_MAX) */
    _Static_assert(sizeof u->desc % sizeof(uintptr_t) == 0 && _Alignof(rvhal_launch_desc_t) >= sizeof(uintptr_t),
                   "copied in words");
    copy_words((fw_word_t *)&u->desc, (const fw_word_t *)L->desc, sizeof u->desc / sizeof(uintptr_t));
    u->call.launch = &u->desc;
    /* Whole 64-byte lines: a kernel's argument struct may be longer than the
     * pack (tail padding), and the slot's bytes past the pack are zero.
     * The pack is 8-aligned (ring slot, list record: RVHAL_CMDLIST_ALIGN). */
    const size_t n = ((size_t)L->desc->args_size + 63) & ~(size_t)63;
    uintptr_t args = ((uintptr_t)u - n) & ~(uintptr_t)63;
    if ((uintptr_t)L->args % sizeof(uintptr_t) == 0)
      copy_words((fw_word_t *)args, (const fw_word_t *)L->args, n / sizeof(uintptr_t));
    else
      memcpy((void *)args, L->args, n);
    hart->kernel_args = (void *)args;
    hart->kernel_sp = args;
  }
}

int fw_user_readable(const fw_hart_t *hart, uintptr_t p, uintptr_t n) {
  for (int i = 0; i < FW_USER_RANGES; i++)
    if (p >= hart->user_lo[i] && p <= hart->user_hi[i] && n <= hart->user_hi[i] - p) return 1;
  return 0;
}
