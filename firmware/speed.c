/* Growing QEMU's software TLB for a launch (fw_speed.h). QEMU resizes a
 * hart's TLB only when it is flushed: doubling it when over 70 % of its
 * entries are in use, shrinking it when under 30 % for 100 ms. Nothing
 * else flushes it, so it would stay at 256 entries. To reach the 2^n
 * entries the host names in this one launch, whatever the kernel's access
 * pattern, the hart reads 3/4 of each size's worth of consecutive pages of
 * global memory and flushes, for sizes 64, 128, ... 2^(n-1): a histogram
 * over 16 MiB ran several times faster, also on 2 harts, where its own
 * accesses never filled 70 %. A flush costs an empty launch's time, hence
 * only when asked (docs/performance.md, "Figures behind the code's
 * choices").
 *
 * QEMU keeps one TLB per privilege mode and sizes each by its own use, so
 * the reads must be made in the mode the kernel runs in. A U-mode kernel
 * (both firmware modes): fw_tlb_touch lies on the page of firmware code
 * U-mode may run (.usertext, with the U-mode claim loop: user_loop.c) and
 * is entered through fw_user_call (MPRV does not do it: QEMU 7.2 files
 * MPRV accesses under M-mode's TLB): touched in M-mode, the histogram's
 * U-mode TLB stayed small. */
#include <stdint.h>

#include "fw.h"
#include "fw_csr.h"
#include "fw_speed.h"

#define PAGE 4096u

/* void fw_tlb_touch(uintptr_t first, uintptr_t end): one byte of each page.
 * Runs in U-mode: touches nothing but global memory, which kernels may
 * read. */
__asm__(".pushsection .usertext, \"ax\", @progbits\n"
        ".globl fw_tlb_touch\n"
        "fw_tlb_touch:\n"
        "  li t1, 4096\n"
        "1: lbu t0, 0(a0)\n"
        "  add a0, a0, t1\n"
        "  bltu a0, a1, 1b\n"
        "  ret\n"
        ".popsection\n");
extern char fw_tlb_touch[];

/* Reads pages [first, end) in U-mode, with the launch's memory map
 * (fw_user_setup has run). */
static void touch_in_u_mode(uintptr_t first, uintptr_t end) {
  /* fw_user_call wants xie = 0, xPP = U and the scratch in a4; keeps only sp and gp. */
  const uintptr_t ie = xcsr_read(CSR_XIE), status = xcsr_read(CSR_XSTATUS);
  xcsr_write(CSR_XIE, 0);
  xcsr_clear(CSR_XSTATUS, XSTATUS_XPP_MASK);
  register uintptr_t a0 __asm__("a0") = first, a1 __asm__("a1") = end;
  register uintptr_t a2 __asm__("a2") = (uintptr_t)fw_tlb_touch, a3 __asm__("a3") = 0; /* needs no stack */
  register uintptr_t a4 __asm__("a4") = xcsr_read(CSR_XSCRATCH); /* this hart's scratch (start.S) */
  __asm__ volatile("call fw_user_call"
                   : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4)
                   :
                   : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a5", "a6", "a7", "s0", "s1", "s2", "s3",
                     "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
  xcsr_write(CSR_XSTATUS, status);
  xcsr_write(CSR_XIE, ie);
}

void fw_launch_tlb_flush(uint32_t launch_flags, const rvhal_boot_config_t *b) {
  if (!(launch_flags & RVHAL_LAUNCH_TLB_FLUSH)) return;
  if (!fw_has_sfence()) return;
  const uint64_t target = 1ull << RVHAL_LAUNCH_TLB_LOG2(launch_flags), align = 64 * 1024;
  /* global memory (64 KiB-aligned: the host places it so) */
  const uint64_t lo = (b->heap_base + align - 1) & ~(align - 1);
  const uint64_t pages = b->heap_base + b->heap_size > lo ? (b->heap_base + b->heap_size - lo) / PAGE : 0;
  const int user = !(launch_flags & RVHAL_LAUNCH_PRIVILEGED);
  for (uint64_t size = 64; size < target && size * 3 / 4 < pages; size *= 2) {
    const uint64_t n = size * 3 / 4 + 1;
    if (user)
      touch_in_u_mode((uintptr_t)lo, (uintptr_t)(lo + n * PAGE));
    else
      for (uint64_t i = 0; i < n; i++) (void)*(volatile uint8_t *)(uintptr_t)(lo + i * PAGE);
    __asm__ volatile("sfence.vma" ::: "memory");
  }
  __asm__ volatile("sfence.vma" ::: "memory");
}
