/* For the OCK HAL adapter's test (ock/tests): local memory, a barrier and a
 * uint parameter that OCK hosts pass as a size_t. Each group stages its
 * slice of `in` in local memory, waits, then every item writes its
 * neighbour's value (rotating within the group) plus `add`. */
#include "kernel_if.h"

__kernel void ock_rotate(__global const uint *in, __global uint *out, __local uint *tile, uint add,
                         exec_state_t *e) {
  const size_t lid = get_local_id(0, e), n = get_local_size(0, e);
  tile[lid] = in[get_global_id(0, e)];
  barrier(e);
  out[get_global_id(0, e)] = tile[(lid + 1) % n] + add;
}

RVHAL_KERNEL_ENTRY(ock_rotate, RVHAL_GLOBAL(const uint *, in), RVHAL_GLOBAL(uint *, out), RVHAL_LOCAL(uint *, tile),
                   RVHAL_VALUE(uint, add))
