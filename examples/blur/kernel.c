/* blur (2-D stencil): 3x3 box blur of a width x height float image, edges
 * clamped (a pixel past the border reads the nearest border pixel). */
#include "kernel_if.h"

static inline int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

__kernel void blur(__global float *in, __global float *out, uint width, uint height, exec_state_t *ctx) {
  int x = (int)get_global_id(0, ctx);
  int y = (int)get_global_id(1, ctx);
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++) {
    int yy = clamp_int(y + dy, 0, (int)height - 1);
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp_int(x + dx, 0, (int)width - 1);
      sum += in[yy * (int)width + xx];
    }
  }
  out[y * (int)width + x] = sum / 9.0f;
}

typedef struct {
  __global float *in;
  __global float *out;
  uint width;
  uint height;
} blur_args;

static void blur_item(const blur_args *a, exec_state_t *e) { blur(a->in, a->out, a->width, a->height, e); }

RVHAL_KERNEL(blur_entry, blur_args, blur_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_VALUE(width), RVHAL_VALUE(height))
