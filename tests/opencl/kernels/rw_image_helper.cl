// For cli.cc_refuses_read_write_image (OpenCL C 2.0): a kernel that reaches
// a read of a read_write image is refused, naming the kernel and the call.
float4 peek(read_write image2d_t im) { return read_imagef(im, (int2)(0, 0)); }

__kernel void touch(__global float *out, read_write image2d_t im) { out[0] = peek(im).x; }
