/* reduction (1-D): each work-group adds up its slice of `in` with a tree in
 * local memory and writes one partial sum; the host adds the partial sums.
 * The tree works for any group size n: with p the power of two >= n, the
 * step with stride s folds [s, 2s) onto [0, s), guarded so that only
 * elements below n are read. */
#include "kernel_if.h"

__kernel void reduction(__global const uint *in, __global uint *partial, __local uint *scratch, exec_state_t *ctx) {
  const uint lid = (uint)get_local_id(0, ctx);
  const uint n = (uint)get_local_size(0, ctx);
  uint p = 1;
  while (p < n) p <<= 1;
  scratch[lid] = in[get_global_id(0, ctx)];
  barrier(ctx);
  for (uint s = p / 2; s > 0; s >>= 1) {
    if (lid < s && lid + s < n) scratch[lid] += scratch[lid + s];
    barrier(ctx);
  }
  if (lid == 0) partial[get_group_id(0, ctx)] = scratch[0];
}

RVHAL_KERNEL_ENTRY(reduction, RVHAL_GLOBAL(const uint *, in), RVHAL_GLOBAL(uint *, partial),
                   RVHAL_LOCAL(uint *, scratch))
