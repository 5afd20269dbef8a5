/* A claim's geometry: claim `c` of a launch (chunks of `chunk` groups
 * along dimension 0, `per_row` claims per row of ngx groups, rows over
 * dimensions 1 and 2 of ngy rows each) as the kernel call's first group
 * and group count, written into its hal_sched_info. Shared by the
 * firmware's claim loop (scheduler.c) and the U-mode one (user_loop.c),
 * which may call nothing: always inlined. */
#ifndef FW_CLAIM_H
#define FW_CLAIM_H

#include <stdint.h>

#include "rvhal/hal_sched_info.h"

static inline __attribute__((always_inline)) uintptr_t fw_claim_groups(hal_sched_info_t *sched, uintptr_t c,
                                                                       uintptr_t chunk, uintptr_t ngx, uintptr_t ngy,
                                                                       uintptr_t per_row) {
  const uintptr_t row = c / per_row, gx = (c - row * per_row) * chunk;
  const uintptr_t n = ngx - gx < chunk ? ngx - gx : chunk;
  sched->group_id_start[0] = gx;
  sched->group_id_start[1] = row % ngy;
  sched->group_id_start[2] = row / ngy;
  sched->num_groups_per_call[0] = n;
  return n;
}

/* A non-uniform launch (RVHAL_LAUNCH_NON_UNIFORM): the last group along a
 * dimension may have fewer work-items. A row then holds its full_x groups
 * of local[0] items in chunks, and one more claim for the last, smaller
 * group if there is one (per_row counts it). A call's groups all have one
 * size, which its hal_sched_info says (local_size); its global_offset is
 * shifted for a last group so that the SDK's group_id * local_size +
 * global_offset is still the group's first global id (last_offset: offset
 * + group_id * (local - last)); the kernel reads the true offset from the
 * launch descriptor. Uniform dimensions have last == local. Filled per
 * launch (launch_owner.c); a uniform launch never reads it. */
typedef struct fw_nonuniform {
  uintptr_t full_x;        /* groups along dimension 0 with local[0] items */
  uintptr_t ngy, ngz;      /* rows */
  uintptr_t local[3], last[3], offset[3], last_offset[3];
} fw_nonuniform_t;

static inline __attribute__((always_inline)) uintptr_t fw_claim_groups_nonuniform(hal_sched_info_t *sched, uintptr_t c,
                                                                                  uintptr_t chunk, uintptr_t per_row,
                                                                                  const fw_nonuniform_t *nu) {
  const uintptr_t row = c / per_row, gy = row % nu->ngy, gz = row / nu->ngy;
  uintptr_t gx = (c - row * per_row) * chunk, n;
  if (gx < nu->full_x) {
    n = nu->full_x - gx < chunk ? nu->full_x - gx : chunk;
    sched->local_size[0] = (uint32_t)nu->local[0];
    sched->global_offset[0] = nu->offset[0];
  } else {
    gx = nu->full_x;
    n = 1;
    sched->local_size[0] = (uint32_t)nu->last[0];
    sched->global_offset[0] = nu->last_offset[0];
  }
  const int last_y = gy == nu->ngy - 1, last_z = gz == nu->ngz - 1;
  sched->local_size[1] = (uint32_t)(last_y ? nu->last[1] : nu->local[1]);
  sched->global_offset[1] = last_y ? nu->last_offset[1] : nu->offset[1];
  sched->local_size[2] = (uint32_t)(last_z ? nu->last[2] : nu->local[2]);
  sched->global_offset[2] = last_z ? nu->last_offset[2] : nu->offset[2];
  sched->group_id_start[0] = gx;
  sched->group_id_start[1] = gy;
  sched->group_id_start[2] = gz;
  sched->num_groups_per_call[0] = n;
  return n;
}

#endif /* FW_CLAIM_H */
