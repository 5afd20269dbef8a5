/* Barrier semantics under stress: in each of `rounds` rounds every item
 * writes its slot of a local tile, waits, then reads its neighbours' slots
 * (written by other items, possibly on other harts) and waits again. Any
 * item passing a barrier early reads a stale value and the sum is wrong. */
#include "kernel_if.h"

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
  size_t g = get_group_id(0, e) + get_num_groups(0, e) * (get_group_id(1, e) + get_num_groups(1, e) * get_group_id(2, e));
  a->out[g * n + lid] = acc;
}

RVHAL_KERNEL(barrier_check, barrier_check_args, barrier_check_item, RVHAL_GLOBAL(out), RVHAL_LOCAL(tile_size), RVHAL_VALUE(rounds))

/* The same with __local_variable storage instead of a local argument. */
typedef struct {
  __global uint *out;
  uint rounds;
} barrier_var_args;

static void barrier_var_item(const barrier_var_args *a, exec_state_t *e) {
  __local_variable uint tile[1024];
  uint n = (uint)(get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e));
  uint lid = (uint)get_local_linear_id(e);
  uint acc = 0;
  for (uint r = 0; r < a->rounds; r++) {
    tile[lid] = lid * 7 + r;
    barrier(e);
    acc += tile[(lid + 1) % n] + tile[(lid + n - 1) % n];
    barrier(e);
  }
  size_t g = get_group_id(0, e) + get_num_groups(0, e) * (get_group_id(1, e) + get_num_groups(1, e) * get_group_id(2, e));
  a->out[g * n + lid] = acc;
}

RVHAL_KERNEL(barrier_var, barrier_var_args, barrier_var_item, RVHAL_GLOBAL(out), RVHAL_VALUE(rounds))
