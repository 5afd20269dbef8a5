/* Barrier semantics under stress: in each of `rounds` rounds every item
 * writes its slot of a local tile, waits, then reads its neighbours' slots
 * (written by other items, possibly on other harts) and waits again. Any
 * item passing a barrier early reads a stale value and the sum is wrong. */
#include "test_kernel.h"

typedef struct {
  __global uint *out;
  uintptr_t tile_size; /* local buffer: packed as its size */
  uint rounds;
} barrier_check_args;

static void barrier_check_item(const barrier_check_args *a, exec_state_t *e) {
  __local uint *tile = rvhal_local_arg(e, 0);
  uint n = (uint)(get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e));
  uint lid = (uint)get_local_linear_id(e);
  uint acc = 0;
  for (uint r = 0; r < a->rounds; r++) {
    tile[lid] = lid * 7 + r;
    barrier(e);
    acc += tile[(lid + 1) % n] + tile[(lid + n - 1) % n];
    barrier(e);
  }
  size_t g = group_linear(e);
  a->out[g * n + lid] = acc;
}

RVHAL_KERNEL(barrier_check, barrier_check_args, barrier_check_item, RVHAL_GLOBAL(out), RVHAL_LOCAL(tile_size), RVHAL_VALUE(rounds))
