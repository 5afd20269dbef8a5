// Vector add in OpenCL C: rvhal_add_kernel(vadd_cl vadd.cl EMBED) from an
// installed rvhal (find_package), run by opencl.c.
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
