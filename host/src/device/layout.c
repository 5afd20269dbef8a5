/* Lays out device memory for a set of device options. */
#include "device/layout.h"

#include "base/internal.h"
#include "rvhal/rvhal_protocol.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

int rvhal_layout_compute(const rvhal_board_desc_t *board, const rvhal_layout_request_t *req, rvhal_layout_t *out) {
  if (req->num_harts == 0 || req->num_harts > board->max_harts || req->num_harts > RVHAL_MAX_HARTS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%u harts requested; board %s supports 1 to %u", req->num_harts,
                       board->name, board->max_harts < RVHAL_MAX_HARTS ? board->max_harts : RVHAL_MAX_HARTS);
  uint64_t max_ram = board->max_ram_size < 2048 * MIB ? board->max_ram_size : 2048 * MIB;
  if (req->ram_size % MIB || req->ram_size < 32 * MIB || req->ram_size > max_ram)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RAM size %llu bytes: must be a whole number of MiB from 32 to %llu on %s",
                       (unsigned long long)req->ram_size, (unsigned long long)(max_ram / MIB), board->name);
  if (req->local_mem_size < 1 * KIB || req->local_mem_size > 16 * MIB || req->local_mem_size % 64)
    return rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "local memory size %llu bytes: must be a multiple of 64 from 1 KiB to 16 MiB",
                       (unsigned long long)req->local_mem_size);
  if (req->max_work_group_size == 0 || req->max_work_group_size > 65536)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "max work-group size %u: must be 1 to 65536",
                       req->max_work_group_size);
  if (req->item_stack_size < 1 * KIB || req->item_stack_size > 1 * MIB || req->item_stack_size % 16)
    return rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "work-item stack size %llu bytes: must be a multiple of 16 from 1 KiB to 1 MiB",
                       (unsigned long long)req->item_stack_size);

  rvhal_layout_t l = {0};
  l.ram_base = board->ram_base;
  l.ram_size = req->ram_size;
  l.fw_base = board->ram_base + board->fw_offset;
  l.ctrl = l.fw_base + RVHAL_CTRL_OFFSET;
  l.print_base = l.fw_base + RVHAL_PRINT_OFFSET;
  l.program_base = board->ram_base + RVHAL_PROGRAM_OFFSET;
  l.program_size = RVHAL_PROGRAM_MAX_SIZE;
  l.local_mem_size = req->local_mem_size;
  l.max_work_group_size = req->max_work_group_size;
  /* guard + stack, both multiples of the guard so guards stay aligned */
  l.hart_stack_size = RVHAL_STACK_GUARD + rvhal_align_up(req->local_mem_size + RVHAL_HART_STACK_RESERVE, RVHAL_STACK_GUARD);
  l.fiber_stack_size = req->item_stack_size;
  /* Worst case: every item of a group on one hart, all but the first on
   * their own stacks. Untouched pages of the memfd cost nothing. */
  l.fiber_pool_size = rvhal_align_up((uint64_t)(req->max_work_group_size - 1) * req->item_stack_size, 4 * KIB);
  if (l.fiber_pool_size == 0) l.fiber_pool_size = 4 * KIB;
  /* Each hart's pool starts with a guard its PMP forbids, like its stack:
   * a work-item frame of any size running off the pool traps there. */
  l.fiber_pool_size = RVHAL_STACK_GUARD + rvhal_align_up(l.fiber_pool_size, RVHAL_STACK_GUARD);

  /* Room for the stacks of every hart the board may use, whatever the
   * device's count, where that leaves the 4 MiB of global memory: hart i's
   * guards (locked PMP entries, isolation_pmp.c) then sit at the same
   * addresses in every device of these options. A reset that leaves PMP
   * entries locked (QEMU 7.2's system_reset, seen by an attached stub) then
   * leaves guards where the next device wants them, not in its pools or
   * global memory (docs/porting.md). Else the stacks of its harts only. */
  const uint32_t all = board->max_harts < RVHAL_MAX_HARTS ? board->max_harts : RVHAL_MAX_HARTS;
  const uint64_t top = board->ram_base + req->ram_size - board->ram_top_reserved;
  l.staging_size = req->ram_size / RVHAL_STAGING_RAM_SHARE;
  if (l.staging_size < RVHAL_STAGING_MIN) l.staging_size = RVHAL_STAGING_MIN;
  for (uint32_t slots = all > req->num_harts ? all : req->num_harts;; slots = req->num_harts) {
    uint64_t at = board->ram_base + RVHAL_DYNAMIC_OFFSET;
    l.stacks_base = at;
    at += l.hart_stack_size * slots;
    l.fibers_base = at;
    at += l.fiber_pool_size * req->num_harts;
    l.trace_base = at;
    l.trace_size = RVHAL_TRACE_BYTES_PER_HART;
    at += l.trace_size * req->num_harts;
    l.heap_base = rvhal_align_up(at, 64 * KIB);
    if (l.heap_base + 4 * MIB + l.staging_size <= top) break;
    if (slots == req->num_harts)
      return rvhal_error(RVHAL_INVALID_ARGUMENT,
                         "RAM size %llu MiB leaves less than 4 MiB of global memory: firmware, programs and the stacks "
                         "of %u harts take %llu MiB, program copies %llu MiB, the board keeps %llu MiB; raise ram_size "
                         "or lower max_work_group_size / item_stack_size",
                         (unsigned long long)(req->ram_size / MIB), req->num_harts,
                         (unsigned long long)((l.heap_base - board->ram_base) / MIB),
                         (unsigned long long)(l.staging_size / MIB), (unsigned long long)(board->ram_top_reserved / MIB));
  }
  l.staging_base = top - l.staging_size;
  l.heap_size = l.staging_base - l.heap_base;
  *out = l;
  return RVHAL_OK;
}

void rvhal_layout_describe(const rvhal_layout_t *l, rvhal_device_info_t *info) {
  info->ram_size = l->ram_size;
  info->global_mem_size = l->heap_size;
  info->local_mem_size = l->local_mem_size;
  info->program_area_base = l->program_base;
  info->program_area_size = l->program_size;
  info->program_store_size = l->staging_size;
  info->max_work_group_size = l->max_work_group_size;
}
