/* Board data for <your board>. Copy this folder to boards/<name>/, fill in
 * every value from the board's manual or device tree (dtc -I dtb -O dts),
 * configure with -DRVHAL_EXTRA_BOARDS=<name> (which adds it to the default
 * boards; RVHAL_BOARDS would replace them) and build. Macros only: the firmware, the
 * linker scripts and the board descriptor the host reads
 * (firmware/board_desc.in) are all preprocessed with this file. See
 * docs/porting.md; boards/qemu-virt/board.h explains every value. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "template"  /* a-z, 0-9, - and _ */
#define RVHAL_BOARD_ISA_EXT "imafdc" /* the harts' extensions after rv32/rv64 */

/* Memory: where RAM starts; where rvhal's 2 MiB firmware region starts in it
 * (0, or 0x200000 when an SBI firmware such as OpenSBI owns the start); what
 * the platform keeps at the top (QEMU: the device tree in the last 2 MiB);
 * the default and largest RAM window a device gets. Kernels are linked at
 * RAM base + 4 MiB: boards with the same RAM base share kernel ELFs. */
#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x40000000

/* Harts: the firmware uses hart ids FIRST_HART .. FIRST_HART+MAX_HARTS-1;
 * e.g. 1 on SiFive/Microchip SoCs whose hart 0 is a monitor core without
 * FPU or S-mode (start.S parks it before it touches FP state). */
#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 4

/* An address whose loads and stores fault (the device tests use it). */
#define RVHAL_BOARD_FAULT_ADDR 0x10

/* How a debugger (JTAG probe, the GDB-remote backend) wakes hart 0, while
 * the harts are halted: "msip <address>", the MSIP register of hart
 * FIRST_HART in the CLINT/ACLINT MSWI (CLINT base + 4 x hart id; under an
 * SBI firmware too: the interrupt goes to it, but ends hart 0's wfi);
 * "ssip" (S-mode firmware only: hart 0's sip.SSIP through the debugger's
 * registers, no address); or "none" (the backend then rings the UART).
 * Unquoted. */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000000

/* The UART the host talks through (doorbell in, wake-up byte out). */
#define RVHAL_BOARD_UART_BASE 0x10000000
#define RVHAL_BOARD_UART_REG_SHIFT 0 /* ns16550: register stride = 1 << shift bytes */
#define RVHAL_BOARD_UART_IRQ 10      /* its PLIC source */
/* 1 if nothing can interrupt hart 0 when the host rings (no UART receive
 * interrupt): hart 0 then looks at the ring every POLL_US on its timer. */
#define RVHAL_BOARD_DOORBELL_POLLED 0
#define RVHAL_BOARD_POLL_US 50

/* PLIC, and the context number of each hart in the firmware's mode. */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_CONTEXT(hartid) (2 * (hartid))

/* CLINT / ACLINT: software interrupts and the machine timer. */
#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000
/* 1 if the harts implement the time CSR in the firmware's mode: no MMIO
 * read of mtime. QEMU's virt (the machine below) does; its spike and many
 * real cores (the SiFive U54) trap rdtime in M-mode: 0 there. */
#define RVHAL_BOARD_TIME_CSR 1

/* Only for boards QEMU emulates: -machine, how the image gets in ("kernel":
 * -bios BIOS -kernel fw.elf; "loader": -bios BIOS and a -device loader per
 * hart), the smallest -m QEMU accepts (0: any), extra arguments. A
 * physical board ignores these. */
#define RVHAL_BOARD_QEMU_MACHINE "virt"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
/* "empty" when the firmware takes its facts from this file, not from a
 * device tree: QEMU skips building one (~2 ms of every device create);
 * "machine" when something in the guest reads it (OpenSBI does). */
#define RVHAL_BOARD_QEMU_DTB "empty"

#endif /* RVHAL_BOARD_H */
