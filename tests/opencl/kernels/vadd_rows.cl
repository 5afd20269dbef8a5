// Each work-item adds a row of n floats: a counted loop that clang's
// auto-vectorizer turns into RVV when the device has V (rvhal cc --isa
// rv64imafdcv; the OpenCL platform passes the device's ISA itself).
__kernel void vadd_rows(__global const float *a, __global const float *b, __global float *c, uint n) {
  size_t row = get_global_id(0) * n;
  for (uint i = 0; i < n; i++) c[row + i] = a[row + i] + b[row + i];
}
