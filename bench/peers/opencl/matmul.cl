// rvhal-bench peers' matmul in OpenCL C (built by rvhal cc, one kernel an
// ELF as the C SDK's examples): examples/matrix_multiply's body, written with OpenCL C's
// built-ins, for the bench's opencl/sdk ratio.
__kernel void matmul(__global const float *a, __global const float *b, __global float *c, uint m, uint k, uint n) {
  size_t col = get_global_id(0), row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (uint i = 0; i < k; i++) sum += a[row * k + i] * b[(size_t)i * n + col];
  c[row * n + col] = sum;
}
