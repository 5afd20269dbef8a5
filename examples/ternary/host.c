/* ternary (1-D, 7680 elements): out[i] = cond[i] ? a[i] : b[i] with cond
 * zero or any non-zero int, and clamped[i] = x[i] clamped to [lo, hi] by a
 * nested ternary. Checked exactly (the floats are only moved, bit for bit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define N 7680 /* 240 * 32 */
#define NBUF 6

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 16, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "ternary", "ternary_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N, local);
  const size_t bytes = (size_t)n * 4;
  const int32_t lo = -1000, hi = 2500;
  /* cond, a, b, out, x, clamped: all 4-byte elements. */
  void *h[NBUF] = {0};
  hal_addr_t d[NBUF] = {0};
  hal_arg_t args[NBUF + 2];
  for (int i = 0; i < NBUF; i++)
    if (!(h[i] = malloc(bytes))) {
      snprintf(summary, cap, "out of host memory");
      rc = -1;
      goto out;
    }
  int32_t *cond = h[0], *x = h[4], *clamped = h[5];
  float *a = h[1], *b = h[2], *sel = h[3];
  uint32_t seed = 7;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = example_rand(&seed);
    /* Half zero; the rest any non-zero value, negative ones included. */
    cond[i] = r & 1 ? (int32_t)(example_rand(&seed) | 1u) : 0;
    a[i] = (float)(int32_t)example_rand(&seed) / 65536.0f;
    b[i] = -(float)(example_rand(&seed) % 100000) / 7.0f;
    x[i] = (int32_t)(example_rand(&seed) % 8001) - 4000;
  }
  for (int i = 0; i < NBUF; i++)
    if ((rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &d[i]))) {
      rc = example_fail(summary, cap, "mem_alloc", rc);
      goto out;
    }
  const uint8_t ff = 0xff;
  if ((rc = rvhal_mem_write(ctx->dev, d[0], cond, bytes)) || (rc = rvhal_mem_write(ctx->dev, d[1], a, bytes)) ||
      (rc = rvhal_mem_write(ctx->dev, d[2], b, bytes)) || (rc = rvhal_mem_fill(ctx->dev, d[3], &ff, 1, bytes)) ||
      (rc = rvhal_mem_write(ctx->dev, d[4], x, bytes)) || (rc = rvhal_mem_fill(ctx->dev, d[5], &ff, 1, bytes))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  for (int i = 0; i < NBUF; i++) args[i] = rvhal_arg_global(d[i]);
  args[NBUF] = rvhal_arg_value(&lo, sizeof lo);
  args[NBUF + 1] = rvhal_arg_value(&hi, sizeof hi);
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo_opts = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, NBUF + 2, 1, &lo_opts))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, sel, d[3], bytes)) || (rc = rvhal_mem_read(ctx->dev, clamped, d[5], bytes))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  for (uint32_t i = 0; i < n; i++) {
    const float want = cond[i] ? a[i] : b[i];
    const int32_t wc = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
    if (memcmp(&sel[i], &want, 4) && bad++ == 0)
      snprintf(summary, cap, "out[%u] = %.9g, expected %.9g (cond %d)", i, sel[i], want, cond[i]);
    if (clamped[i] != wc && bad++ == 0)
      snprintf(summary, cap, "clamped[%u] = %d, expected %d (x %d)", i, clamped[i], wc, x[i]);
  }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu values differ", bad);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u items in groups of %u", n, local);
  }
out:
  for (int i = 0; i < NBUF; i++) {
    rvhal_mem_free(ctx->dev, d[i]);
    free(h[i]);
  }
  rvhal_program_free(ctx->dev, prog);
  return rc;
}

const example_t example_ternary = {"ternary", "out[i] = cond[i] ? a[i] : b[i], and a clamp by ternaries", run};
