/* Growing QEMU's software TLB for a launch (fw_speed.h). QEMU resizes a
 * hart's TLB only when it is flushed: doubling it when over 70 % of its
 * entries are in use, shrinking it when under 30 % for 100 ms. Nothing
 * else flushes it, so it would stay at 256 entries. To reach the 2^n
 * entries the host names in this one launch, whatever the kernel's access
 * pattern, the hart reads 3/4 of each size's worth of consecutive pages of
 * global memory and flushes, for sizes 64, 128, ... 2^(n-1). Measured:
 * histogram over 16 MiB ~6x faster, also on 2 harts, where its own accesses
 * never filled 70 %. A flush costs an empty launch ~3 us, hence only when
 * asked.
 *
 * QEMU keeps one TLB per privilege mode and sizes each by its own use, so
 * the reads must be made in the mode the kernel runs in. A U-mode kernel
 * (M-mode boards): fw_tlb_touch, alone on a page of firmware code, runs in
 * U-mode through fw_user_call, made executable there by PMP entry 12 for
 * the moment (MPRV does not do it: QEMU 7.2 files MPRV accesses under
 * M-mode's TLB). Measured: histogram 16 MiB on 1 hart 1520 -> 250 ms once
 * kernels ran in U-mode. */
#include <stdint.h>

#include "fw.h"
#include "fw_csr.h"
#include "fw_speed.h"

#define PAGE 4096u

#ifndef FW_PRIV_S
/* void fw_tlb_touch(uintptr_t first, uintptr_t end): one byte of each page.
 * Padded to a page of its own: the PMP entry that lets U-mode run it must
 * cover whole pages (QEMU checks a page with a rule inside it access by
 * access) and nothing else (fw_user_return must stay unfetchable). */
__asm__(".pushsection .text.fw_tlb_touch, \"ax\", @progbits\n"
        ".balign 4096\n"
        ".globl fw_tlb_touch\n"
        "fw_tlb_touch:\n"
        "  li t1, 4096\n"
        "1: lbu t0, 0(a0)\n"
        "  add a0, a0, t1\n"
        "  bltu a0, a1, 1b\n"
        "  ret\n"
        ".balign 4096\n"
        ".popsection\n");
extern char fw_tlb_touch[];

#define PMP_TOR_RX 0x0d
#if __riscv_xlen == 64
#define PMPCFG_12 "pmpcfg2"
#define PMPCFG_12_SHIFT 32
#else
#define PMPCFG_12 "pmpcfg3"
#define PMPCFG_12_SHIFT 0
#endif

/* Reads pages [first, end) in U-mode; 0 if this hart has no PMP entry 12. */
static int touch_in_u_mode(uintptr_t first, uintptr_t end) {
  const uintptr_t lo = (uintptr_t)fw_tlb_touch, cfg = (uintptr_t)PMP_TOR_RX << PMPCFG_12_SHIFT;
  uintptr_t back;
  __asm__ volatile("csrw pmpaddr11, %0" ::"r"(lo >> 2));
  __asm__ volatile("csrw pmpaddr12, %0" ::"r"((lo + PAGE) >> 2));
  __asm__ volatile("csrr %0, pmpaddr12" : "=r"(back));
  if (back != (lo + PAGE) >> 2) return 0;
  __asm__ volatile("csrs " PMPCFG_12 ", %0" ::"r"(cfg));
  /* fw_user_call wants mie = 0 and MPP = U; keeps only sp and gp. */
  const uintptr_t ie = xcsr_read(mie), status = xcsr_read(mstatus);
  xcsr_write(mie, 0);
  xcsr_clear(mstatus, XSTATUS_XPP_MASK);
  register uintptr_t a0 __asm__("a0") = first, a1 __asm__("a1") = end;
  register uintptr_t a2 __asm__("a2") = lo, a3 __asm__("a3") = 0; /* fw_tlb_touch needs no stack */
  __asm__ volatile("call fw_user_call"
                   : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3)
                   :
                   : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a4", "a5", "a6", "a7", "s0", "s1", "s2", "s3",
                     "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
  xcsr_write(mstatus, status);
  xcsr_write(mie, ie);
  __asm__ volatile("csrc " PMPCFG_12 ", %0" ::"r"(cfg));
  return 1;
}
#endif

void fw_launch_tlb_flush(uint32_t launch_flags, const rvhal_boot_config_t *b) {
  if (!(launch_flags & RVHAL_LAUNCH_TLB_FLUSH)) return;
#ifndef FW_PRIV_S /* an S-mode firmware has sfence.vma by definition; misa is M-mode's */
  if (!(xcsr_read(misa) & (1ul << ('S' - 'A')))) return;
#endif
  const uint64_t target = 1ull << RVHAL_LAUNCH_TLB_LOG2(launch_flags), align = 64 * 1024;
  /* global memory: from the trace buffers' end (64 KiB-aligned) to the program copies */
  const uint64_t lo = (b->trace_base + b->trace_size * b->num_harts + align - 1) & ~(align - 1);
  const uint64_t pages = b->staging_base > lo ? (b->staging_base - lo) / PAGE : 0;
  int user = 0;
#ifndef FW_PRIV_S
  user = !(launch_flags & RVHAL_LAUNCH_PRIVILEGED);
#endif
  for (uint64_t size = 64; size < target && size * 3 / 4 < pages; size *= 2) {
    const uint64_t n = size * 3 / 4 + 1;
#ifndef FW_PRIV_S
    if (user) user = touch_in_u_mode((uintptr_t)lo, (uintptr_t)(lo + n * PAGE));
#endif
    if (!user)
      for (uint64_t i = 0; i < n; i++) (void)*(volatile uint8_t *)(uintptr_t)(lo + i * PAGE);
    __asm__ volatile("sfence.vma" ::: "memory");
  }
  __asm__ volatile("sfence.vma" ::: "memory");
}
