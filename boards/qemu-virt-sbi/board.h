/* Board data for QEMU's "virt" machine with the firmware as an S-mode
 * payload of OpenSBI (Debian's opensbi package, fw_dynamic). OpenSBI owns
 * the start of RAM (and forbids it to S-mode through PMP), so rvhal's
 * firmware region starts 2 MiB in, where fw_dynamic enters the payload;
 * the boot hart starts the others through SBI HSM; IPIs and the timer are
 * SBI calls; the doorbell is the ns16550 through the PLIC's S-mode
 * contexts. See boards/qemu-virt/board.h for each value. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "qemu-virt-sbi"
#define RVHAL_BOARD_ISA_EXT "imafdc"

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x200000
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000
#define RVHAL_BOARD_RAM_MAX_SIZE 0x80000000

#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8

#define RVHAL_BOARD_FAULT_ADDR 0x10

/* The debugger's doorbell: hart 0's sip.SSIP, set through the stub's
 * registers; it stays pending until the ring loop clears it. Not the MSIP:
 * that interrupts OpenSBI (M-mode), which clears it at once; set while
 * hart 0 is between its last look at the ring and its wfi (the halt that
 * carries the submission can stop it there), the wake-up is lost and the
 * launch times out (seen under load in device.doorbell.gdb). */
#define RVHAL_BOARD_DEBUG_DOORBELL ssip
/* Attached to a stub (RVHAL_GDB_REMOTE): after system_reset the harts run
 * from QEMU's reset vector into OpenSBI, which starts the image in S-mode
 * where the target's -kernel put it (the stub's QEMU is started with the
 * board's boot arguments: -bios fw_dynamic.bin -kernel this image). */
#define RVHAL_BOARD_DEBUG_START "reset"

#define RVHAL_BOARD_UART_BASE 0x10000000
#define RVHAL_BOARD_UART_REG_SHIFT 0
#define RVHAL_BOARD_UART_IRQ 10
#define RVHAL_BOARD_DOORBELL_POLLED 0

/* PLIC, with the S-mode context of each hart. */
#define RVHAL_BOARD_PLIC_BASE 0x0c000000
#define RVHAL_BOARD_PLIC_CONTEXT(hartid) (2 * (hartid) + 1)

#define RVHAL_BOARD_TIMEBASE_HZ 10000000
#define RVHAL_BOARD_TIME_CSR 1 /* in S-mode under SBI the time CSR is always there */

#define RVHAL_BOARD_QEMU_MACHINE "virt"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
/* OpenSBI reads the machine's device tree: QEMU builds it. */
#define RVHAL_BOARD_QEMU_DTB "machine"

#endif /* RVHAL_BOARD_H */
