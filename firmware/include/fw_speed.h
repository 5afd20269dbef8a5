/* What the firmware does only so that QEMU runs it fast; nothing here
 * changes what a kernel computes. Measurements: docs/architecture.md,
 * "Emulation speed". */
#ifndef FW_SPEED_H
#define FW_SPEED_H

#include <stdint.h>

#include "fw_csr.h"
#include "fw_mmio.h"
#include "rvhal/rvhal_protocol.h"

/* "No timer": a deadline this far in the future rather than UINT64_MAX.
 * QEMU turns UINT64_MAX into a QEMU timer at INT64_MAX ns, and under -icount
 * its main loop then spins (measured: an idle exact-timing device took a
 * whole host core; with 2^50 ticks, 0 %). 2^50 ticks is over a year at any
 * timebase up to 32 MHz, counted from the reset of the device's clock. */
#define FW_TIMER_OFF (1ull << 50)

/* Once per launch, on each hart taking part, before it runs the kernel, if
 * the host asks (RVHAL_LAUNCH_TLB_FLUSH, host/src/launch.c: the launch's
 * buffers need a bigger TLB than it has grown to): QEMU resizes a hart's
 * software TLB only when it is flushed (doubling it when over 70 % of its
 * entries are in use, shrinking it when under 30 % for 100 ms), and
 * nothing else flushes it in M-mode. To reach the 2^n entries the host
 * names (RVHAL_LAUNCH_TLB_LOG2) in this one launch, whatever the kernel's
 * access pattern, the hart reads 3/4 of each size's worth of consecutive
 * pages of global memory and flushes, for sizes 64, 128, ... 2^(n-1).
 * Measured: histogram over 16 MiB ~6x faster, also on 2 harts, where its
 * own accesses never filled 70 %. A flush costs an empty launch ~3 us,
 * hence only when asked. Harts without S-mode have no sfence.vma. */
static inline void fw_launch_tlb_flush(uint32_t launch_flags, const rvhal_boot_config_t *b) {
  if (!(launch_flags & RVHAL_LAUNCH_TLB_FLUSH)) return;
#ifndef FW_PRIV_S /* an S-mode firmware has sfence.vma by definition; misa is M-mode's */
  if (!(xcsr_read(misa) & (1ul << ('S' - 'A')))) return;
#endif
  const uint64_t target = 1ull << RVHAL_LAUNCH_TLB_LOG2(launch_flags), page = 4096, align = 64 * 1024;
  /* global memory: from the trace buffers' end (64 KiB-aligned) to the program copies */
  const uint64_t lo = (b->trace_base + b->trace_size * b->num_harts + align - 1) & ~(align - 1);
  const uint64_t pages = b->staging_base > lo ? (b->staging_base - lo) / page : 0;
  for (uint64_t size = 64; size < target && size * 3 / 4 < pages; size *= 2) {
    for (uint64_t i = 0; i <= size * 3 / 4; i++) (void)*(volatile uint8_t *)(uintptr_t)(lo + i * page);
    __asm__ volatile("sfence.vma" ::: "memory");
  }
  __asm__ volatile("sfence.vma" ::: "memory");
}

#endif /* FW_SPEED_H */
