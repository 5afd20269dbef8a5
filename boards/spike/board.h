/* Board data for QEMU's "spike" machine: RAM, CLINT and HTIF only. The
 * console is HTIF (tohost/fromhost, found by QEMU through their symbols in
 * the firmware ELF): it carries the firmware's wake-up bytes to the host,
 * but raises no interrupt for bytes from the host, so the doorbell is
 * polled: hart 0 looks at the ring on its timer. See
 * boards/qemu-virt/board.h for each value. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "spike"
#define RVHAL_BOARD_ISA_EXT "imafdc"

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x80000000

#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8

#define RVHAL_BOARD_FAULT_ADDR 0x10

/* The debugger's doorbell: hart 0's MSIP in the CLINT. It wakes hart 0 from
 * its poll sleep at once (ring_loop.c keeps the software interrupt on). */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000000

/* No UART, no PLIC: hart 0 looks at the ring every POLL_US. */
#define RVHAL_BOARD_DOORBELL_POLLED 1
#define RVHAL_BOARD_POLL_US 50

#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000
#define RVHAL_BOARD_TIME_CSR 0 /* QEMU's spike has no time CSR (rdtime traps): mtime over MMIO */

#define RVHAL_BOARD_QEMU_MACHINE "spike"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
#define RVHAL_BOARD_QEMU_DTB "empty" /* the firmware reads no device tree */

#endif /* RVHAL_BOARD_H */
