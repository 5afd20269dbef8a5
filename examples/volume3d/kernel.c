/* volume3d (3-D): the 6-neighbour sum over a 3-D grid of nx * ny * nz ints
 * (x fastest), for the sub-box the ND-range covers. The launch has a global
 * offset, so a work-item's global id is the grid cell it computes; it also
 * records, at its position relative to the offset, which cell that was. */
#include "kernel_if.h"

__kernel void volume3d(__global int *in, __global int *out, __global uint *cells, uint nx, uint ny, uint nz,
                       exec_state_t *ctx) {
  size_t x = get_global_id(0, ctx);
  size_t y = get_global_id(1, ctx);
  size_t z = get_global_id(2, ctx);
  size_t plane = (size_t)nx * ny;
  size_t c = z * plane + y * nx + x;
  /* Cells outside the grid count as 0. */
  int sum = 0;
  if (x > 0) sum += in[c - 1];
  if (x + 1 < nx) sum += in[c + 1];
  if (y > 0) sum += in[c - nx];
  if (y + 1 < ny) sum += in[c + nx];
  if (z > 0) sum += in[c - plane];
  if (z + 1 < nz) sum += in[c + plane];
  out[c] = sum;
  /* The launch's own coordinates: global id minus the offset. */
  size_t rx = x - get_global_offset(0, ctx);
  size_t ry = y - get_global_offset(1, ctx);
  size_t rz = z - get_global_offset(2, ctx);
  cells[(rz * get_global_size(1, ctx) + ry) * get_global_size(0, ctx) + rx] = (uint)c;
}

typedef struct {
  __global int *in;
  __global int *out;
  __global uint *cells;
  uint nx, ny, nz;
} volume3d_args;

static void volume3d_item(const volume3d_args *a, exec_state_t *e) {
  volume3d(a->in, a->out, a->cells, a->nx, a->ny, a->nz, e);
}

RVHAL_KERNEL(volume3d_entry, volume3d_args, volume3d_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_GLOBAL(cells), RVHAL_VALUE(nx), RVHAL_VALUE(ny), RVHAL_VALUE(nz))
