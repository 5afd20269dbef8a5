// rvhal-bench peers' blur in OpenCL C (built by rvhal cc, one kernel an
// ELF as the C SDK's examples): examples/blur's body, written with OpenCL C's
// built-ins, for the bench's opencl/sdk ratio.
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
