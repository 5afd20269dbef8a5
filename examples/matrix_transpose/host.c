/* matrix_transpose (2-D): a 480x240 matrix (480 wide, 240 high) transposed
 * into a 240x480 one, one work-item per element, square work-groups. The
 * output starts filled with a marker so that an element no work-item wrote
 * is caught too. */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"

#define WIDTH 480  /* columns of the input */
#define HEIGHT 240 /* rows of the input */
#define MARKER 0xdeadbeefu

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_load(ctx, "matrix_transpose", "matrix_transpose_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  /* Square groups of local x local; the matrix grows to a multiple of it. */
  const uint32_t local = ctx->local_size ? ctx->local_size : 8;
  const uint32_t w = example_round_up(WIDTH, local), h = example_round_up(HEIGHT, local);
  const size_t n = (size_t)w * h, bytes = n * sizeof(uint32_t);
  uint32_t *in = malloc(bytes), *out = malloc(bytes);
  hal_addr_t din = 0, dout = 0;
  if (!in || !out) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  /* Distinct values (an odd multiplier is a bijection mod 2^32), so an element
   * moved to the wrong place cannot match by accident. */
  for (size_t i = 0; i < n; i++) in[i] = (uint32_t)(i + 1) * 2654435761u;
  const uint32_t marker = MARKER;
  if ((rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &din)) || (rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &dout)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, bytes)) ||
      (rc = rvhal_mem_fill(ctx->dev, dout, &marker, sizeof marker, bytes))) {
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
  /* out has w rows of h elements: out[x][y] = in[y][x]. */
  size_t bad = 0, first_x = 0, first_y = 0;
  for (size_t x = 0; x < w; x++)
    for (size_t y = 0; y < h; y++)
      if (out[x * h + y] != in[y * w + x] && bad++ == 0) {
        first_x = x;
        first_y = y;
      }
  if (bad) {
    snprintf(summary, cap, "%zu of %zu elements differ; first out[%zu][%zu] = 0x%08x, expected in[%zu][%zu] = 0x%08x",
             bad, n, first_x, first_y, out[first_x * h + first_y], first_y, first_x, in[first_y * w + first_x]);
    rc = -1;
  } else {
    snprintf(summary, cap, "2-D, %ux%u -> %ux%u in groups of %ux%u", w, h, h, w, local, local);
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dout);
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(out);
  return rc;
}

const example_t example_matrix_transpose = {"matrix_transpose", "out[x][y] = in[y][x], 480x240 (2-D)", run};
