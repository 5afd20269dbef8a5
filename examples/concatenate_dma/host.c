/* concatenate_dma (1-D): dst = src1 ++ src2 for two inputs of 3840 uints,
 * 480 work-items moving 8 elements of each, through two local tiles per
 * group with start_dma/wait_dma and a barrier. dst starts filled with a
 * marker; every element is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define ITEMS 480
#define BLOCK 8 /* elements of each input per work-item */
#define MARKER 0xdeadbeefu

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 16, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "concatenate_dma", "concatenate_dma_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t items = example_round_up(ITEMS, local), block = BLOCK;
  const size_t n = (size_t)items * block, bytes = n * 4; /* per input */
  uint32_t *src1 = malloc(bytes), *src2 = malloc(bytes), *dst = malloc(2 * bytes), seed = 11;
  hal_addr_t d1 = 0, d2 = 0, dd = 0;
  if (!src1 || !src2 || !dst) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    src1[i] = example_rand(&seed);
    src2[i] = example_rand(&seed);
  }
  const uint32_t marker = MARKER;
  if ((rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &d1)) || (rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &d2)) ||
      (rc = rvhal_mem_alloc(ctx->dev, 2 * bytes, 0, &dd)) || (rc = rvhal_mem_write(ctx->dev, d1, src1, bytes)) ||
      (rc = rvhal_mem_write(ctx->dev, d2, src2, bytes)) || (rc = rvhal_mem_fill(ctx->dev, dd, &marker, 4, 2 * bytes))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  const hal_size_t tile = (hal_size_t)local * block * 4; /* each group's slice of one input */
  hal_arg_t args[6] = {rvhal_arg_global(d1), rvhal_arg_global(d2), rvhal_arg_global(dd),
                       rvhal_arg_value(&block, sizeof block), rvhal_arg_local(tile), rvhal_arg_local(tile)};
  hal_ndrange_t nd = {.global = {items, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 6, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, dst, dd, 2 * bytes))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  for (size_t i = 0; i < 2 * n; i++) {
    uint32_t want = i < n ? src1[i] : src2[i - n];
    if (dst[i] != want && bad++ == 0)
      snprintf(summary, cap, "dst[%zu] = 0x%08x, expected src%d[%zu] = 0x%08x", i, dst[i], i < n ? 1 : 2,
               i < n ? i : i - n, want);
  }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu of %zu elements differ", bad, 2 * n);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, 2x%zu uints, %u items x %u in groups of %u", n, items, block, local);
  }
out:
  rvhal_mem_free(ctx->dev, d1);
  rvhal_mem_free(ctx->dev, d2);
  rvhal_mem_free(ctx->dev, dd);
  rvhal_program_free(ctx->dev, prog);
  free(src1);
  free(src2);
  free(dst);
  return rc;
}

const example_t example_concatenate_dma = {"concatenate_dma",
                                           "dst = src1 ++ src2 by start_dma/wait_dma via local tiles + barrier", run};
