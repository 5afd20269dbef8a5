// rvhal-bench's OpenCL C kernels (bench/bench_opencl.c): the same work as
// the C SDK's bench_nothing, bench_barriers and bench_vadd
// (bench/kernels/bench_kernels.c), for figures side by side.

__kernel void cl_nothing(uint unused) {}

__kernel void cl_barriers(uint rounds) {
  for (uint i = 0; i < rounds; i++) barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void cl_vadd(__global const uint *a, __global const uint *b, __global uint *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
