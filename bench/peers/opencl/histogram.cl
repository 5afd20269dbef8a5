// rvhal-bench peers' histogram in OpenCL C (built by rvhal cc, one kernel an
// ELF as the C SDK's examples): examples/histogram's body, written with OpenCL C's
// built-ins, for the bench's opencl/sdk ratio.
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
