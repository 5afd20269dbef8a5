/* Kernel programs: linked at the device's program area, which is the same
 * on every device of a board, so one ELF runs on any of them. The HAL
 * validates that every loadable segment stays inside the area. Preprocessed
 * with the board's board.h. */
#include "board.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal/rvhal_protocol.h"

OUTPUT_ARCH("riscv")
ENTRY(__rvhal_program_start)

PHDRS {
  text PT_LOAD FLAGS(5);
  data PT_LOAD FLAGS(6);
  tls PT_TLS FLAGS(4);
}

SECTIONS {
  . = RVHAL_BOARD_RAM_BASE + RVHAL_PROGRAM_OFFSET;
  .text : {
    __rvhal_program_start = .;
    *(.text.unlikely .text.unlikely.*)
    *(.text .text.*)
  } :text
  .rodata : ALIGN(16) {
    *(.rodata .rodata.* .srodata .srodata.*)
    /* A byte per barrier() in the program (kernel_if.h). */
    __rvhal_barrier_sites_start = .;
    KEEP(*(.rvhal_barrier_sites))
    __rvhal_barrier_sites_end = .;
    /* What the SDK's entry asks of the program, one word read in one load
     * (rvhal_kernel.h, RVHAL_TRAIT_*): 1 it calls barrier(), 2 it has
     * __local_variable initial values, 4 it has __local_variable storage. */
    . = ALIGN(4);
    __rvhal_program_traits = .;
    LONG((__rvhal_barrier_sites_end != __rvhal_barrier_sites_start ? 1 : 0) |
         (__tdata_end != __tdata_start ? 2 : 0) | (__tbss_end != __tdata_start ? 4 : 0))
    /* The kernel ABI the program was built for (rvhal_kernel_abi.h): the
     * host refuses to load it into another. */
    __rvhal_kernel_abi = .;
    LONG(RVHAL_KERNEL_ABI_MAGIC)
    LONG(RVHAL_KERNEL_ABI_VERSION)
  } :text
  __rvhal_code_end = .; /* the end of the program's code and read-only data */
  . = ALIGN(4096);
  .data : ALIGN(16) {
    *(.data .data.*)
    __global_pointer$ = . + 0x800;
    *(.sdata .sdata.*)
  } :data
  /* __local_variable storage: a template only. Each running work-group gets
   * its own copy on its leader hart's stack, addressed through tp. */
  .tdata : ALIGN(16) {
    __tdata_start = .;
    *(.tdata .tdata.*)
    __tdata_end = .;
  } :data :tls
  .tbss : ALIGN(16) {
    *(.tbss .tbss.*)
    . = ALIGN(16);
    __tbss_end = .;
  } :data :tls
  .bss : ALIGN(16) {
    *(.sbss .sbss.* .bss .bss.* COMMON)
    . = ALIGN(16);
  } :data
  __program_end = .;
  ASSERT(__program_end <= RVHAL_BOARD_RAM_BASE + RVHAL_PROGRAM_OFFSET + RVHAL_PROGRAM_MAX_SIZE,
         "kernel program does not fit the device's program area")
  /DISCARD/ : { *(.eh_frame .eh_frame_hdr .note.GNU-stack) }
}
