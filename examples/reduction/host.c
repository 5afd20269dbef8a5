/* reduction (1-D): the sum of 3840 16-bit integers, as a tree reduction in
 * local memory per work-group (any group size, powers of two or not), then
 * the partial sums added on the host. Every partial sum and the total must
 * be exact. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define N_BASE 3840u /* divisible by 1, 2, 3, 4, 5, 6, 8, 16, 64 */

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "reduction", "reduction_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N_BASE, local); /* round up to whole groups */
  const uint32_t groups = n / local;
  uint32_t *in = malloc((size_t)n * sizeof *in), *partial = malloc((size_t)groups * sizeof *partial);
  hal_addr_t din = 0, dpartial = 0;
  if (!in || !partial) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  uint32_t seed = 5;
  uint64_t want_total = 0;
  for (uint32_t i = 0; i < n; i++) {
    in[i] = example_rand(&seed) >> 16;
    want_total += in[i];
  }
  if ((rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 4, 0, &din)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)groups * 4, 0, &dpartial)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  hal_arg_t args[3] = {rvhal_arg_global(din), rvhal_arg_global(dpartial), rvhal_arg_local((hal_size_t)local * 4)};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 3, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, partial, dpartial, (hal_size_t)groups * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  uint32_t bad = 0, first = 0, got = 0, want = 0;
  uint64_t total = 0;
  for (uint32_t g = 0; g < groups; g++) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < local; i++) s += in[g * local + i];
    total += partial[g];
    if (partial[g] != s && bad++ == 0) {
      first = g;
      got = partial[g];
      want = s;
    }
  }
  if (bad) {
    snprintf(summary, cap, "%u of %u partial sums differ; first: group %u = %u, expected %u", bad, groups, first, got,
             want);
    rc = -1;
  } else if (total != want_total) { /* cannot differ when every partial sum matched */
    snprintf(summary, cap, "total %llu, expected %llu", (unsigned long long)total, (unsigned long long)want_total);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u uints, %u groups of %u, sum %llu", n, groups, local, (unsigned long long)total);
    rc = 0;
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dpartial);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(partial);
  return rc;
}

const example_t example_reduction = {"reduction", "tree reduction in local memory, partial sums added on host (1-D)",
                                     run};
