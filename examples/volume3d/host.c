/* volume3d (3-D): the 6-neighbour sum over the 24x20x16 sub-box at offset
 * (5, 3, 2) of a larger grid, launched with that global offset. Every grid
 * cell is checked: inside the box the sum, outside it the marker the output
 * started with; and each work-item's record of which cell it computed. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define GX 24 /* the launch's box */
#define GY 20
#define GZ 16
#define OX 5 /* its global offset */
#define OY 3
#define OZ 2
#define MARKER 0x7eadbeef

static int sum6(const int32_t *in, uint32_t nx, uint32_t ny, uint32_t nz, uint32_t x, uint32_t y, uint32_t z) {
  size_t plane = (size_t)nx * ny, c = z * plane + (size_t)y * nx + x;
  int s = 0;
  if (x > 0) s += in[c - 1];
  if (x + 1 < nx) s += in[c + 1];
  if (y > 0) s += in[c - nx];
  if (y + 1 < ny) s += in[c + nx];
  if (z > 0) s += in[c - plane];
  if (z + 1 < nz) s += in[c + plane];
  return s;
}

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_load(ctx, "volume3d", "volume3d_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  /* Cube groups of local^3 items; when a cube exceeds the device's work-group
   * size, the z side is cut to fit (16x16x4 on a 1024-item device). */
  const uint32_t local = ctx->local_size ? ctx->local_size : 4;
  const uint32_t max_wg = rvhal_device_get_info(ctx->dev)->max_work_group_size;
  uint32_t lz = local;
  if ((uint64_t)local * local * local > max_wg) lz = (uint64_t)local * local < max_wg ? max_wg / (local * local) : 1;
  if ((uint64_t)local * local * lz > max_wg) { /* not even one z layer fits: no grid worth allocating */
    snprintf(summary, cap, "a %ux%u work-group exceeds the device's %u work-items", local, local, max_wg);
    rvhal_program_free(ctx->dev, prog);
    return -1;
  }
  const uint32_t gx = example_round_up(GX, local), gy = example_round_up(GY, local), gz = example_round_up(GZ, lz);
  /* The grid: the box plus margins of different widths on each side. */
  const uint32_t nx = OX + gx + 3, ny = OY + gy + 2, nz = OZ + gz + 1;
  const size_t cells = (size_t)nx * ny * nz, items = (size_t)gx * gy * gz;
  int32_t *in = malloc(cells * 4), *out = malloc(cells * 4);
  uint32_t *where = malloc(items * 4), seed = 3;
  hal_addr_t din = 0, dout = 0, dwhere = 0;
  if (!in || !out || !where) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < cells; i++) in[i] = (int32_t)(example_rand(&seed) % 2001) - 1000;
  const int32_t marker = MARKER;
  const uint32_t no_cell = UINT32_MAX;
  if ((rc = rvhal_mem_alloc(ctx->dev, cells * 4, 0, &din)) || (rc = rvhal_mem_alloc(ctx->dev, cells * 4, 0, &dout)) ||
      (rc = rvhal_mem_alloc(ctx->dev, items * 4, 0, &dwhere)) || (rc = rvhal_mem_write(ctx->dev, din, in, cells * 4)) ||
      (rc = rvhal_mem_fill(ctx->dev, dout, &marker, 4, cells * 4)) ||
      (rc = rvhal_mem_fill(ctx->dev, dwhere, &no_cell, 4, items * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_arg_t args[6] = {rvhal_arg_global(din),           rvhal_arg_global(dout),
                       rvhal_arg_global(dwhere),        rvhal_arg_value(&nx, sizeof nx),
                       rvhal_arg_value(&ny, sizeof ny), rvhal_arg_value(&nz, sizeof nz)};
  hal_ndrange_t nd = {.offset = {OX, OY, OZ}, .global = {gx, gy, gz}, .local = {local, local, lz}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 6, 3, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, out, dout, cells * 4)) || (rc = rvhal_mem_read(ctx->dev, where, dwhere, items * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  for (uint32_t z = 0; z < nz; z++)
    for (uint32_t y = 0; y < ny; y++)
      for (uint32_t x = 0; x < nx; x++) {
        size_t c = ((size_t)z * ny + y) * nx + x;
        int inside = x >= OX && x < OX + gx && y >= OY && y < OY + gy && z >= OZ && z < OZ + gz;
        int32_t want = inside ? sum6(in, nx, ny, nz, x, y, z) : marker;
        if (out[c] != want && bad++ == 0)
          snprintf(summary, cap, "out[%u][%u][%u] (z, y, x) = %d, expected %d%s", z, y, x, out[c], want,
                   inside ? "" : " (outside the launched box: must stay untouched)");
      }
  for (uint32_t z = 0; z < gz; z++)
    for (uint32_t y = 0; y < gy; y++)
      for (uint32_t x = 0; x < gx; x++) {
        size_t r = ((size_t)z * gy + y) * gx + x;
        uint32_t want = (uint32_t)(((size_t)(z + OZ) * ny + (y + OY)) * nx + (x + OX));
        if (where[r] != want && bad++ == 0)
          snprintf(summary, cap, "work-item (%u, %u, %u) past the offset computed cell %d, expected %u", x, y, z,
                   (int)where[r], want);
      }
  if (bad) {
    size_t len = 0;
    while (len < cap && summary[len]) len++;
    if (len < cap) snprintf(summary + len, cap - len, "; %zu values differ", bad);
    rc = -1;
  } else {
    snprintf(summary, cap, "3-D, %ux%ux%u at offset (%d,%d,%d), groups of %ux%ux%u", gx, gy, gz, OX, OY, OZ, local,
             local, lz);
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dout);
  rvhal_mem_free(ctx->dev, dwhere);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(out);
  free(where);
  return rc;
}

const example_t example_volume3d = {"volume3d", "6-neighbour sum over a 3-D box at a global offset", run};
