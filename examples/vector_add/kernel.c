/* vector_add: c[i] = a[i] + b[i] (1-D). The kernel body is clik's, unchanged. */
#include "kernel_if.h"

__kernel void vector_add(__global uint *src1, __global uint *src2, __global uint *dst, exec_state_t *item) {
  uint tid = get_global_id(0, item);
  dst[tid] = src1[tid] + src2[tid];
}

/* One line makes the entry point vector_add_entry, its argument struct and
 * the metadata the host checks launches against. */
RVHAL_KERNEL_ENTRY(vector_add, RVHAL_GLOBAL(uint *, src1), RVHAL_GLOBAL(uint *, src2), RVHAL_GLOBAL(uint *, dst))
