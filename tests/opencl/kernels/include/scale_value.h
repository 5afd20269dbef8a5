// For rvhal_add_kernel(... INCLUDE_DIRECTORIES ...) in tests/opencl/opencl.cmake.
#define SCALE_FROM_HEADER 3
