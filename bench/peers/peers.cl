// The four kernels of `rvhal-bench peers` (peer_kernels.h) as an OpenCL C
// programmer would write them, built by rvhal cc: the same work as the C
// SDK's examples (vector_add, matrix_multiply, blur, histogram), for the
// bench's opencl/sdk ratios: the examples' bodies, with OpenCL C's
// built-ins (get_global_id(0), clamp, __local, atomic_inc, barrier) where
// they use the SDK's. Each kernel's name is the peer kernel's; the
// arguments are the examples' (bench_peers.c passes the same ones).
__kernel void vector_add(__global const uint *a, __global const uint *b, __global uint *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void matmul(__global const float *a, __global const float *b, __global float *c, uint m, uint k, uint n) {
  size_t col = get_global_id(0), row = get_global_id(1);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (uint i = 0; i < k; i++) sum += a[row * k + i] * b[(size_t)i * n + col];
  c[row * n + col] = sum;
}

__kernel void blur(__global const float *in, __global float *out, uint width, uint height) {
  int x = get_global_id(0), y = get_global_id(1);
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++) {
    int yy = clamp(y + dy, 0, (int)height - 1);
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp(x + dx, 0, (int)width - 1);
      sum += in[yy * (int)width + xx];
    }
  }
  out[y * (int)width + x] = sum / 9.0f;
}

#define BINS 256
__kernel void histogram(__global const uchar *data, uint n, __global uint *hist) {
  __local uint local_hist[BINS];
  size_t lid = get_local_id(0), lsize = get_local_size(0);
  for (size_t b = lid; b < BINS; b += lsize) local_hist[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_hist[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = lid; b < BINS; b += lsize)
    if (local_hist[b]) atomic_add(&hist[b], local_hist[b]);
}
