# Execution-model and counter test kernels (device build).
rvhal_add_kernel(ex_barrier exec/ex_barrier.c)
rvhal_add_kernel(ex_misc exec/ex_misc.c)
target_include_directories(ex_barrier PRIVATE kernels)
target_include_directories(ex_misc PRIVATE kernels)
