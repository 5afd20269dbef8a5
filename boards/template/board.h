/* Board data for <your board>. Copy this folder to boards/<name>/, fill in
 * every value from the board's manual or device tree, and build with
 * -DRVHAL_BOARD=<name>. Macros only: the firmware, the linker scripts and
 * the host all include this file. See docs/porting.md. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "template"

/* Memory: where RAM starts, what the platform itself keeps at its top (QEMU
 * puts the device tree in the last 2 MiB; a real board may keep OpenSBI or
 * nothing there) and the default RAM size given to a device. */
#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000

/* Harts: the firmware uses harts FIRST_HART .. FIRST_HART+N-1 (mhartid);
 * e.g. 1 on SiFive boards whose hart 0 is a small monitor core. */
#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8

/* The UART the host talks through (the doorbell and the wake-up byte). */
#define RVHAL_BOARD_UART_BASE 0x10000000
#define RVHAL_BOARD_UART_REG_SHIFT 0 /* register stride = 1 << shift bytes */
#define RVHAL_BOARD_UART_IRQ 10      /* its PLIC source */

/* PLIC, and the context number of each hart's M-mode. */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_MCONTEXT(hartid) (2 * (hartid))

/* CLINT / ACLINT: software interrupts and the machine timer. */
#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000

/* Only for boards QEMU emulates: its -machine name. */
#define RVHAL_BOARD_QEMU_MACHINE "virt"

#endif /* RVHAL_BOARD_H */
