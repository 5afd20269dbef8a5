/* What the firmware does only so that QEMU runs it fast; nothing here
 * changes what a kernel computes. Measurements: docs/architecture.md,
 * "Emulation speed". */
#ifndef FW_SPEED_H
#define FW_SPEED_H

#include <stdint.h>

#include "fw_mmio.h"
#include "rvhal/rvhal_protocol.h"

/* "No timer": a deadline this far in the future rather than UINT64_MAX.
 * QEMU turns UINT64_MAX into a QEMU timer at INT64_MAX ns, and under -icount
 * its main loop then spins (measured: an idle exact-timing device took a
 * whole host core; with 2^50 ticks, 0 %). 2^50 ticks is over a year at any
 * timebase up to 32 MHz, counted from the reset of the device's clock. */
#define FW_TIMER_OFF (1ull << 50)

/* Once per launch, on each hart taking part, before it runs the kernel, if
 * the host asks (RVHAL_LAUNCH_TLB_FLUSH: the launch's buffers outgrow what
 * the TLB has grown to, host/src/launch.c): QEMU resizes a hart's software
 * TLB (256 entries to start, doubling while over 70 % used) only when that
 * TLB is flushed, and nothing else flushes it in M-mode. Measured:
 * histogram over 16 MiB ran ~6x faster from the fifth launch on. A flush
 * costs an empty launch ~3 us and a big one a refill of every page, hence
 * only when asked. Harts without S-mode have no sfence.vma and skip it. */
static inline void fw_launch_tlb_flush(uint32_t launch_flags) {
  if ((launch_flags & RVHAL_LAUNCH_TLB_FLUSH) && (csr_read(misa) & (1ul << ('S' - 'A'))))
    __asm__ volatile("sfence.vma" ::: "memory");
}

#endif /* FW_SPEED_H */
