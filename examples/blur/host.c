/* blur (2-D): 3x3 box blur of a 480x240 float image with clamped edges, one
 * work-item per pixel in square groups. Checked exactly: the kernel and the
 * host add the nine pixels in the same order, then divide by 9 (no multiply,
 * so nothing the device compiler could fuse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define WIDTH 480
#define HEIGHT 240

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_load(ctx, "blur", "blur_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t local = ctx->local_size ? ctx->local_size : 8;
  const uint32_t w = example_round_up(WIDTH, local), h = example_round_up(HEIGHT, local);
  const size_t n = (size_t)w * h, bytes = n * sizeof(float);
  float *in = malloc(bytes), *out = malloc(bytes);
  uint32_t seed = 17;
  hal_addr_t din = 0, dout = 0;
  if (!in || !out) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < n; i++) in[i] = (float)(example_rand(&seed) % 1000000) / 997.0f;
  const float nan_marker = __builtin_nanf("");
  if ((rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &din)) || (rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &dout)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, bytes)) ||
      (rc = rvhal_mem_fill(ctx->dev, dout, &nan_marker, sizeof nan_marker, bytes))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_arg_t args[4] = {rvhal_arg_global(din), rvhal_arg_global(dout), rvhal_arg_value(&w, sizeof w),
                       rvhal_arg_value(&h, sizeof h)};
  hal_ndrange_t nd = {.global = {w, h, 1}, .local = {local, local, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 4, 2, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, out, dout, bytes))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  for (int y = 0; y < (int)h; y++)
    for (int x = 0; x < (int)w; x++) {
      volatile float sum = 0.0f; /* float steps, as on the device */
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          sum += in[clamp_int(y + dy, 0, (int)h - 1) * (int)w + clamp_int(x + dx, 0, (int)w - 1)];
      const float want = sum / 9.0f;
      const float got = out[(size_t)y * w + x];
      if (memcmp(&got, &want, sizeof want) && bad++ == 0)
        snprintf(summary, cap, "out[%d][%d] = %.9g, expected %.9g", y, x, got, want);
    }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu of %zu pixels differ", bad, n);
    rc = -1;
  } else {
    snprintf(summary, cap, "2-D, %ux%u image in groups of %ux%u", w, h, local, local);
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dout);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(out);
  return rc;
}

const example_t example_blur = {"blur", "3x3 box blur, clamped edges, 480x240 floats (2-D)", run};
