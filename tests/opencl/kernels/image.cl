// For the test cli.cc_refuses_images: images are not supported by rvhal.
__kernel void blur(read_only image2d_t src, __global float4 *dst, sampler_t s) {
  dst[get_global_id(0)] = read_imagef(src, s, (int2)(0, 0));
}
