/* queue_pipeline: out[i] = in[i] * k + 1, the stage each chunk of the
 * pipeline runs (the point of the example is in host.c). */
#include "kernel_if.h"

__kernel void scale(__global const uint *in, __global uint *out, uint k, exec_state_t *item) {
  uint i = get_global_id(0, item);
  out[i] = in[i] * k + 1u;
}

typedef struct {
  __global const uint *in;
  __global uint *out;
  uint k;
} scale_args;

static void scale_item(const scale_args *a, exec_state_t *e) { scale(a->in, a->out, a->k, e); }

RVHAL_KERNEL(scale_entry, scale_args, scale_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_VALUE(k))
