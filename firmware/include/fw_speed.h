/* What the firmware does only so that QEMU runs it fast; nothing here
 * changes what a kernel computes. How: docs/architecture.md, "Emulation
 * speed"; measurements: docs/performance.md. */
#ifndef FW_SPEED_H
#define FW_SPEED_H

#include <stdint.h>

#include "rvhal/rvhal_protocol.h"

/* "No timer": a deadline this far in the future rather than UINT64_MAX.
 * QEMU turns UINT64_MAX into a QEMU timer at INT64_MAX ns, and under -icount
 * its main loop then spins (an idle exact-timing device took a whole host
 * core; with 2^50 ticks, none: docs/performance.md, "An idle device").
 * 2^50 ticks is over a year at any
 * timebase up to 32 MHz, counted from the reset of the device's clock. */
#define FW_TIMER_OFF (1ull << 50)

/* Once per launch, on each hart taking part, before it runs the kernel, if
 * the host asks (RVHAL_LAUNCH_TLB_FLUSH, host/src/launch/launch_owner.c: the launch's
 * buffers need a bigger TLB than it has grown to): grow QEMU's software
 * TLB of the mode the kernel runs in to the 2^n entries the host names
 * (RVHAL_LAUNCH_TLB_LOG2). firmware/speed.c. */
void fw_launch_tlb_flush(uint32_t launch_flags, const rvhal_boot_config_t *b);

#endif /* FW_SPEED_H */
