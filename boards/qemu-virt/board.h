/* Board data for QEMU's "virt" machine: memory map, harts, peripherals and
 * how QEMU starts it. A board is this header, board.c (its fw_board_t) and
 * board.cmake (XLENs, privilege mode, drivers). Macros only: the firmware,
 * the linker scripts and the board descriptor the host reads
 * (firmware/board_desc.in) are all preprocessed with it. To add a board,
 * copy boards/template/ and see docs/porting.md. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

/* A variant of this machine (boards/qemu-virt-imac) defines these three
 * first and includes this header for the rest. */
#ifndef RVHAL_BOARD_NAME
#define RVHAL_BOARD_NAME "qemu-virt"
#define RVHAL_BOARD_ISA_EXT "imafdc" /* after rv32/rv64: what the harts run */
#endif

/* Memory. QEMU places the device tree in the last 2 MiB of RAM. The
 * firmware region starts at RAM + FW_OFFSET (0: the firmware owns the
 * machine). Devices get RAM_DEFAULT_SIZE unless asked, at most RAM_MAX_SIZE. */
#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000 /* 256 MiB */
#define RVHAL_BOARD_RAM_MAX_SIZE 0x80000000

/* Harts: indices 0..N-1 are hart ids FIRST_HART..FIRST_HART+N-1. */
#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8

/* An address whose load and store fault (device tests use it). */
#define RVHAL_BOARD_FAULT_ADDR 0x10

/* How a debugger wakes hart 0 (the GDB-remote backend, docs/porting.md):
 * "msip <address>", the M-mode software-interrupt register (CLINT/ACLINT
 * MSWI) of the hart the firmware uses as hart 0 (FIRST_HART), written while
 * the harts are halted; or "none" (the backend then rings the UART). */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000000

/* Console UART (ns16550a), also the host doorbell. */
#define RVHAL_BOARD_UART_BASE 0x10000000
#define RVHAL_BOARD_UART_REG_SHIFT 0
#define RVHAL_BOARD_UART_IRQ 10
#define RVHAL_BOARD_DOORBELL_POLLED 0

/* PLIC, with the M-mode context of each hart. */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_CONTEXT(hartid) (2 * (hartid))

/* CLINT (ACLINT MSWI + MTIMER). */
#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000
#define RVHAL_BOARD_TIME_CSR 1 /* QEMU's virt implements the time CSR in M-mode (spike does not) */

/* How QEMU runs it: -machine, how the firmware gets in ("kernel": -bios
 * BIOS -kernel fw.elf; "loader": -device loader per hart), -m at least
 * QEMU_MIN_RAM, and extra arguments. -smp counts harts from id 0. */
#define RVHAL_BOARD_QEMU_MACHINE "virt"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#ifndef RVHAL_BOARD_QEMU_ARGS
#define RVHAL_BOARD_QEMU_ARGS ""
#endif
#define RVHAL_BOARD_QEMU_DTB "empty" /* the firmware reads no device tree */

#endif /* RVHAL_BOARD_H */
