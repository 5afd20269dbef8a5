/* matrix_transpose (2-D): out = in transposed. `in` has `height` rows of
 * `width` elements; work-item (x, y) moves in[y][x] to out[x][y], so `out`
 * has `width` rows of `height` elements. */
#include "kernel_if.h"

__kernel void matrix_transpose(__global uint *in, __global uint *out, uint width, uint height, exec_state_t *ctx) {
  size_t x = get_global_id(0, ctx);
  size_t y = get_global_id(1, ctx);
  if (x >= width || y >= height) return;
  out[x * height + y] = in[y * width + x];
}

typedef struct {
  __global uint *in;
  __global uint *out;
  uint width;
  uint height;
} matrix_transpose_args;

static void matrix_transpose_item(const matrix_transpose_args *a, exec_state_t *e) {
  matrix_transpose(a->in, a->out, a->width, a->height, e);
}

RVHAL_KERNEL(matrix_transpose_entry, matrix_transpose_args, matrix_transpose_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_VALUE(width), RVHAL_VALUE(height))
