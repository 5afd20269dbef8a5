// For cli.cc_unused_image_helper, cli.cc_reached_image and icd.source: a
// helper that calls read_imagef, which no kernel calls, is dropped; with
// -DCALL_HELPER the kernel reaches it and builds too (rvhal has images).
float4 sample_at(read_only image2d_t im, sampler_t s, int2 p) { return read_imagef(im, s, p); }

#ifdef CALL_HELPER
__kernel void scale(__global float *out, __global const float *in, float k, read_only image2d_t im, sampler_t s) {
  size_t i = get_global_id(0);
  out[i] = in[i] * k + sample_at(im, s, (int2)(0, 0)).x;
}
#else
__kernel void scale(__global float *out, __global const float *in, float k) {
  size_t i = get_global_id(0);
  out[i] = in[i] * k;
}
#endif
