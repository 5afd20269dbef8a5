/* Firmware image: linked at RAM base + the board's firmware offset (the
 * start of rvhal's firmware region); must fit below the control block.
 * Preprocessed with the board's board.h. */
#include "board.h"
#include "rvhal/rvhal_protocol.h"

OUTPUT_ARCH("riscv")
ENTRY(_start)

MEMORY {
  FW (rwx) : ORIGIN = RVHAL_BOARD_RAM_BASE + RVHAL_BOARD_FW_OFFSET, LENGTH = RVHAL_FW_MAX_SIZE
}

PHDRS {
  text PT_LOAD FLAGS(5);
  data PT_LOAD FLAGS(6);
}

SECTIONS {
  .text : {
    KEEP(*(.text.start))
    *(.text .text.*)
  } > FW :text
  .rodata : ALIGN(8) {
    *(.rodata .rodata.* .srodata .srodata.*)
  } > FW :text
  /* What U-mode kernels may reach of the firmware: the claim loop's code
   * (user_loop.c; executable, not writable), then a page of shared claim
   * state (writable). PMP (user.c) or page tables grant exactly these
   * pages, so each part is whole pages. */
  .usertext : ALIGN(4096) {
    __fw_user_start = .;
    KEEP(*(.usertext))
    . = ALIGN(4096);
  } > FW :text
  .usershared : ALIGN(4096) {
    __fw_user_shared = .;
    KEEP(*(.usershared))
    . = ALIGN(4096);
    __fw_user_end = .;
  } > FW :data
  /* Writable data never shares a page with code: QEMU retranslates a
   * page's code whenever the guest stores to that page. */
  .data : ALIGN(4096) {
    *(.data .data.*)
    __global_pointer$ = . + 0x800;
    *(.sdata .sdata.*)
  } > FW :data
  /* HTIF's tohost/fromhost (spike), alone on their page: QEMU treats a
   * page holding an MMIO region as I/O, and under -icount every access to
   * I/O ends a translation block: firmware state sharing the page would be
   * slower and count retried instructions twice. */
  .htif (NOLOAD) : ALIGN(4096) {
    KEEP(*(.htif))
    . = ALIGN(4096);
  } > FW
  .tdata : { *(.tdata .tdata.*) } > FW
  .tbss : { *(.tbss .tbss.*) } > FW
  .bss (NOLOAD) : ALIGN(8) {
    __bss_start = .;
    *(.sbss .sbss.* .bss .bss.* COMMON)
    . = ALIGN(8);
    __bss_end = .;
  } > FW
  /* Not cleared at start-up: harts use their boot stacks while hart 0
   * clears .bss. */
  .noinit (NOLOAD) : ALIGN(16) {
    *(.noinit .noinit.*)
  } > FW
  __fw_end = .;
  fw_ctrl_block = ORIGIN(FW) + RVHAL_CTRL_OFFSET;
  fw_print_rings = ORIGIN(FW) + RVHAL_PRINT_OFFSET;
  ASSERT(__fw_end <= fw_ctrl_block, "firmware image overlaps the control block")
}
