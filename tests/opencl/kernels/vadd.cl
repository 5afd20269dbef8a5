// Vector add in OpenCL C, built by CMake's rvhal_add_kernel(NAME vadd.cl)
// (tests/opencl/opencl.cmake, tests/consumer) and used by rvhal-bench.
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
