/* Isolation by PMP (fw_isolation.h), for an M-mode firmware. Per hart:
 *   entries 0 and 1: locked NAPOT guards (no access, even for M-mode)
 *     below the hart's stack and its work-item stack pool; first, so they
 *     win;
 *   entries 2..10, per share (TOR): the installed program's code and
 *     read-only data (RX) and data segment (RW), the team's stacks, the
 *     hart's pool and global memory (RW);
 *   entries 11..13, constant: the firmware's U-mode claim loop (RX) and
 *     its shared claim page (RW), user_loop.c.
 * Nothing else: not the firmware, the control block (the launch ring
 * included: the kernel gets copies), the print rings, other teams' stacks
 * or pools, traces or staged program copies. Every boundary is a page
 * boundary (a PMP rule inside a page makes QEMU check each access to that
 * page apart). */
#include "fw.h"
#include "fw_csr.h"
#include "fw_isolation.h"

#define FW_REACH_WORDS (sizeof(fw_reach_t) / sizeof(uintptr_t))
static fw_reach_t written[RVHAL_MAX_HARTS]; /* entries 2..10 as last written, per hart */

/* cfg bytes: TOR (0x08) with R 1, W 2, X 4; 0 = off (the bottom of a TOR). */
#define RX 0x0d
#define RW 0x0b
#define PMPADDR(n, a) __asm__ volatile("csrw pmpaddr" #n ", %0" ::"r"((uintptr_t)(a) >> 2))
/* After PMP entries change, translations cached under the old ones must go
 * (privileged spec, "PMP and Paging": an sfence.vma after the writes).
 * QEMU 7.2 flushes its TLB on a pmpcfg write but not on a pmpaddr write:
 * without this, a page the previous program's kernel wrote (its data) stayed
 * writable to the next program's kernel, whose code lies there (issue 16,
 * item 1). A hart without S-mode has no sfence.vma (and no translation
 * cache in hardware): there rewriting pmpcfg2 makes QEMU flush. */
static int has_s_mode;
static inline __attribute__((always_inline)) void pmp_sync(void) {
  if (has_s_mode) {
    __asm__ volatile("sfence.vma" ::: "memory");
  } else {
    uintptr_t cfg;
    __asm__ volatile("csrr %0, pmpcfg2\n\tcsrw pmpcfg2, %0" : "=r"(cfg)::"memory");
  }
}

/* Entries 11..13, constant: the firmware's U-mode claim loop (RX) and its
 * shared claim page (RW), user_loop.c. */
#if __riscv_xlen == 64
static void constant_entries(void) {
  PMPADDR(11, __fw_user_start);
  PMPADDR(12, __fw_user_shared);
  PMPADDR(13, __fw_user_end);
  __asm__ volatile("csrw pmpcfg0, %0" ::"r"(0x9898ull | (uint64_t)RX << 24 | (uint64_t)RW << 32 | (uint64_t)RW << 48));
  __asm__ volatile("csrw pmpcfg2, %0" ::"r"((uint64_t)RW | (uint64_t)RW << 16 | (uint64_t)RX << 32 | (uint64_t)RW << 40));
}
#else
static void constant_entries(void) {
  PMPADDR(11, __fw_user_start);
  PMPADDR(12, __fw_user_shared);
  PMPADDR(13, __fw_user_end);
  __asm__ volatile("csrw pmpcfg0, %0" ::"r"(0x9898u | (uint32_t)RX << 24));
  __asm__ volatile("csrw pmpcfg1, %0" ::"r"((uint32_t)RW | (uint32_t)RW << 16));
  __asm__ volatile("csrw pmpcfg2, %0" ::"r"((uint32_t)RW | (uint32_t)RW << 16));
  __asm__ volatile("csrw pmpcfg3, %0" ::"r"((uint32_t)RX | (uint32_t)RW << 8));
}
#endif

void fw_isolation_boot(void) {}

void fw_isolation_hart(uint32_t index) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uintptr_t guard = (uintptr_t)(b->stacks_base + (uint64_t)index * b->hart_stack_size);
  const uintptr_t pool_guard = (uintptr_t)(b->fibers_base + (uint64_t)index * b->fiber_pool_size);
  __asm__ volatile("csrw pmpaddr0, %0" ::"r"((guard >> 2) | ((RVHAL_STACK_GUARD >> 3) - 1)));
  __asm__ volatile("csrw pmpaddr1, %0" ::"r"((pool_guard >> 2) | ((RVHAL_STACK_GUARD >> 3) - 1)));
  has_s_mode = (xcsr_read(misa) & (1ul << ('S' - 'A'))) != 0;
  /* Entries 0 and 1 become locked, NAPOT, no access here, by writing all of
   * pmpcfg0: setting only their bits would keep what reset left in the
   * other bits (Spike resets entry 0 to NAPOT RWX over all memory, which
   * OR-ed with the lock made a guard that lets everything through). */
  constant_entries();
  __asm__ volatile("csrw mcounteren, %0" ::"r"(7)); /* U-mode kernels may read cycle, time, instret */
  if (has_s_mode) __asm__ volatile("csrw scounteren, %0" ::"r"(7)); /* with S-mode there, U-mode needs it too */
}

void fw_isolation_install_begin(void) {} /* M-mode is not bound by entries 2..13 */

void fw_isolation_program(uintptr_t data, uintptr_t top) { /* taken at each hart's next share */
  (void)data;
  (void)top;
}

void fw_isolation_share(uint32_t index, const fw_reach_t *r, int privileged) {
  (void)privileged; /* PMP binds only U-mode: the entries may stay */
  /* Written only when they change: QEMU flushes the hart's TLB on every
   * PMP change (measured: the empty launch 1.4 -> 4.2 us when written each
   * time). */
  const uintptr_t *w = (const uintptr_t *)r;
  uintptr_t diff = 0, *last = (uintptr_t *)&written[index];
  for (size_t i = 0; i < FW_REACH_WORDS; i++) diff |= w[i] ^ last[i];
  if (diff == 0) return;
  written[index] = *r;
  PMPADDR(2, r->prog);
  PMPADDR(3, r->data);
  PMPADDR(4, r->top);
  PMPADDR(5, r->stacks);
  PMPADDR(6, r->stacks_end);
  PMPADDR(7, r->pool);
  PMPADDR(8, r->pool_end);
  PMPADDR(9, r->heap);
  PMPADDR(10, r->heap_end);
  pmp_sync();
}
