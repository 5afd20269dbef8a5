/* barrier_sum (1-D): per-group sums of 3840 floats through a local tile and
 * one barrier. Work-item 0 adds the tile in index order and so does the
 * host, so every sum must match exactly (the inputs use all 24 bits of the
 * mantissa: another order would round differently). */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define N_BASE 3840u /* divisible by 1, 2, 3, 4, 5, 6, 8, 16, 64 */

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "barrier_sum", "barrier_sum_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N_BASE, local); /* round up to whole groups */
  const uint32_t groups = n / local;
  float *in = malloc((size_t)n * sizeof *in), *sums = malloc((size_t)groups * sizeof *sums);
  hal_addr_t din = 0, dsums = 0;
  if (!in || !sums) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  uint32_t seed = 11;
  for (uint32_t i = 0; i < n; i++) in[i] = (float)(example_rand(&seed) >> 8) * (1.0f / 16777216.0f); /* [0, 1) */
  if ((rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 4, 0, &din)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)groups * 4, 0, &dsums)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  hal_arg_t args[3] = {rvhal_arg_global(din), rvhal_arg_global(dsums), rvhal_arg_local((hal_size_t)local * 4)};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 3, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, sums, dsums, (hal_size_t)groups * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  uint32_t bad = 0, first = 0;
  float got = 0, want = 0;
  for (uint32_t g = 0; g < groups; g++) {
    float s = 0.0f;
    for (uint32_t i = 0; i < local; i++) s += in[g * local + i];
    if (sums[g] != s && bad++ == 0) {
      first = g;
      got = sums[g];
      want = s;
    }
  }
  if (bad) {
    snprintf(summary, cap, "%u of %u group sums differ; first: group %u = %.9g, expected %.9g", bad, groups, first,
             (double)got, (double)want);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u floats, %u groups of %u, sums exact", n, groups, local);
    rc = 0;
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dsums);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(sums);
  return rc;
}

const example_t example_barrier_sum = {"barrier_sum", "per-group sums through a local tile and one barrier (1-D)",
                                       run};
