/* barrier_sum (1-D): each work-group copies its slice of `in` into a local
 * tile, meets at one barrier, then work-item 0 adds up the tile in index
 * order and writes the group's sum. Any work-item passing the barrier early
 * (or a tile not shared by the whole group) leaves a stale value in the tile
 * and the sum comes out wrong. */
#include "kernel_if.h"

__kernel void barrier_sum(__global const float *in, __global float *sums, __local float *tile, exec_state_t *ctx) {
  uint lid = (uint)get_local_id(0, ctx);
  uint n = (uint)get_local_size(0, ctx);
  tile[lid] = in[get_global_id(0, ctx)];
  barrier(ctx);
  if (lid == 0) {
    float s = 0.0f;
    for (uint i = 0; i < n; i++) s += tile[i];
    sums[get_group_id(0, ctx)] = s;
  }
}

typedef struct {
  __global const float *in;
  __global float *sums;
  uintptr_t tile_size; /* local buffer: packed as its size */
} barrier_sum_args;

static void barrier_sum_item(const barrier_sum_args *a, exec_state_t *e) {
  barrier_sum(a->in, a->sums, rvhal_local_arg(e, 0), e);
}

RVHAL_KERNEL(barrier_sum_entry, barrier_sum_args, barrier_sum_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(sums), RVHAL_LOCAL(tile_size))
