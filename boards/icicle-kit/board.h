/* Board data for QEMU's "microchip-icicle-kit" machine (Microchip PolarFire
 * SoC): like the FU540, hart 0 is an E51 monitor core and harts 1-4 U54s.
 * QEMU wants -m above 1.5 GiB but maps only 1 GiB at 0x80000000 (the rest
 * lies at 0x1000000000), so the device's RAM window is at most 1 GiB. With
 * -bios none QEMU neither loads -kernel nor writes a reset stub: each hart
 * gets its entry through a -device loader. Address 0x10 reads as zero here
 * (reserved, not unmapped). See boards/qemu-virt/board.h for each value. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "icicle-kit"
#define RVHAL_BOARD_ISA_EXT "imafdc"

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x0
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x40000000

#define RVHAL_BOARD_FIRST_HART 1
#define RVHAL_BOARD_MAX_HARTS 4

#define RVHAL_BOARD_FAULT_ADDR 0x4000000

/* The debugger's doorbell: MSIP of hart 1 (the first U54, hart 0 of the
 * firmware) in the CLINT. */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000004

/* MMUART0: ns16550-compatible, 32-bit register stride, PLIC source 90. */
#define RVHAL_BOARD_UART_BASE 0x20000000
#define RVHAL_BOARD_UART_REG_SHIFT 2
#define RVHAL_BOARD_UART_IRQ 90
#define RVHAL_BOARD_DOORBELL_POLLED 0

#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_CONTEXT(hartid) (2 * (hartid) - 1)

#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 1000000
#define RVHAL_BOARD_TIME_CSR 0 /* the U54 has no time CSR in M-mode (rdtime traps): mtime over MMIO */

#define RVHAL_BOARD_QEMU_MACHINE "microchip-icicle-kit"
#define RVHAL_BOARD_QEMU_BOOT "loader"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0x80000000
#define RVHAL_BOARD_QEMU_ARGS ""
#define RVHAL_BOARD_QEMU_DTB "empty" /* the firmware reads no device tree */

#endif /* RVHAL_BOARD_H */
