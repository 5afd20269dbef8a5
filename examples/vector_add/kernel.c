/* vector_add: c[i] = a[i] + b[i] (1-D). The kernel body is clik's, unchanged. */
#include "kernel_if.h"

__kernel void vector_add(__global uint *src1, __global uint *src2, __global uint *dst, exec_state_t *item) {
  uint tid = get_global_id(0, item);
  dst[tid] = src1[tid] + src2[tid];
}

typedef struct {
  __global uint *src1;
  __global uint *src2;
  __global uint *dst;
} vector_add_args;

static void vector_add_item(const vector_add_args *a, exec_state_t *e) { vector_add(a->src1, a->src2, a->dst, e); }

RVHAL_KERNEL(vector_add_entry, vector_add_args, vector_add_item, RVHAL_GLOBAL(src1), RVHAL_GLOBAL(src2), RVHAL_GLOBAL(dst))
