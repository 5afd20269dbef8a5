/* What a target reached through a stub rvhal did not start must be before
 * rvhal's firmware can run there, checked through the stub at each attach
 * (gdb_backend.c): the harts' XLEN and extensions (misa), RAM at the
 * device's addresses, the board's debug doorbell register, an SBI firmware
 * where an S-mode board needs one, PMP entries a reset left locked, and
 * the image read back after it was written. A target that fails one is
 * refused with what was read and what the device needs, instead of a
 * firmware that never reports or a launch that times out. */
#ifndef RVHAL_HOST_GDB_TARGET_CHECK_H
#define RVHAL_HOST_GDB_TARGET_CHECK_H

#include <stdint.h>

#include "backend/gdb_rsp.h"
#include "backend/board_desc.h"
#include "base/elf_loader.h"
#include "rvhal/rvhal_protocol.h"

typedef struct rvhal_gdb_target {
  const rvhal_board_desc_t *board;
  uint32_t num_harts;                 /* the device's: harts first_hart .. first_hart + num_harts - 1 */
  const unsigned *threads;            /* the stub's thread of each hart id */
  unsigned num_threads;
  uint64_t ram_base, ram_size;        /* the device's RAM window */
  const rvhal_boot_config_t *boot;    /* the layout the firmware will set up (its stack guards) */
  uint64_t msip;                      /* the debug doorbell register, 0: none */
  const char *reset;                  /* the monitor commands that reset the target, for messages */
} rvhal_gdb_target_t;

/* Before the firmware is written; leaves each used hart in M-mode when the
 * board starts the image at its entry (debug_start "entry"). */
int rvhal_gdb_check_target(rvhal_rsp_t *r, const rvhal_gdb_target_t *t);

/* After the firmware was written: the start and end of each segment read
 * back as written. */
int rvhal_gdb_check_image(rvhal_rsp_t *r, const rvhal_elf_image_t *fw);

#endif /* RVHAL_HOST_GDB_TARGET_CHECK_H */
