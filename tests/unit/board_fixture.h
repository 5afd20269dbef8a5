/* A qemu-virt board description for host-only unit tests, parsed from the
 * same text the firmware build generates (firmware/board_desc.in). */
#ifndef RVHAL_TEST_BOARD_FIXTURE_H
#define RVHAL_TEST_BOARD_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "backend/board_desc.h"
#include "rvhal/status.h"

#define QEMU_VIRT_DESC                                                                                        \
  "rvhal-board 5\nname \"qemu-virt\"\nxlen 64\nisa_ext \"imafdc\"\npriv \"M\"\nram_base 0x80000000\n"          \
  "fw_offset 0x0\nram_top_reserved 0x200000\nram_default 0x10000000\nram_max 0x80000000\nfirst_hart 0\n"     \
  "max_harts 8\ntimebase_hz 10000000\ndoorbell_polled 0\nfault_addr 0x10\ndebug_doorbell msip 0x2000000\n"  \
  "debug_reset \"system_reset\"\ndebug_start \"entry\"\n"  \
  "qemu_machine \"virt\"\n"                                                                                  \
  "qemu_boot \"kernel\"\nqemu_bios \"none\"\nqemu_min_ram 0\nqemu_args \"\"\nqemu_dtb \"empty\"\nvlen 0\n"

static inline rvhal_board_desc_t qemu_virt_board(void) {
  rvhal_board_desc_t b;
  if (rvhal_board_desc_parse(QEMU_VIRT_DESC, "qemu-virt fixture", &b)) {
    fprintf(stderr, "qemu-virt fixture: %s\n", rvhal_last_error());
    exit(1);
  }
  return b;
}

#endif
