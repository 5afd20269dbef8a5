/* The rules a launch descriptor must keep, checked on both sides of the
 * ring: by the host before it writes a slot (with a message naming the
 * value) and again by the firmware (the ring is a trust boundary: a kernel
 * run privileged can write it). One definition, so that the two checks
 * cannot drift apart. Pure functions of their arguments. */
#ifndef RVHAL_ABI_LAUNCH_RULES_H
#define RVHAL_ABI_LAUNCH_RULES_H

#include <stdint.h>

#include "rvhal/rvhal_launch_geometry.h"

/* 1, 2 or 3 dimensions. */
static inline int rvhal_launch_work_dim_ok(uint32_t work_dim) { return work_dim >= 1 && work_dim <= 3; }

/* Teams: harts [j*T, (j+1)*T) run one group together, so T divides the
 * harts taking part, and each of a team's harts needs a work-item. */
static inline int rvhal_launch_team_ok(uint32_t harts, uint32_t harts_per_group, uint64_t items_per_group) {
  return harts_per_group != 0 && harts_per_group <= harts && harts % harts_per_group == 0 &&
         harts_per_group <= items_per_group;
}

/* A claim takes 1 to num_groups[0] groups of a row. */
static inline int rvhal_launch_chunk_ok(uint64_t chunk_groups, uint64_t groups_x) {
  return chunk_groups != 0 && chunk_groups <= groups_x;
}

/* Non-uniform work-groups: the last group along a dimension has 1 to
 * local_size work-items. */
static inline int rvhal_launch_last_size_ok(uint32_t local_size, uint32_t last_local_size) {
  return last_local_size != 0 && last_local_size <= local_size;
}

/* The work-items of the smallest group (the last along every dimension):
 * what a team's harts must each find one of. */
static inline uint64_t rvhal_launch_smallest_group(const uint32_t last_local_size[3]) {
  return rvhal_launch_group_items(last_local_size);
}

#endif /* RVHAL_ABI_LAUNCH_RULES_H */
