// rvhal_add_kernel(NAME FILE.cl INCLUDE_DIRECTORIES ... COMPILE_OPTIONS ...)
// (tests/opencl/opencl.cmake): builds only if both reach the compiler;
// device.opencl.cmake_kernel runs it (out[i] = in[i] * 3 + 4).
#include "scale_value.h"
#ifndef OFFSET
#error "OFFSET must come from COMPILE_OPTIONS"
#endif
__kernel void scale(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * SCALE_FROM_HEADER + OFFSET;
}
