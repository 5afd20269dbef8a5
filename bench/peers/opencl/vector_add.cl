// rvhal-bench peers' vector_add in OpenCL C (built by rvhal cc, one kernel an
// ELF as the C SDK's examples): examples/vector_add's body, written with OpenCL C's
// built-ins, for the bench's opencl/sdk ratio.
__kernel void vector_add(__global const uint *a, __global const uint *b, __global uint *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
