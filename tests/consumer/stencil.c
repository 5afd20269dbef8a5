/* 2-D stencil inside a work-group: each group copies its tile of `in` into
 * local memory, waits at a barrier, then every work-item writes the
 * 4-neighbour Laplacian of its element within the tile (wrapping at the
 * tile's edges), so every item reads what others wrote. */
#include "kernel_if.h"

__kernel void stencil(__global const float *in, __global float *out, __local float *tile, uint width,
                      exec_state_t *e) {
  const size_t lx = get_local_id(0, e), ly = get_local_id(1, e);
  const size_t nx = get_local_size(0, e), ny = get_local_size(1, e);
  const size_t g = get_global_id(1, e) * width + get_global_id(0, e);
  tile[ly * nx + lx] = in[g];
  barrier(e);
  float sum = tile[ly * nx + (lx + 1) % nx] + tile[ly * nx + (lx + nx - 1) % nx] +
              tile[((ly + 1) % ny) * nx + lx] + tile[((ly + ny - 1) % ny) * nx + lx];
  out[g] = sum - 4.0f * tile[ly * nx + lx];
}

RVHAL_KERNEL_ENTRY(stencil, RVHAL_GLOBAL(const float *, in), RVHAL_GLOBAL(float *, out), RVHAL_LOCAL(float *, tile),
                   RVHAL_VALUE(uint, width))
