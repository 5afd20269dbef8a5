// For the test opencl.hot_loops (tests/opencl/hot_loops.py): OpenCL C as a
// user writes it, whose loops must hold no call into the built-in library
// and no read of a work-item query that cannot change during the call.

// A histogram: atomic_inc on __local, get_global_size(0) as the stride.
#define BINS 256
__kernel void histogram(__global const uchar *data, uint n, __global uint *hist) {
  __local uint local_hist[BINS];
  for (size_t b = get_local_id(0); b < BINS; b += get_local_size(0)) local_hist[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_hist[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = get_local_id(0); b < BINS; b += get_local_size(0)) atomic_add(&hist[b], local_hist[b]);
}

// Every other query as a loop's start or stride, an atomic on __global in
// the body (which the compiler cannot tell apart from the launch's
// descriptor or the item's state).
__kernel void strides(__global const uchar *data, uint n, __global uint *count) {
  for (size_t i = get_global_offset(0); i < n; i += get_enqueued_local_size(0)) atomic_inc(&count[data[i]]);
  for (size_t i = get_group_id(0); i < n; i += get_num_groups(0)) atomic_inc(&count[data[i]]);
  for (size_t i = get_local_id(0); i < n; i += get_local_size(0) + get_work_dim()) atomic_inc(&count[data[i]]);
  for (size_t i = get_global_linear_id(); i < n; i += get_global_size(1) * get_num_groups(1))
    atomic_inc(&count[data[i]]);
  for (size_t i = get_local_linear_id(); i < n; i += get_local_size(1)) atomic_dec(&count[data[i]]);
}

// A 3x3 blur: clamp on int, min, max and mad on float.
__kernel void blur(__global const float *in, __global float *out, uint width, uint height) {
  int x = get_global_id(0), y = get_global_id(1);
  float sum = 0.0f, lo = in[0], hi = in[0];
  for (int dy = -1; dy <= 1; dy++) {
    int yy = clamp(y + dy, 0, (int)height - 1);
    for (int dx = -1; dx <= 1; dx++) {
      float v = in[yy * (int)width + clamp(x + dx, 0, (int)width - 1)];
      sum = mad(v, 1.0f / 9.0f, sum);
      lo = min(lo, v);
      hi = max(hi, v);
    }
  }
  out[y * (int)width + x] = clamp(sum, lo, hi);
}
