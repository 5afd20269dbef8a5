/* matrix_multiply_tiled (2-D): C = A x B, A 48 x 64 and B 64 x 56 (each side
 * rounded up to a multiple of the tile), with square tiles in
 * __local_variable arrays and two barriers per trip along K. The inputs are
 * multiples of 1/4 in [-2, 2], so every product and partial sum is exact in
 * float whatever the order (and with or without fused multiply-add): C must
 * match the host's loop exactly. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define M_BASE 48u
#define K_BASE 64u
#define N_BASE 56u
#define MAX_TILE 32u /* as in kernel.c */

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  const uint32_t ts = ctx->local_size ? ctx->local_size : 8;
  if (ts > MAX_TILE) {
    snprintf(summary, cap, "not run: a %ux%u tile is larger than this kernel's %ux%u local tiles", ts, ts, MAX_TILE,
             MAX_TILE);
    return -1;
  }
  const uint32_t max_items = rvhal_device_get_info(ctx->dev)->max_work_group_size;
  if (ts * ts > max_items) {
    snprintf(summary, cap, "not run: %ux%u tiles are groups of %u work-items, the device allows at most %u", ts, ts,
             ts * ts, max_items);
    return -1;
  }
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_load(ctx, "matrix_multiply_tiled", "matrix_multiply_tiled_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t m = example_round_up(M_BASE, ts), kk = example_round_up(K_BASE, ts), n = example_round_up(N_BASE, ts);
  const size_t asz = (size_t)m * kk, bsz = (size_t)kk * n, csz = (size_t)m * n;
  float *a = malloc(asz * sizeof *a), *b = malloc(bsz * sizeof *b), *c = malloc(csz * sizeof *c);
  hal_addr_t da = 0, db = 0, dc = 0;
  if (!a || !b || !c) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  uint32_t seed = 7;
  for (size_t i = 0; i < asz; i++) a[i] = (float)((int)(example_rand(&seed) % 17) - 8) * 0.25f;
  for (size_t i = 0; i < bsz; i++) b[i] = (float)((int)(example_rand(&seed) % 17) - 8) * 0.25f;
  if ((rc = rvhal_mem_alloc(ctx->dev, asz * 4, 0, &da)) || (rc = rvhal_mem_alloc(ctx->dev, bsz * 4, 0, &db)) ||
      (rc = rvhal_mem_alloc(ctx->dev, csz * 4, 0, &dc)) || (rc = rvhal_mem_write(ctx->dev, da, a, asz * 4)) ||
      (rc = rvhal_mem_write(ctx->dev, db, b, bsz * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, m, 1}, .local = {ts, ts, 1}};
  hal_arg_t args[6] = {rvhal_arg_global(da),   rvhal_arg_global(db),   rvhal_arg_global(dc),
                       rvhal_arg_value(&m, 4), rvhal_arg_value(&n, 4), rvhal_arg_value(&kk, 4)};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 6, 2, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, c, dc, csz * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  uint32_t bad = 0, bi = 0, bj = 0;
  float got = 0, want = 0;
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      float s = 0.0f;
      for (uint32_t x = 0; x < kk; x++) s += a[(size_t)i * kk + x] * b[(size_t)x * n + j];
      if (c[(size_t)i * n + j] != s && bad++ == 0) {
        bi = i;
        bj = j;
        got = c[(size_t)i * n + j];
        want = s;
      }
    }
  if (bad) {
    snprintf(summary, cap, "%u of %zu elements differ; first: C[%u][%u] = %g, expected %g", bad, csz, bi, bj,
             (double)got, (double)want);
    rc = -1;
  } else {
    snprintf(summary, cap, "2-D, %ux%u = %ux%u x %ux%u, %ux%u tiles, exact", m, n, m, kk, kk, n, ts, ts);
    rc = 0;
  }
out:
  rvhal_mem_free(ctx->dev, da);
  rvhal_mem_free(ctx->dev, db);
  rvhal_mem_free(ctx->dev, dc);
  rvhal_program_free(ctx->dev, prog);
  free(a);
  free(b);
  free(c);
  return rc;
}

const example_t example_matrix_multiply_tiled = {"matrix_multiply_tiled",
                                                 "C = A x B with local tiles, two barriers per step (2-D)", run};
