// For cli.cc_read_write_image (OpenCL C 2.0): a helper reading a read_write
// image, reached from a kernel, builds (__opencl_c_read_write_images).
float4 peek(read_write image2d_t im) { return read_imagef(im, (int2)(0, 0)); }

__kernel void touch(__global float *out, read_write image2d_t im) { out[0] = peek(im).x; }
