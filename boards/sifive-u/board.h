/* Board data for QEMU's "sifive_u" machine (SiFive FU540 / HiFive
 * Unleashed): hart 0 is the E51 monitor core (RV64IMAC: no FPU, no S-mode),
 * harts 1-4 the U54 application cores. The firmware uses the U54s and
 * parks the E51 before it touches FP state; -smp counts the E51 too. See
 * boards/qemu-virt/board.h for what each value means. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "sifive-u"
#define RVHAL_BOARD_ISA_EXT "imafdc"

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x80000000

#define RVHAL_BOARD_FIRST_HART 1
#define RVHAL_BOARD_MAX_HARTS 4

#define RVHAL_BOARD_FAULT_ADDR 0x10

/* The debugger's doorbell: MSIP of hart 1 (the first U54, hart 0 of the
 * firmware) in the CLINT. */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000004

/* UART0: SiFive's own UART, PLIC source 4. */
#define RVHAL_BOARD_UART_BASE 0x10010000
#define RVHAL_BOARD_UART_IRQ 4
#define RVHAL_BOARD_DOORBELL_POLLED 0

/* PLIC contexts: the E51 has M only (0), each U54 M and S (2h-1, 2h). */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_CONTEXT(hartid) (2 * (hartid) - 1)

#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 1000000
#define RVHAL_BOARD_TIME_CSR 0 /* the U54 has no time CSR in M-mode (rdtime traps): mtime over MMIO */

#define RVHAL_BOARD_QEMU_MACHINE "sifive_u"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
#define RVHAL_BOARD_QEMU_DTB "empty" /* the firmware reads no device tree */

#endif /* RVHAL_BOARD_H */
