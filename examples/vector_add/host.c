/* vector_add (1-D): c = a + b over 65536 elements. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

/* 65536 rounded up to a multiple of the work-group size */
#define N_MIN 65536

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "vector_add", "vector_add_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t N = example_round_up(N_MIN, local);
  uint32_t *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4), seed = 1;
  for (uint32_t i = 0; i < N; i++) {
    a[i] = example_rand(&seed);
    b[i] = example_rand(&seed);
  }
  hal_addr_t da = 0, db = 0, dc = 0;
  hal_ndrange_t nd = {.global = {N, 1, 1}, .local = {local, 1, 1}};
  hal_arg_t args[3];
  if ((rc = rvhal_mem_alloc(ctx->dev, N * 4, 0, &da)) || (rc = rvhal_mem_alloc(ctx->dev, N * 4, 0, &db)) ||
      (rc = rvhal_mem_alloc(ctx->dev, N * 4, 0, &dc)) || (rc = rvhal_mem_write(ctx->dev, da, a, N * 4)) ||
      (rc = rvhal_mem_write(ctx->dev, db, b, N * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  args[0] = rvhal_arg_global(da);
  args[1] = rvhal_arg_global(db);
  args[2] = rvhal_arg_global(dc);
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 3, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, c, dc, N * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  rc = 0;
  for (uint32_t i = 0; i < N && !rc; i++)
    if (c[i] != a[i] + b[i]) {
      snprintf(summary, cap, "c[%u] = %u, expected %u", i, c[i], a[i] + b[i]);
      rc = -1;
    }
  if (!rc) snprintf(summary, cap, "1-D, %u items in groups of %u", N, local);
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

const example_t example_vector_add = {"vector_add", "c[i] = a[i] + b[i] (1-D)", run};
