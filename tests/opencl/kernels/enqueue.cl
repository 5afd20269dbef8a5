// For the test cli.cc_refuses_enqueue (OpenCL C 2.0): device-side enqueue is
// not supported by rvhal.
__kernel void parent(__global int *a) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[0] = 1; });
}
