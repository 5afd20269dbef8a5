# Kernels used by the device tests and benchmarks (device build).
rvhal_add_kernel(empty kernels/empty.c)
rvhal_add_kernel(barrier_check kernels/barrier_check.c)
