/* Board data for Spike, the RISC-V ISA simulator (github.com/riscv-software-
 * src/riscv-isa-sim), reached the way a board is: through its debug module
 * over JTAG, which Spike serves on --rbb-port to OpenOCD's remote_bitbang
 * adapter (openocd.cfg here; scripts/spike.sh starts both). Made from
 * boards/template with docs/porting.md's steps; `spike --dump-dts` gives
 * the map: RAM at 0x80000000, CLINT at 0x2000000 (10 MHz: one tick per 100
 * instructions), HTIF (tohost/fromhost, found by symbol in the ELF Spike
 * loads), a boot ROM at 0x1000 and the debug module at 0x0. The same map
 * is QEMU's spike machine, so the image also runs there. */
#ifndef RVHAL_BOARD_H
#define RVHAL_BOARD_H

#define RVHAL_BOARD_NAME "spike-openocd"
#define RVHAL_BOARD_ISA_EXT "imafdc" /* spike --isa=rv64gc / rv32gc */

#define RVHAL_BOARD_RAM_BASE 0x80000000
#define RVHAL_BOARD_FW_OFFSET 0x0
#define RVHAL_BOARD_RAM_TOP_RESERVED 0x200000
#define RVHAL_BOARD_RAM_DEFAULT_SIZE 0x10000000 /* spike -m0x80000000:0x10000000 */
#define RVHAL_BOARD_RAM_MAX_SIZE 0x80000000

#define RVHAL_BOARD_FIRST_HART 0
#define RVHAL_BOARD_MAX_HARTS 8 /* spike -p N */

/* Not 0x10 as on QEMU's machines: Spike's debug module answers at 0x0-0xfff
 * (its program buffer and data words), so loads there do not fault.
 * Nothing is mapped at 0x4000000. */
#define RVHAL_BOARD_FAULT_ADDR 0x4000000

/* The debugger's doorbell: hart 0's MSIP in the CLINT, written through the
 * debug module while the harts are halted. */
#define RVHAL_BOARD_DEBUG_DOORBELL msip 0x2000000
/* OpenOCD resets the harts through the debug module (dmcontrol.ndmreset)
 * and keeps them halted: PMP, CSRs and pc as at power-on. */
#define RVHAL_BOARD_DEBUG_RESET "reset halt"

/* No UART the host can reach (Spike's ns16550 is its own terminal), so
 * hart 0 looks at the ring every POLL_US on its timer; HTIF carries the
 * wake-up byte to Spike's console. */
#define RVHAL_BOARD_DOORBELL_POLLED 1
#define RVHAL_BOARD_POLL_US 50

#define RVHAL_BOARD_CLINT_BASE 0x02000000
#define RVHAL_BOARD_TIMEBASE_HZ 10000000
/* Spike has the time CSR in M-mode, QEMU's spike machine traps rdtime:
 * mtime over MMIO serves both. */
#define RVHAL_BOARD_TIME_CSR 0

/* On QEMU: its spike machine, the same map. */
#define RVHAL_BOARD_QEMU_MACHINE "spike"
#define RVHAL_BOARD_QEMU_BOOT "kernel"
#define RVHAL_BOARD_QEMU_BIOS "none"
#define RVHAL_BOARD_QEMU_MIN_RAM 0
#define RVHAL_BOARD_QEMU_ARGS ""
#define RVHAL_BOARD_QEMU_DTB "empty"

#endif /* RVHAL_BOARD_H */
