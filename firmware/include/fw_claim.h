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

#endif /* FW_CLAIM_H */
