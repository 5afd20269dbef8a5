/* QEMU's shakti_c: one RV64IMAFDC hart (Shakti C-class, PMP, S and U),
 * RAM at 0x80000000, the Shakti UART at 0x11300 with no interrupt line, an
 * ACLINT (CLINT layout) at 0x2000000 at 10 MHz, no time CSR in M-mode
 * (rdtime traps), no device tree. QEMU refuses -bios none and ignores
 * -kernel: the image comes in through a loader device and no -bios is
 * given. Copied from boards/template (docs/porting.md). */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "shakti-c"
#define RVHAL_BOARD_ISA_EXT "imafdc"

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x40000000

/* one hart */
#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 1

/* nothing is mapped below the boot ROM at 0x1000 */
#define RVHAL_BOARD_FAULT_ADDR 0x10

/* hart 0's MSIP in the ACLINT: a debugger's doorbell (wakes the poll sleep) */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000000

/* The Shakti UART (board.c) carries the wake-up byte to the host; it has
 * no interrupt line, so hart 0 looks at the ring on its timer. */
#define RVHAL_BOARD_UART_BASE 0x11300
#define RVHAL_BOARD_DOORBELL_POLLED 1
#define RVHAL_BOARD_POLL_US 50

#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000
#define RVHAL_BOARD_TIME_CSR 0 /* rdtime traps in M-mode: mtime over MMIO */

#define RVHAL_BOARD_QEMU_MACHINE "shakti_c"
#define RVHAL_BOARD_QEMU_BOOT "loader"  /* -kernel is ignored */
#define RVHAL_BOARD_QEMU_BIOS "default" /* no -bios: it refuses "none" */
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
#define RVHAL_BOARD_QEMU_DTB "machine" /* no -dtb: the machine builds none, the firmware reads none */

#endif /* RVHAL_BOARD_H */
