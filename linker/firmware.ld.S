/* Firmware image: linked at RAM base + RVHAL_FW_OFFSET; must fit below the
 * control block. Preprocessed with the board's board.h. */
#include "board.h"
#include "rvhal_protocol.h"

OUTPUT_ARCH("riscv")
ENTRY(_start)

MEMORY {
  FW (rwx) : ORIGIN = RVHAL_BOARD_RAM_BASE + RVHAL_FW_OFFSET, LENGTH = RVHAL_FW_MAX_SIZE
}

SECTIONS {
  .text : {
    KEEP(*(.text.start))
    *(.text .text.*)
  } > FW
  .rodata : ALIGN(8) {
    *(.rodata .rodata.* .srodata .srodata.*)
  } > FW
  .data : ALIGN(8) {
    *(.data .data.*)
    __global_pointer$ = . + 0x800;
    *(.sdata .sdata.*)
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
}
