/* The device memory map (docs/architecture.md): fixed regions from
 * abi/rvhal/rvhal_protocol.h, then per-hart stacks, work-item stack pools and the
 * global-memory heap laid out from the device options. */
#ifndef RVHAL_HOST_LAYOUT_H
#define RVHAL_HOST_LAYOUT_H

#include <stdint.h>

#include "backend/board_desc.h"
#include "rvhal/device.h"

typedef struct rvhal_layout_request {
  uint32_t num_harts;
  uint64_t ram_size;
  uint64_t local_mem_size;
  uint32_t max_work_group_size;
  uint64_t item_stack_size;
} rvhal_layout_request_t;

typedef struct rvhal_layout {
  uint64_t ram_base, ram_size;
  uint64_t fw_base;                      /* the firmware region: RAM base + the board's fw_offset */
  uint64_t ctrl;                         /* rvhal_ctrl_t */
  uint64_t print_base;                   /* the per-hart print rings */
  uint64_t program_base, program_size;
  uint64_t stacks_base, hart_stack_size; /* hart i: [base + i*size, +size) */
  uint64_t fibers_base, fiber_pool_size, fiber_stack_size;
  uint64_t trace_base, trace_size;       /* hart i's timeline events: trace_base + i*trace_size */
  uint64_t heap_base, heap_size;         /* global memory for mem_alloc */
  uint64_t staging_base, staging_size;   /* the library's copies of loaded programs, after the heap */
  uint64_t local_mem_size;
  uint32_t max_work_group_size;
} rvhal_layout_t;

/* Room for loaded programs' staged copies (never reachable through mem_*):
 * RAM / RVHAL_STAGING_RAM_SHARE, at least 1 MiB, so it grows with the RAM a
 * device is given (docs/architecture.md, "Program store"). */
#define RVHAL_STAGING_RAM_SHARE 16u
#define RVHAL_STAGING_MIN (1u * 1024u * 1024u)

/* Timeline events kept per hart and launch (8192 events). */
#define RVHAL_TRACE_BYTES_PER_HART (256u * 1024u)

/* Extra stack a hart needs beside its group's local memory. */
#define RVHAL_HART_STACK_RESERVE (64u * 1024u)

int rvhal_layout_compute(const rvhal_board_desc_t *board, const rvhal_layout_request_t *req, rvhal_layout_t *out);

/* What a device reports of its layout: RAM, global and local memory, the
 * program area, the largest work-group (the catalogue, a device, and the
 * info for options not yet used all report it alike). */
void rvhal_layout_describe(const rvhal_layout_t *l, rvhal_device_info_t *info);

#endif /* RVHAL_HOST_LAYOUT_H */
