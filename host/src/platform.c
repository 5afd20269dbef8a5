/* The platform: which devices this build can create (a QEMU board at each
 * XLEN whose firmware was built) and their default information. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "device_internal.h"

#ifndef RVHAL_VERSION_STRING
#define RVHAL_VERSION_STRING "0.0.0"
#endif

static rvhal_device_kind_t kinds[2];
static uint32_t num_kinds;
static char names[2][48], isas[2][32];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add_kind(uint32_t xlen) {
  rvhal_device_kind_t *k = &kinds[num_kinds];
  snprintf(names[num_kinds], sizeof names[0], "%s-rv%u", rvhal_board.name, xlen);
  snprintf(isas[num_kinds], sizeof isas[0], "rv%uimafdc", xlen);
  k->xlen = xlen;
  k->qemu_program = xlen == 64 ? "qemu-system-riscv64" : "qemu-system-riscv32";
  k->firmware_name = xlen == 64 ? "rvhal-fw-" RVHAL_BOARD_NAME_STRING "-rv64.elf" : "rvhal-fw-" RVHAL_BOARD_NAME_STRING "-rv32.elf";
  rvhal_device_info_t *i = &k->info;
  i->name = names[num_kinds];
  i->board = rvhal_board.name;
  i->isa = isas[num_kinds];
  i->word_size = xlen / 8;
  i->num_harts = RVHAL_DEFAULT_HARTS;
  rvhal_layout_request_t req = {RVHAL_DEFAULT_HARTS, rvhal_board.default_ram_size, RVHAL_DEFAULT_LOCAL_MEM,
                                RVHAL_DEFAULT_MAX_WG, RVHAL_DEFAULT_ITEM_STACK};
  rvhal_layout_t l;
  if (rvhal_layout_compute(&rvhal_board, &req, &l) == RVHAL_OK) {
    i->ram_size = l.ram_size;
    i->global_mem_size = l.heap_size;
    i->local_mem_size = l.local_mem_size;
    i->program_area_base = l.program_base;
    i->program_area_size = l.program_size;
    i->max_work_group_size = l.max_work_group_size;
  }
  i->max_args_size = RVHAL_ARGS_MAX;
  i->timebase_hz = rvhal_board.timebase_hz;
  i->timing = RVHAL_TIMING_DEFAULT;
  num_kinds++;
}

static void init_kinds(void) {
  add_kind(64);
#ifdef RVHAL_HAVE_RV32
  add_kind(32);
#endif
}

const rvhal_device_kind_t *rvhal_device_kind(uint32_t index) {
  pthread_once(&once, init_kinds);
  return index < num_kinds ? &kinds[index] : NULL;
}

const rvhal_platform_info_t *rvhal_platform_info(void) {
  static rvhal_platform_info_t info;
  pthread_once(&once, init_kinds);
  info.name = "rvhal";
  info.version = RVHAL_VERSION_STRING;
  info.api_version = RVHAL_API_VERSION;
  info.num_devices = num_kinds;
  return &info;
}

int rvhal_platform_device_info(uint32_t index, const rvhal_device_info_t **out_info) {
  const rvhal_device_kind_t *k = rvhal_device_kind(index);
  if (!k) return rvhal_error(RVHAL_NOT_FOUND, "device index %u: the platform has %u devices", index, num_kinds);
  *out_info = &k->info;
  return RVHAL_OK;
}
