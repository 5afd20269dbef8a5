// For the test cli.cc_images: a kernel with image and sampler parameters
// that reads and writes images builds (the built-ins' image.cl).
__kernel void blur(read_only image2d_t src, __global float4 *dst, sampler_t s) {
  dst[get_global_id(0)] = read_imagef(src, s, (int2)(0, 0));
}
