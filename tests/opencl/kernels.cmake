# The built-in tests' kernel (device build): the C kernel clt_kernel.c, the
# OpenCL C driver and the whole built-in library, compiled by clang-16 for
# this device (tests/opencl/builtins_device.c runs it).
include(${RVHAL_SOURCE_DIR}/cmake/RvhalOpenclBuiltins.cmake)
set(clt_target --target=riscv${RVHAL_XLEN}-unknown-elf -march=${RVHAL_MARCH} -mabi=${RVHAL_MABI} -mcmodel=medany
    -mno-relax)
rvhal_opencl_objects(clt_lib_objs clt_rv${RVHAL_XLEN} TARGET_FLAGS ${clt_target} SOURCES ${RVHAL_OPENCL_BUILTIN_SOURCES})
# The driver at -O0: optimising its thousands of loops takes minutes (opencl.cmake).
rvhal_opencl_objects(clt_driver_obj clt_rv${RVHAL_XLEN} TARGET_FLAGS ${clt_target} -O0 -Wno-unused-parameter
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_driver.cl DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_cases.h)
rvhal_add_kernel(clt_kernel opencl/clt_kernel.c opencl/clt_dispatch.c opencl/clt_shapes.c ${clt_lib_objs}
                 ${clt_driver_obj})
