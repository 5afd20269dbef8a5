/* Board data for QEMU's "virt" machine: memory map, interrupt wiring, hart
 * layout and how QEMU starts it. A board is this header plus board.c (the
 * optional hooks). To add a board, copy boards/template/ and see
 * docs/porting.md. Included by the firmware, by the host (through
 * board_desc.c) and by the preprocessed linker scripts, so: macros only. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "qemu-virt"

/* Memory. QEMU places the device tree in the last 2 MiB of RAM. */
#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000 /* 256 MiB */

/* Harts: indices 0..N-1 are mhartid FIRST_HART..FIRST_HART+N-1. */
#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8

/* Console UART (ns16550a), also the host doorbell. */
#define RVHAL_BOARD_UART_BASE 0x10000000
#define RVHAL_BOARD_UART_REG_SHIFT 0
#define RVHAL_BOARD_UART_IRQ 10

/* PLIC, with the M-mode context of each hart. */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_MCONTEXT(hartid) (2 * (hartid))

/* CLINT (ACLINT MSWI + MTIMER). */
#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000

/* How QEMU runs it (host side). */
#define RVHAL_BOARD_QEMU_MACHINE "virt"

#endif /* RVHAL_BOARD_H */
