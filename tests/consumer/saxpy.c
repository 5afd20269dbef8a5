/* y = a * x + y: one line of entry glue (RVHAL_KERNEL_ENTRY). */
#include "kernel_if.h"

__kernel void saxpy(__global const float *x, __global float *y, float a, uint n, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  if (i < n) y[i] = a * x[i] + y[i];
}

RVHAL_KERNEL_ENTRY(saxpy, RVHAL_GLOBAL(const float *, x), RVHAL_GLOBAL(float *, y), RVHAL_VALUE(float, a),
                   RVHAL_VALUE(uint, n))
