/* histogram: 256-bin histogram of n bytes. Each group counts into its own
 * local histogram (a __local_variable shared by the group's work-items) with
 * atomic_inc, then adds the non-zero bins to the global histogram with
 * atomic_add, which other groups, on other harts, update at the same time. */
#include "kernel_if.h"

#define BINS 256

__kernel void histogram(__global uchar *data, uint n, __global uint *hist, exec_state_t *ctx) {
  __local_variable uint local_hist[BINS];
  size_t lid = get_local_id(0, ctx), lsize = get_local_size(0, ctx);

  /* Local memory starts undefined: the group clears it together. */
  for (size_t b = lid; b < BINS; b += lsize) local_hist[b] = 0;
  barrier(ctx);

  for (size_t i = get_global_id(0, ctx); i < n; i += get_global_size(0, ctx)) atomic_inc(&local_hist[data[i]]);
  barrier(ctx);

  for (size_t b = lid; b < BINS; b += lsize)
    if (local_hist[b]) atomic_add(&hist[b], local_hist[b]);
}

typedef struct {
  __global uchar *data;
  uint n;
  __global uint *hist;
} histogram_args;

static void histogram_item(const histogram_args *a, exec_state_t *e) { histogram(a->data, a->n, a->hist, e); }

RVHAL_KERNEL(histogram_entry, histogram_args, histogram_item, RVHAL_GLOBAL(data), RVHAL_VALUE(n), RVHAL_GLOBAL(hist))
