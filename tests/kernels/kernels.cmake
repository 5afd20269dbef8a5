# Kernels used by the device tests and benchmarks (device build).
rvhal_add_kernel(empty kernels/empty.c)
rvhal_add_kernel(barrier_check kernels/barrier_check.c)
rvhal_add_kernel(dt_ndrange kernels/dt_ndrange.c)
rvhal_add_kernel(dt_args kernels/dt_args.c)
rvhal_add_kernel(dt_prog_a kernels/dt_prog_a.c)
rvhal_add_kernel(dt_prog_b kernels/dt_prog_b.c)
rvhal_add_kernel(dt_mem kernels/dt_mem.c)
rvhal_add_kernel(dt_trap kernels/dt_trap.c)
rvhal_add_kernel(dt_prog_b2 kernels/dt_prog_b2.c)
rvhal_add_kernel(dt_hostile kernels/dt_hostile.c)
rvhal_add_kernel(ock_adapter kernels/ock_adapter.c)
# Vector kernels (RVV, clang-16): run on devices with vector harts (device option vlen).
rvhal_add_rvv_kernel(rvv_ops ${CMAKE_CURRENT_SOURCE_DIR}/kernels/rvv_ops.c)
rvhal_add_rvv_kernel(rvv_barrier ${CMAKE_CURRENT_SOURCE_DIR}/kernels/rvv_barrier.c)
# The fixed-frame limit of the kernel flags holds (see big_frame.c).
try_compile(RVHAL_BIG_FRAME_COMPILES ${CMAKE_BINARY_DIR}/big_frame_check
  SOURCES ${RVHAL_SOURCE_DIR}/tests/kernels/big_frame.c
  COMPILE_DEFINITIONS ${RVHAL_KERNEL_CFLAGS} OUTPUT_VARIABLE _big_frame_out)
if(RVHAL_BIG_FRAME_COMPILES)
  message(FATAL_ERROR "a kernel with a 40 KiB fixed frame compiled with the kernel flags: "
                      "stack frames could jump the stack guard")
elseif(NOT _big_frame_out MATCHES "frame size")
  message(FATAL_ERROR "big_frame.c failed to compile for another reason than its frame:\n${_big_frame_out}")
endif()
