/* scan (1-D): inclusive prefix sums of 3840 integers within each work-group
 * (Hillis-Steele in two local buffers, one barrier per step), every element
 * checked against the host's running sum of its group. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define N_BASE 3840u /* divisible by 1, 2, 3, 4, 5, 6, 8, 16, 64 */

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "scan", "scan_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N_BASE, local); /* round up to whole groups */
  uint32_t *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  hal_addr_t din = 0, dout = 0;
  if (!in || !out) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  uint32_t seed = 3;
  for (uint32_t i = 0; i < n; i++) in[i] = example_rand(&seed) >> 16;
  if ((rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 4, 0, &din)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 4, 0, &dout)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  hal_arg_t args[4] = {rvhal_arg_global(din), rvhal_arg_global(dout), rvhal_arg_local((hal_size_t)local * 4),
                       rvhal_arg_local((hal_size_t)local * 4)};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 4, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, out, dout, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  uint32_t bad = 0, first = 0, got = 0, want = 0, run_sum = 0;
  for (uint32_t i = 0; i < n; i++) {
    run_sum = (i % local ? run_sum : 0) + in[i];
    if (out[i] != run_sum && bad++ == 0) {
      first = i;
      got = out[i];
      want = run_sum;
    }
  }
  if (bad) {
    snprintf(summary, cap, "%u of %u prefix sums differ; first: out[%u] (group %u, item %u) = %u, expected %u", bad, n,
             first, first / local, first % local, got, want);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u uints, inclusive scans of %u groups of %u", n, n / local, local);
    rc = 0;
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dout);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(out);
  return rc;
}

const example_t example_scan = {"scan", "inclusive prefix sums within each work-group (1-D)", run};
